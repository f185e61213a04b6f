// swift-format-ignore-file: OrderedImports
// The DocC articles' Swift blocks (Sources/SQLiteRecord/SQLiteRecord.docc), verbatim: this file compiles them,
// the tests below run them, and `testTheArticlesShowThisCode` fails when an article and this file drift apart.
// The article models are Author and Book, not the README's Country and City, which this target also declares.
// XCTest is imported after them so that the first block's imports read as the article shows them.
import Foundation
import SQLiteRecord

struct Author: Record {
    var id: Int64?
    var name: String
    static let tableName = "authors"
}

struct Book: Record {
    var id: Int64?
    var authorId: Int64?
    var title: String
    var publishedAt: Date?
    static let tableName = "books"
    enum CodingKeys: String, CodingKey {
        case id, title
        case authorId = "author_id"
        case publishedAt = "published_at"
    }
    mutating func bind(to parent: any Record) {
        if let author = parent as? Author { authorId = author.id }
    }
}

// Keys.md

struct Device: Record {
    var id: UUID  // made by the app, stored as lowercase text
    var name: String
    static let tableName = "devices"
}

struct Currency: Record {
    var id: String  // "EUR"
    var name: String
    static let tableName = "currencies"
    static let primaryKeyColumn = "code"
    enum CodingKeys: String, CodingKey {
        case id = "code"
        case name
    }
}

struct UnitKey: Codable, Hashable, Sendable {
    var authName: String
    var code: String
    enum CodingKeys: String, CodingKey {
        case authName = "auth_name"
        case code
    }
}

struct Unit: Record {
    var authName: String
    var code: String
    var name: String
    static let tableName = "units"
    static let withoutRowID = true
    enum CodingKeys: String, CodingKey {
        case authName = "auth_name"
        case code, name
    }
    var id: UnitKey {  // computed: its columns are the stored properties above
        get { UnitKey(authName: authName, code: code) }
        set {
            authName = newValue.authName
            code = newValue.code
        }
    }
}

enum ShelfError: Error { case emptyLabel }

struct Shelf: Record {
    var id: Int64?
    var label: String
    static let tableName = "shelves"
    func willSave(_ db: Database) throws {
        if label.isEmpty { throw ShelfError.emptyLabel }
    }
}

struct Event: Record {
    var id: Int64?
    var startsAt: Date
    var tags: [String]  // stored as JSON text
    static let tableName = "events"
    static let rowDecoder = {
        var decoder = RowDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .unixSeconds
        return decoder
    }()
    static let recordEncoder = {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .unixSeconds
        return encoder
    }()
}

// CREATE TABLE person (id INTEGER PRIMARY KEY, first TEXT NOT NULL, last TEXT NOT NULL,
//   full_name TEXT GENERATED ALWAYS AS (first || ' ' || last) VIRTUAL)
struct Person: Record {
    var id: Int64?
    var first: String
    var last: String
    var fullName: String?  // read, never written
    enum CodingKeys: String, CodingKey {
        case id, first, last
        case fullName = "full_name"
    }
}

struct DiaryEntry: Record {
    var id: Int64?
    var date: Date
    var content: String
    static let tableName = "diary"
}

// WritingRecords.md

struct Visit: Record {
    var id: Int64?
    var page: String
    var visitedAt: String?  // DEFAULT CURRENT_TIMESTAMP: left to the database while nil
    static let tableName = "visits"
    enum CodingKeys: String, CodingKey {
        case id, page
        case visitedAt = "visited_at"
    }
}

import XCTest

