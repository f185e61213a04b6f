import Foundation
import SQLiteRecord
import XCTest

/// Requests run on real rows: what each expression matches, aggregates, cursors, deletes and updates.
final class RecordRequestTests: XCTestCase {
    private typealias Key = Novel.CodingKeys
    private var db: Database!

    override func setUpWithError() throws {
        db = try QueryFixtures.makeDatabase()
    }

    private func ids(_ request: QueryInterfaceRequest<Novel>) throws -> [Int64] {
        try request.fetch(db).compactMap(\.id)
    }

    func testFilterOrderLimitCountExists() throws {
        XCTAssertEqual(
            try Novel.filter(Key.genre == Genre.fiction).order(Key.pages.descending).fetch(db).map(\.title),
            ["Dune", "dune messiah"])
        XCTAssertEqual(try ids(Novel.filter(Column("genre").in([Genre.poetry, .essay])).order(Key.title)), [3, 5, 2])
        XCTAssertEqual(try Novel.filter(Column("in_print") == true).count(db), 3)
        XCTAssertFalse(try Novel.filter(Key.pages > 1_000).exists(db))
        XCTAssertTrue(try Novel.filter(Key.pages > 400).exists(db))
        XCTAssertEqual(try Novel.order(Key.pages).fetchOne(db)?.title, "100% Pure_Essays")
        XCTAssertNil(try Novel.filter(Key.pages > 1_000).fetchOne(db))
        XCTAssertNil(try Novel.order(Key.pages).limit(0).fetchOne(db))
        XCTAssertEqual(try Novel.order(Key.pages).limit(3, offset: 1).fetchOne(db)?.pages, 96)
        XCTAssertEqual(try Novel.order(Key.pages).limit(2, offset: 1).fetch(db).map(\.pages), [96, 145])
        XCTAssertEqual(try Novel.limit(2).count(db), 2)
        XCTAssertEqual(try Novel.all().count(db), 5)
        XCTAssertEqual(try ids(Novel.filter(Key.pages.between(96, and: 256)).order(Key.id)), [2, 4, 5])
        XCTAssertEqual(try ids(Novel.filter(Key.pages.notBetween(96, and: 256)).order(Key.id)), [1, 3])
    }

    func testNullsOrderingAndComparisons() throws {
        XCTAssertEqual(try ids(Novel.order(Key.rating.descending(nulls: .first))), [2, 5, 1, 4, 3])
        XCTAssertEqual(try ids(Novel.order(Key.rating.ascending(nulls: .last))), [3, 4, 1, 5, 2])
        XCTAssertEqual(try ids(Novel.order(Key.rating.descending)), [5, 1, 4, 3, 2])
        XCTAssertEqual(try ids(Novel.filter(Key.rating == nil)), [2])
        XCTAssertEqual(try Novel.filter(Key.rating != nil).count(db), 4)
        // SQL's rule: NULL is neither equal nor unequal to a value.
        XCTAssertEqual(try Novel.filter(Key.rating != 4.5).count(db), 3)
        XCTAssertEqual(try Novel.filter(!(Key.genre == Genre.fiction) || Key.pages > 400).count(db), 4)
        XCTAssertEqual(try Novel.filter(Key.pages * 2 > 500).count(db), 2)
        XCTAssertEqual(try ids(Novel.filter(Key.pages - Key.rating * 10 < 60).order(Key.id)), [3, 5])
    }

