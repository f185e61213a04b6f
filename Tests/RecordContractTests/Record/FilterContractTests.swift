import Foundation
import SQLiteRecord
import XCTest

/// The `where:` dictionary calls: `fetch`, `fetchOne`, `count` and `deleteAll` by column values, sorted and
/// paged; the same rows and the same errors on every engine.
final class FilterContractTests: RecordContractTestCase {
    enum Genre: String, Codable, CaseIterable { case novel, essay }

    struct Title: Record, Equatable {
        var id: Int64?
        var name: String
        var genre: Genre
        var year: Int?
        static let tableName = "titles"
    }

    private func fill(_ engine: any ContractEngine) throws {
        try engine.createTable(Title.self)
        var titles = [
            Title(id: nil, name: "Emma", genre: .novel, year: 1815),
            Title(id: nil, name: "Persuasion", genre: .novel, year: 1817),
            Title(id: nil, name: "A Room of One's Own", genre: .essay, year: 1929),
            Title(id: nil, name: "Untitled", genre: .essay, year: nil),
        ]
        try engine.write { db in
            for index in titles.indices { try titles[index].insert(db) }
        }
    }

    func testFetchByValuesSortedAndPaged() {
        onEachEngine { engine in
            try fill(engine)
            let novels = try engine.write { db in
                try Title.fetch(db, where: ["genre": Genre.novel], orderBy: [.descending("year")])
            }
            XCTAssertEqual(novels.map(\.name), ["Persuasion", "Emma"])
            let page = try engine.write { db in
                try Title.fetch(db, where: [:], orderBy: [.ascending("name")], limit: 2, offset: 1)
            }
            XCTAssertEqual(page.map(\.name), ["Emma", "Persuasion"])
            let undated = try engine.write { db in try Title.fetchOne(db, where: ["year": nil]) }
            XCTAssertEqual(undated?.name, "Untitled")
            XCTAssertEqual(try engine.write { db in try Title.count(db, where: ["genre": Genre.essay]) }, 2)
            XCTAssertEqual(try engine.write { db in try Title.count(db) }, 4)
        }
    }

    func testANegativeLimitIsNoneAndANegativeOffsetIsNone() {
        onEachEngine { engine in
            try self.fill(engine)
            let names = try engine.write { db in
                try Title.fetch(db, where: ["genre": Genre.novel], orderBy: [.ascending("name")], limit: -1, offset: -3)
                    .map(\.name)
            }
            XCTAssertEqual(names, ["Emma", "Persuasion"])
            let request = try engine.write { db in
                try Title.all().order(Column("name")).limit(-1, offset: -3).fetch(db).map(\.name)
            }
            XCTAssertEqual(request, ["A Room of One's Own", "Emma", "Persuasion", "Untitled"])
        }
    }

    func testDeleteAllByValuesDeletesOnlyThoseRows() {
        onEachEngine { engine in
            try fill(engine)
            let deleted = try engine.write { db in try Title.deleteAll(db, where: ["genre": Genre.essay]) }
            XCTAssertEqual(deleted, 2)
            XCTAssertEqual(try engine.text("SELECT min(name) FROM titles"), "Emma")
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM titles"), 2)
        }
    }

    func testAnUnknownColumnIsRefusedBeforeAnythingRuns() {
        onEachEngine { engine in
            try fill(engine)
            let thrown = error { _ = try engine.write { db in try Title.deleteAll(db, where: ["nam": "Emma"]) } }
            guard case .unknownColumn(let table, let column, _)? = thrown as? RecordError else {
                return XCTFail("expected unknownColumn, got \(String(describing: thrown))")
            }
            XCTAssertEqual([table, column], ["titles", "nam"])
            let ordering = error { _ = try engine.write { db in try Title.fetch(db, orderBy: [.ascending("yaer")]) } }
            guard case .unknownColumn(_, let orderColumn, _)? = ordering as? RecordError else {
                return XCTFail("expected unknownColumn, got \(String(describing: ordering))")
            }
            XCTAssertEqual(orderColumn, "yaer")
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM titles"), 4)
        }
    }