final class DocCArticleSnippetTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("docc-articles-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        RecordStore.reset()
        try FileManager.default.removeItem(at: folder)
    }

    /// GettingStarted.md, Records.md, ValuesAndCoding.md and MigratingFromFMDB.md, in the order a reader meets
    /// them: each article continues with the database the one before left.
    func testTheArticlesRun() throws {
        // GettingStarted.md
        let queue = try DatabaseQueue()  // or DatabaseQueue(path: "library.sqlite")
        try queue.write { db in
            try Author.createTable(in: db)
            try Book.createTable(in: db)
        }
        try RecordStore.use(queue)

        var austen = Author(name: "Jane Austen")
        try austen.save()  // INSERT; austen.id is set
        var books = [
            Book(title: "Emma"),
            Book(title: "Persuasion"),
        ]
        try austen.save(children: &books)  // one transaction; bind(to:) first
        let emma = try Book.fetchOne(where: ["title": "Emma"])
        let all = try Book.fetch(
            where: ["author_id": austen.id], orderBy: [.ascending("title")])

        XCTAssertEqual(austen.id, 1)
        XCTAssertEqual(books.map(\.authorId), [1, 1])
        XCTAssertEqual(emma?.id, 1)
        XCTAssertEqual(all.map(\.title), ["Emma", "Persuasion"])

        // Records.md
        var book = Book(authorId: austen.id, title: "Sanditon")
        try book.save()  // INSERT: id was nil
        book.title = "Sanditon (unfinished)"
        try book.save()  // UPDATE "books" SET ... WHERE "id" = ?
        try book.delete()
        do {
            try book.update()  // its row is gone
        } catch RecordError.recordNotFound(let table, let id) {
            print("no row \(id) in \(table)")
        }
        var imported = Book(id: 1_000, authorId: austen.id, title: "Lady Susan")
        try imported.insert()  // keeps id 1000

        XCTAssertThrowsError(try book.update()) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "books", id: "3"))
        }
        XCTAssertEqual(try Book.fetchOne(id: 1_000)?.title, "Lady Susan")

        try queue.write { db in
            var bronte = Author(name: "Charlotte Brontë")
            try bronte.save(db)
            var novels = [Book(title: "Jane Eyre")]
            try bronte.save(db, children: &novels)  // in a savepoint
        }

        XCTAssertEqual(try Book.fetchOne(where: ["title": "Jane Eyre"])?.authorId, 2)

        var batch = [
            Book(authorId: austen.id, title: "Mansfield Park"),
            Book(id: 9_999, authorId: austen.id, title: "No such row"),
        ]
        do {
            try Book.save(&batch)  // the second updates a missing row: it throws
        } catch {
            print(batch[0].id as Any)  // nil: its insert was rolled back
        }

        XCTAssertNil(batch[0].id)
        XCTAssertEqual(try Book.count(where: ["title": "Mansfield Park"]), 0)

        try queue.write { db in try Shelf.createTable(in: db) }
        var unlabelled = Shelf(id: nil, label: "")
        XCTAssertThrowsError(try unlabelled.save()) { XCTAssertTrue($0 is ShelfError) }
        XCTAssertEqual(try Shelf.count(), 0)

        // ValuesAndCoding.md
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO books (title, published_at) VALUES (?, ?)",
                arguments: ["Northanger Abbey", "1817-12-20T00:00:00Z"])
        }
        let northanger = try Book.fetchOne(where: ["title": "Northanger Abbey"])

        XCTAssertEqual(northanger?.publishedAt, Date(timeIntervalSince1970: -4_797_705_600))

        try queue.write { db in try Event.createTable(in: db) }
        var event = Event(id: nil, startsAt: Date(timeIntervalSince1970: 1_714_566_600), tags: ["a", "b"])
        try event.save()
        XCTAssertEqual(try Event.fetchOne(id: 1)?.tags, ["a", "b"])
        XCTAssertEqual(try Event.fetchOne(id: 1)?.startsAt, Date(timeIntervalSince1970: 1_714_566_600))
        XCTAssertEqual(
            try queue.read { db in try db.scalar(Double.self, sql: "SELECT starts_at FROM events") }, 1_714_566_600)

        // MigratingFromFMDB.md
        let byAusten = try Book.fetch(
            where: ["author_id": austen.id], orderBy: [.ascending("title")])
        var pride = Book(authorId: austen.id, title: "Pride and Prejudice")
        try pride.save()  // executeUpdate: and lastInsertRowId in one call
        let bookCount = try queue.read { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM books") ?? 0
        }
        try queue.write { db in  // inTransaction:; throw to roll back
            var sense = Book(authorId: austen.id, title: "Sense and Sensibility")
            try sense.save(db)
            try db.execute(
                sql: "UPDATE authors SET name = ? WHERE id = ?",
                arguments: ["J. Austen", austen.id])
        }

        XCTAssertEqual(byAusten.map(\.title), ["Emma", "Lady Susan", "Persuasion"])
        XCTAssertNotNil(pride.id)
        XCTAssertEqual(bookCount, 6)
        XCTAssertEqual(try Author.fetchOne(id: 1)?.name, "J. Austen")

        try queue.write { db in try DiaryEntry.createTable(in: db) }
        let date = Date(timeIntervalSince1970: 1_712_143_800)
        var entry = DiaryEntry(id: nil, date: date, content: "Water the plants")
        try entry.save()
        XCTAssertEqual(try DiaryEntry.fetchOne(where: ["date": date])?.content, "Water the plants")

        // ValuesAndCoding.md, last: the row it stores fails every later fetch of all books.
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO books (title, published_at) VALUES (?, ?)",
                arguments: ["Lost", "soon"])
        }
        do {
            _ = try Book.fetch(where: ["title": "Lost"])
        } catch let error as DecodingError {
            print(error)  // names the table, the column, its TEXT value 'soon' and the row's id
        }

        XCTAssertThrowsError(try Book.fetch(where: ["title": "Lost"])) { error in
            XCTAssertTrue(error is DecodingError)
            XCTAssertTrue("\(error)".contains("published_at"), "\(error)")
        }
    }

    /// Keys.md.
    func testTheKeysArticleRuns() throws {
        let db = try Database()
        try Device.createTable(in: db)
        try Currency.createTable(in: db)
        try Unit.createTable(in: db)  // PRIMARY KEY ("auth_name", "code") ... WITHOUT ROWID

        var phone = Device(id: UUID(), name: "phone")
        try phone.save(db)  // INSERT ... ON CONFLICT ("id") DO UPDATE SET "name" = excluded."name"
        phone.name = "work phone"
        try phone.save(db)  // the same statement updates it
        var euro = Currency(id: "EUR", name: "Euro")
        try euro.save(db)
        var metre = Unit(authName: "EPSG", code: "9001", name: "metre")
        try metre.save(db)

        let found = try Device.fetchOne(db, id: phone.id)
        let some = try Currency.fetch(db, ids: ["EUR", "USD"])  // any number of keys, empty included
        let unit = try Unit.fetchOne(db, id: UnitKey(authName: "EPSG", code: "9001"))
        try Device.delete(db, id: phone.id)

        XCTAssertEqual(found?.name, "work phone")
        XCTAssertEqual(some.map(\.name), ["Euro"])
        XCTAssertEqual(unit?.name, "metre")
        XCTAssertEqual(try Device.count(db), 0)
    }

    /// WritingRecords.md.
    func testTheWritingRecordsArticleRuns() throws {
        let db = try Database()
        try Author.createTable(in: db)
        try Book.createTable(in: db)
        try db.execute(
            sql: """
                CREATE UNIQUE INDEX books_title ON books(title);
                CREATE TABLE visits (id INTEGER PRIMARY KEY, page TEXT NOT NULL,
                  visited_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
                """)

        var evelina = Book(title: "Evelina")
        try evelina.upsert(db, onConflict: ["title"])  // inserted: evelina.id is set
        evelina.publishedAt = Date(timeIntervalSince1970: -5_868_000_000)
        let outcome = try evelina.upsert(db, onConflict: ["title"])  // .updated
        var copy = Book(title: "Evelina")
        let inserted = try copy.insert(db, onConflict: .ignore)  // false: the title is taken; copy.id stays nil

        var visit = Visit(page: "/home")
        try visit.insertAndFetch(db)  // INSERT ... RETURNING *: visitedAt is the database's timestamp
        guard var book = try Book.fetchOne(db, id: evelina.id) else { return }
        try book.updateChanges(db) { $0.title = "Evelina, or the History of a Young Lady" }  // SET "title" = ? only
        try book.update(db, columns: ["published_at"])  // that column only

        XCTAssertEqual(evelina.id, 1)
        XCTAssertEqual(outcome, .updated)
        XCTAssertFalse(inserted)
        XCTAssertNil(copy.id)
        XCTAssertEqual(visit.visitedAt?.count, 19)
        XCTAssertEqual(try Book.fetchOne(db, id: 1)?.title, "Evelina, or the History of a Young Lady")
        XCTAssertEqual(try Book.fetchOne(db, id: 1)?.publishedAt, evelina.publishedAt)
    }

    /// Concurrency.md.
    func testTheConcurrencyArticleRuns() async throws {
        let path = folder.appendingPathComponent("library.sqlite").path
        let options = Database.Options(busyTimeout: 10, journalMode: .wal)
        let shared = try DatabaseQueue(path: path, options: options)
        try await shared.write { db in
            try Author.createTable(in: db)
            try Book.createTable(in: db)
        }
        try RecordStore.use(shared)
        var burney = Author(name: "Frances Burney")
        try await burney.save()
        var novels = [
            Book(title: "Evelina"),
            Book(title: "Cecilia"),
        ]
        try await burney.save(children: &novels)

        func titles(of author: Author) async throws -> [String] {
            let books = try await Book.fetch(
                where: ["author_id": author.id], orderBy: [.ascending("title")])
            return books.map(\.title)
        }
        let count = try await shared.read { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM books") ?? 0
        }

        let burneyTitles = try await titles(of: burney)
        let journalMode = try await shared.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(burneyTitles, ["Cecilia", "Evelina"])
        XCTAssertEqual(count, 2)
        XCTAssertEqual(journalMode, "wal")
    }

    /// Records.md's generated column: read back, never written.
    func testTheGeneratedColumnExample() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, first TEXT NOT NULL, last TEXT NOT NULL,
                  full_name TEXT GENERATED ALWAYS AS (first || ' ' || last) VIRTUAL)
                """)
        var ada = Person(first: "Ada", last: "Lovelace", fullName: nil)
        try ada.save(db)
        XCTAssertEqual(try Person.fetchOne(db, id: 1)?.fullName, "Ada Lovelace")
    }

    func testTheArticlesShowThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let catalog = root.appendingPathComponent("Sources/SQLiteRecord/SQLiteRecord.docc")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Self.codeLines(source)
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path)
            .filter { $0.hasSuffix(".md") }.sorted()
        var blockCount = 0
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
                $0.components(separatedBy: "```")[0]
            }
            blockCount += blocks.count
            for block in blocks {
                let lines = Self.codeLines(block)
                let found = sourceLines.indices.contains { start in
                    start + lines.count <= sourceLines.count && Array(sourceLines[start..<start + lines.count]) == lines
                }
                XCTAssertTrue(found, "\(article): block not in DocCArticleSnippetTests.swift:\n\(block)")
            }
        }
        XCTAssertEqual(blockCount, 19, "a ```swift block was added or removed: keep this count and this file in step")
    }

    /// Lines without indentation, blank lines dropped.
    private static func codeLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