    func testSearchTextIsLiteralAndCaseInsensitiveInASCII() throws {
        XCTAssertEqual(try ids(Novel.filter(Key.title.hasPrefix("dune")).order(Key.id)), [1, 4])
        XCTAssertEqual(try ids(Novel.filter(Key.title.contains("%"))), [3])
        XCTAssertEqual(try ids(Novel.filter(Key.title.contains("_"))), [3])
        XCTAssertEqual(try ids(Novel.filter(Key.title.contains("0% P"))), [3])
        XCTAssertEqual(try ids(Novel.filter(Key.title.hasSuffix("_essays"))), [3])
        XCTAssertEqual(try ids(Novel.filter(Key.title.hasPrefix("%"))), [])
        XCTAssertEqual(try ids(Novel.filter(Key.title.hasPrefix("_"))), [])
        XCTAssertEqual(try ids(Novel.filter(Key.title.contains("\\"))), [])
        // A pattern of your own keeps its wildcards.
        XCTAssertEqual(try Novel.filter(Key.title.like("%")).count(db), 5)
        XCTAssertEqual(try ids(Novel.filter(Key.title.like("_une%")).order(Key.id)), [1, 4])
        XCTAssertEqual(try Novel.filter(Key.title.notLike("%e%")).count(db), 0)
        XCTAssertEqual(try ids(Novel.filter(Key.title.collating(.nocase) == "DUNE")), [1])
        XCTAssertEqual(try ids(Novel.filter(Key.title == "DUNE")), [])
        XCTAssertEqual(
            try Novel.order(Key.title.collating(.nocase)).fetch(db).map(\.title),
            ["100% Pure_Essays", "Ariel", "Dune", "dune messiah", "Leaves of Grass"])
    }

    /// Each value is stored as `save()` stored it: enums by raw value, dates as text, Bool as 0/1,
    /// Decimal as a number, a UUID in any of its forms.
    func testValuesMatchWhatSaveWrote() throws {
        XCTAssertEqual(
            try ids(Novel.filter(Key.publishedAt < QueryFixtures.date(0)).order(Key.publishedAt)), [5, 1, 4])
        XCTAssertEqual(try ids(Novel.filter(Key.inPrint == false)), [2, 5])
        XCTAssertEqual(try ids(Novel.filter(Key.price > Decimal(string: "8.5") ?? 0).order(Key.id)), [1, 3])
        XCTAssertEqual(try ids(Novel.filter(Key.price == Decimal(5))), [2])
        let poetry: Genre? = .poetry
        XCTAssertEqual(try Novel.filter(Key.genre == poetry).count(db), 2)
        XCTAssertEqual(try ids(Novel.filter(Key.isbn == QueryFixtures.isbn)), [1])
        // The same UUID written by other tools: uppercase text and a 16-byte BLOB.
        let bytes = withUnsafeBytes(of: QueryFixtures.isbn.uuid) { Data($0) }
        try db.execute(sql: "UPDATE novels SET isbn = ? WHERE id = 4", arguments: [QueryFixtures.isbn.uuidString])
        try db.execute(sql: "UPDATE novels SET isbn = ? WHERE id = 5", arguments: [bytes])
        XCTAssertEqual(try ids(Novel.filter(Key.isbn == QueryFixtures.isbn).order(Key.id)), [1, 4, 5])
        XCTAssertEqual(try ids(Novel.filter(Key.isbn.in([QueryFixtures.isbn, UUID()])).order(Key.id)), [1, 4, 5])
        XCTAssertEqual(try ids(Novel.filter(Key.isbn != QueryFixtures.isbn)), [])
        let maybe: UUID? = QueryFixtures.isbn
        XCTAssertEqual(try ids(Novel.filter(Key.isbn == maybe).order(Key.id)), [1, 4, 5])
    }

    /// A record type whose encoder stores UUIDs as BLOBs, dates as unix seconds and keys in snake_case.
    func testTheRecordTypesStrategiesReachRequests() throws {
        let serial = QueryFixtures.isbn
        var first = Meter(id: nil, serialNumber: serial, installedAt: QueryFixtures.date(100.25), isActive: true)
        var second = Meter(id: nil, serialNumber: UUID(), installedAt: QueryFixtures.date(50), isActive: false)
        try first.save(db)
        try second.save(db)
        let serialColumn = Column(Meter.CodingKeys.serialNumber)
        let installed = Column(Meter.CodingKeys.installedAt)
        XCTAssertEqual(try Meter.filter(serialColumn == serial).fetch(db), [first])
        XCTAssertEqual(try Meter.filter(installed > QueryFixtures.date(100)).fetch(db), [first])
        XCTAssertEqual(try Meter.filter(installed == QueryFixtures.date(50)).fetch(db), [second])
        XCTAssertEqual(try Meter.filter(Column(Meter.CodingKeys.isActive) == false).fetch(db), [second])
        XCTAssertEqual(try Meter.order(installed.descending).fetch(db), [first, second])
    }