    /// Documented in the PostgreSQL article's "What differs": a name matches a column as the engine matches
    /// identifiers (SQLite ASCII case-insensitively; PostgreSQL's quoted names exactly, refused by the
    /// library's column check before anything runs).
    func testAColumnNameMatchesAsTheEngineMatchesIdentifiers() {
        onEachEngine { engine in
            try fill(engine)
            let fetched = Result { try engine.write { db in try Title.fetch(db, where: ["NAME": "Emma"]).map(\.name) } }
            if engine.isSQLite {
                XCTAssertEqual(try fetched.get(), ["Emma"])
            } else {
                guard case .failure(RecordError.unknownColumn(let table, let column, let columns)) = fetched else {
                    return XCTFail("expected unknownColumn, got \(fetched)")
                }
                XCTAssertEqual([table, column], ["titles", "NAME"])
                XCTAssertEqual(columns, ["id", "name", "genre", "year"])
            }
        }
    }

    /// Documented in the PostgreSQL article's "What differs": a `where:` value of another type than its
    /// column's is compared by SQLite's affinity rules (text that is no number matches no row of an INTEGER
    /// column) and refused by PostgreSQL when it cannot be read as the column's type (SQLSTATE 22P02, naming
    /// the value and the SQL).
    func testAValueOfAnotherTypeThanItsColumnIsComparedOrRefusedAsTheEngineDoes() {
        onEachEngine { engine in
            try fill(engine)
            let asText = try engine.write { db in try Title.fetch(db, where: ["year": "1815"]).map(\.name) }
            XCTAssertEqual(asText, ["Emma"])
            let fetched = Result { try engine.write { db in try Title.fetch(db, where: ["year": "many"]).map(\.name) } }
            if engine.isSQLite {
                XCTAssertEqual(try fetched.get(), [])
            } else {
                guard case .failure(let thrown) = fetched else { return XCTFail("expected an error, got \(fetched)") }
                XCTAssertEqual(engine.engineErrorCode(thrown), "22P02")
                XCTAssertEqual(
                    "\(thrown)",
                    #"PostgreSQL error 22P02: invalid input syntax for type bigint: "many" - while executing: "#
                        + #"SELECT * FROM "titles" WHERE "year" = $1"#)
            }
        }
    }

    func testFetchByValuesReadsTheTableTheTypeNamesNow() {
        onEachEngine { engine in
            defer { Shard.current = "shard_a" }
            let first = try Shard.makeTables(in: engine)
            XCTAssertEqual(try engine.write { db in try Shard.fetch(db, where: ["value": "in a"]) }, [first])
            Shard.current = "shard_b"
            XCTAssertEqual(try engine.write { db in try Shard.fetch(db, where: ["value": "in a"]) }, [])
            XCTAssertEqual(try engine.write { db in try Shard.count(db, where: ["value": "in a"]) }, 0)
        }
    }
}

/// Where NULLs sort: as the smallest value by default on every engine, or where `nulls:` puts them, in the
/// `orderBy:` forms and in requests alike.
final class NullOrderingContractTests: RecordContractTestCase {
    struct Entry: Record, Equatable {
        var id: Int64?
        var name: String
        var rank: Int?
        static let tableName = "entries"
        enum CodingKeys: String, CodingKey { case id, name, rank }
    }

    func testNullsSortAsTheSmallestValueUnlessTheOrderingSaysOtherwise() {
        onEachEngine { engine in
            try engine.createTable(Entry.self)
            var entries = [
                Entry(id: nil, name: "b", rank: 2), Entry(id: nil, name: "none", rank: nil),
                Entry(id: nil, name: "a", rank: 1),
            ]
            try engine.write { db in
                for index in entries.indices { try entries[index].insert(db) }
            }
            func names(_ ordering: Ordering) throws -> [String] {
                try engine.write { db in try Entry.fetch(db, orderBy: [ordering]) }.map(\.name)
            }
            XCTAssertEqual(try names(.ascending("rank")), ["none", "a", "b"])
            XCTAssertEqual(try names(.descending("rank")), ["b", "a", "none"])
            XCTAssertEqual(try names(.ascending("rank", nulls: .last)), ["a", "b", "none"])
            XCTAssertEqual(try names(.descending("rank", nulls: .first)), ["none", "b", "a"])
            XCTAssertEqual(try names(.ascending(Entry.CodingKeys.rank, nulls: .first)), ["none", "a", "b"])
            let page = try engine.write { db in
                try Entry.fetch(db, where: [:], orderBy: [.descending("rank")], limit: 2)
            }
            XCTAssertEqual(page.map(\.name), ["b", "a"])
        }
    }
}