    func testEmptyAndLongLists() throws {
        XCTAssertEqual(try ids(Novel.filter(Key.id.in([Int64]()))), [])
        XCTAssertEqual(try Novel.filter(Key.id.notIn([Int64]())).count(db), 5)
        XCTAssertEqual(try Novel.filter(Key.id.in(Array(Int64(1)...40_000))).count(db), 5)
        XCTAssertEqual(try ids(Novel.filter(Key.id.notIn(Array(Int64(3)...40_000))).order(Key.id)), [1, 2])
        XCTAssertEqual(try ids(Novel.filter(Key.title.in((0..<600).map { "title \($0)" } + ["Ariel"]))), [5])
        // UUIDs in every form, through the JSON arrays: text and BLOB.
        let others = (0..<600).map { _ in UUID() }
        let bytes = withUnsafeBytes(of: QueryFixtures.isbn.uuid) { Data($0) }
        try db.execute(sql: "UPDATE novels SET isbn = ? WHERE id = 5", arguments: [bytes])
        XCTAssertEqual(try ids(Novel.filter(Key.isbn.in(others + [QueryFixtures.isbn])).order(Key.id)), [1, 5])
        XCTAssertEqual(try Novel.filter(Key.isbn.notIn(others + [QueryFixtures.isbn])).count(db), 0)
        var meter = Meter(id: nil, serialNumber: QueryFixtures.isbn, installedAt: QueryFixtures.date(7), isActive: true)
        try meter.save(db)
        XCTAssertEqual(
            try Meter.filter(Column(Meter.CodingKeys.serialNumber).in(others + [QueryFixtures.isbn])).fetch(db), [meter]
        )
    }

    func testSelectionsAndAggregates() throws {
        struct GenreStats: Decodable, Equatable {
            var genre: Genre
            var count: Int
            var pages: Double
        }
        let stats = Novel.select(Key.genre, SQLExpression.countAll.forKey("count"), average(Key.pages).forKey("pages"))
            .group(Key.genre).order(Key.genre)
        XCTAssertEqual(
            try stats.fetch(db, as: GenreStats.self),
            [
                GenreStats(genre: .essay, count: 1, pages: 88), GenreStats(genre: .fiction, count: 2, pages: 334),
                GenreStats(genre: .poetry, count: 2, pages: 120.5),
            ])
        XCTAssertEqual(
            try stats.having(count(Key.id) > 1).fetch(db, as: GenreStats.self).map(\.genre), [.fiction, .poetry])
        XCTAssertEqual(try stats.count(db), 3)
        XCTAssertEqual(try Novel.select(max(Key.pages)).fetchOne(db, as: Int.self), 412)
        XCTAssertEqual(try Novel.select(min(Key.pages)).fetchOne(db, as: Int.self), 88)
        XCTAssertEqual(try Novel.select(sum(Key.pages)).fetchOne(db, as: Int.self), 997)
        XCTAssertEqual(try Novel.select(count(distinct: Key.genre)).fetchOne(db, as: Int.self), 3)
        XCTAssertEqual(try Novel.select(count(Key.rating)).fetchOne(db, as: Int.self), 4)
        XCTAssertEqual(
            try Novel.filter(Key.genre == Genre.poetry).select(total(Key.pages)).fetchOne(db, as: Double.self), 241)
        XCTAssertNil(try Novel.filter(Key.pages > 1_000).select(max(Key.pages)).fetchOne(db, as: Int.self))
        XCTAssertEqual(
            try Novel.select(Key.title).order(Key.id).limit(2).fetch(db, as: String.self), ["Dune", "Leaves of Grass"])
        XCTAssertEqual(
            try Novel.select(Key.genre).distinct().order(Key.genre).fetch(db, as: Genre.self),
            [.essay, .fiction, .poetry])
        XCTAssertEqual(try Novel.select(Key.genre).distinct().count(db), 3)
        // Some columns into the record type itself: Optional properties without a column are nil.
        struct Title: Decodable, Equatable {
            var title: String
            var rating: Double?
        }
        XCTAssertEqual(
            try Novel.select(Key.title).filter(Key.id == 1).fetch(db, as: Title.self),
            [Title(title: "Dune", rating: nil)])
    }

    func testCursor() throws {
        let cursor = try Novel.filter(Key.pages > 100).order(Key.pages).fetchCursor(db)
        var titles: [String] = []
        while let novel = try cursor.next() { titles.append(novel.title) }
        XCTAssertEqual(titles, ["Leaves of Grass", "dune messiah", "Dune"])
        XCTAssertNil(try cursor.next())
        var pages: [Int] = []
        try Novel.order(Key.pages.descending).limit(2).fetchCursor(db).forEach { pages.append($0.pages) }
        XCTAssertEqual(pages, [412, 256])
        // A closed cursor gave its statement back: the same request runs again.
        let again = try Novel.filter(Key.pages > 100).order(Key.pages).fetchCursor(db)
        XCTAssertEqual(try again.next()?.title, "Leaves of Grass")
        again.close()
        XCTAssertNil(try again.next())
    }

    func testUpdateAllAndDeleteAll() throws {
        XCTAssertEqual(
            try Novel.filter(Key.genre == Genre.poetry).updateAll(
                db, Key.pages.set(to: Key.pages + 1), Key.rating.set(to: nil)),
            2)
        XCTAssertEqual(try Novel.filter(Key.genre == Genre.poetry).order(Key.id).fetch(db).map(\.pages), [146, 97])
        XCTAssertEqual(try Novel.filter(Key.rating == nil).count(db), 2)
        XCTAssertEqual(try Novel.filter(Key.genre == Genre.essay).updateAll(db, Key.genre.set(to: Genre.poetry)), 1)
        XCTAssertEqual(try Novel.filter(Key.genre == Genre.poetry).count(db), 3)
        XCTAssertEqual(try Novel.all().updateAll(db, []), 0)
        // A limit deletes the rows the request would fetch, in its order.
        XCTAssertEqual(try Novel.order(Key.pages.descending).limit(2).deleteAll(db), 2)
        XCTAssertEqual(try ids(Novel.order(Key.id)), [2, 3, 5])
        XCTAssertEqual(try Novel.filter(Key.pages < 100).deleteAll(db), 2)
        XCTAssertEqual(try ids(Novel.all()), [2])
        XCTAssertEqual(try Novel.order(Key.id).limit(5, offset: 1).updateAll(db, Key.pages.set(to: 0)), 0)
    }

    func testALimitedDeleteOnAWithoutRowIDTableUsesItsKey() throws {
        struct Tag: Record {
            var id: String
            var uses: Int
            static let tableName = "tags"
            static let withoutRowID = true
        }
        try db.execute(sql: "CREATE TABLE tags (id TEXT PRIMARY KEY, uses INTEGER NOT NULL) WITHOUT ROWID")
        for (name, uses) in [("swift", 3), ("sqlite", 1), ("codable", 2)] {
            var tag = Tag(id: name, uses: uses)
            try tag.insert(db)
        }
        XCTAssertEqual(try Tag.order(Column("uses")).limit(2).deleteAll(db), 2)
        XCTAssertEqual(try Tag.all().fetch(db).map(\.id), ["swift"])
        XCTAssertEqual(try Tag.order(Column("uses")).limit(1).updateAll(db, Column("uses").set(to: 10)), 1)
        XCTAssertEqual(try Tag.filter(Column("uses") == 10).count(db), 1)
    }

    /// The `where:` dictionary forms run as requests and keep their results.
    func testTheDictionaryFormsAgreeWithRequests() throws {
        XCTAssertEqual(
            try Novel.fetch(db, where: ["genre": "poetry"], orderBy: [.descending("pages")]),
            try Novel.filter(Key.genre == Genre.poetry).order(Key.pages.descending).fetch(db))
        XCTAssertEqual(try Novel.count(db, where: ["rating": nil]), try Novel.filter(Key.rating == nil).count(db))
        XCTAssertEqual(try Novel.fetch(db, where: "pages > ?", arguments: [200]).count, 2)
        XCTAssertEqual(try Novel.deleteAll(db, where: ["in_print": false]), 2)
        XCTAssertEqual(try Novel.all().count(db), 3)
    }
}
