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
    func willSave(_ db: some DatabaseConnection) throws {
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

// FullTextSearch.md

struct Passage: Record, FullTextSearchable {
    var id: Int64?
    var book: String
    var text: String
    static let tableName = "passages"
    static let fullTextIndex = FullTextIndex(columns: ["text"], tokenizer: .unicode61())
}

// Queries.md

enum Shelving: String, Codable, CaseIterable, Sendable {
    case front, back
}

struct Copy: Record {
    var id: Int64?
    var bookId: Int64?
    var barcode: UUID
    var shelf: Shelving
    static let tableName = "copies"
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, barcode, shelf
        case bookId = "book_id"
    }
}

// RowInitializers.md

struct Review: Record, Equatable {
    var id: Int64?
    var bookId: Int64
    var stars: Int
    var text: String?
    var postedAt: Date
    static let tableName = "reviews"
    enum CodingKeys: String, CodingKey {
        case id, stars, text
        case bookId = "book_id"
        case postedAt = "posted_at"
    }
}

extension Review: FetchableRecord {
    init(row: borrowing FetchedRow) throws {
        id = try row["id", as: Int64?.self]
        bookId = try row["book_id", as: Int64.self]
        stars = try row["stars", as: Int.self]
        text = try row["text", as: String?.self]
        postedAt = try row["posted_at", as: Date.self]
    }
}

// ObservingChanges.md: live queries.

#if canImport(Observation)
import Observation

@available(macOS 14, iOS 17, *)
@MainActor
func printTitles(of query: LiveQuery<[Book]>) {
    withObservationTracking {
        print(query.isLoading ? ["loading"] : query.value?.map(\.title) ?? [])
    } onChange: {
        // onChange runs as the value is about to change, before it is set: read it on the next turn.
        Task { @MainActor in printTitles(of: query) }
    }
}

@available(macOS 14, iOS 17, *)
@MainActor
func watchBooks(in queue: DatabaseQueue) -> LiveQuery<[Book]> {
    let query = LiveQuery(Book.all().order(Column("title")), in: queue)  // or a pool, or a PostgresPool
    printTitles(of: query)
    return query  // the observation lasts as long as the query
}
#endif

#if canImport(SwiftUI)
import SwiftUI

@available(macOS 14, iOS 17, *)
struct BookList: View {
    @LiveFetch var books: [Book]?

    init(queue: DatabaseQueue) {
        _books = LiveFetch(Book.all().order(Column("title")), in: queue)
    }

    var body: some View {
        List(books ?? [], id: \.title) { Text($0.title) }
    }
}
#endif

// ObservingChanges.md: the SwiftUI example, compiled where SwiftUI exists.

#if canImport(SwiftUI)
import SwiftUI

@MainActor
final class BookTitles: ObservableObject {
    @Published var titles: [String] = []
    @Published var failure: String?

    func observe(_ pool: DatabasePool) async {
        let observation = ValueObservation.tracking { db in
            try Book.all().order(Column("title")).fetch(db).map(\.title)
        }
        do {
            for try await titles in observation.values(in: pool) {
                self.titles = titles
            }
        } catch {
            failure = "\(error)"
        }
    }
}

struct BookTitlesView: View {
    @StateObject private var model = BookTitles()
    let pool: DatabasePool

    var body: some View {
        List(model.titles, id: \.self) { Text($0) }
            .task { await model.observe(pool) }
    }
}
#endif

/// The SwiftUI example's loop without SwiftUI: a main-actor model iterating an observation, run on Linux too.
@MainActor
final class MainActorTitles {
    var titles: [String] = []

    func observe(_ pool: DatabasePool, until count: Int) async throws {
        let observation = ValueObservation.tracking { db in
            try Book.all().order(Column("title")).fetch(db).map(\.title)
        }
        for try await titles in observation.values(in: pool) {
            self.titles = titles
            if titles.count == count { break }
        }
    }
}

// Associations.md

extension Author {
    static let books = hasMany(Book.self)  // "books"."author_id" -> "authors"."id"
}

extension Book {
    static let author = belongsTo(Author.self)
}

struct AuthorWithBooks: Decodable {
    var author: Author
    var books: [Book]
}

struct BookWithAuthor: Decodable {
    var book: Book
    var author: Author
}

struct Portrait: Record {
    var id: Int64?
    var authorId: Int64?
    var painter: String
    static let tableName = "portraits"
    enum CodingKeys: String, CodingKey {
        case id, painter
        case authorId = "author_id"
    }
}

extension Author {
    static let portrait = hasOne(Portrait.self)  // "portraits"."author_id" -> "authors"."id"
}

struct AuthorWithPortrait: Decodable {
    var author: Author
    var portrait: Portrait?
}

struct Length: Record {
    var id: Int64?
    var unitAuthName: String
    var unitCode: String
    var value: Double
    static let tableName = "lengths"
    enum CodingKeys: String, CodingKey {
        case id, value
        case unitAuthName = "unit_auth_name"
        case unitCode = "unit_code"
    }
    static let unit = belongsTo(Unit.self, using: ["unit_auth_name", "unit_code"])
    static let parentAssociations: [any ParentAssociation] = [unit]
}

extension Unit {
    static let lengths = hasMany(Length.self, using: ["unit_auth_name", "unit_code"])
}

struct UnitWithLengths: Decodable {
    var unit: Unit
    var lengths: [Length]
}

struct Tag: Record {
    var id: Int64?
    var name: String
    static let tableName = "tags"
}

struct BookTag: Record {  // the pivot: one row per tag of a book
    var id: Int64?
    var bookId: Int64
    var tagId: Int64
    var position: Int
    static let tableName = "book_tags"
    enum CodingKeys: String, CodingKey {
        case id, position
        case bookId = "book_id"
        case tagId = "tag_id"
    }
}

extension Book {
    static let bookTags = hasMany(BookTag.self).order(Column("position").ascending)  // "book_tags"."book_id"
    static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.belongsTo(Tag.self))
    static let authorPortrait = hasOne(Portrait.self, key: "portrait", through: author, using: Author.portrait)
}

struct BookWithTags: Decodable {
    var book: Book
    var tags: [Tag]
}

struct BookWithPortrait: Decodable {
    var book: Book
    var portrait: Portrait?
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

// ExistingDatabases.md

struct Airport: Record, Equatable, Sendable {
    var id: Int64?
    var iataCode: String
    var name: String
    // note: opened_at: each of the 412 TEXT values parses as a date (1974-03-08); saves write "YYYY-MM-DD HH:MM:SS.SSS" in UTC; a later text that is not a date would not read.
    var openedAt: Date?

    static let tableName = "airports"

    enum CodingKeys: String, CodingKey {
        case id, name
        case iataCode = "iata_code"
        case openedAt = "opened_at"
    }
}

// The SQL the Queries article shows beside each request is checked against what the request compiles to.
@testable import SQLiteRecord
#if PostgreSQL
import PostgresRecord
import PostgresTestSupport
#endif

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

    /// Concurrency.md, "Every connection set up alike".
    func testTheConcurrencyArticlesSetupRuns() throws {
        let path = try makeLibraryFile()
        try DatabasePool(path: path).write { db in
            var author = Author(name: "Frances Burney")
            try author.save(db)
        }

        var setUp = Database.Options()
        setUp.prepareDatabase { db in
            try db.createFunction("initials", argumentCount: 1, isDeterministic: true) { arguments in
                guard case .text(let name) = arguments[0] else { return nil }
                return String(name.split(separator: " ").compactMap(\.first))
            }
        }
        let library = try DatabasePool(path: path, options: setUp)
        let initials = try library.read { db in
            try db.fetchAll(String.self, sql: "SELECT initials(name) FROM authors ORDER BY name")
        }

        XCTAssertEqual(initials, ["FB"])
    }

    /// Concurrency.md, "Files this process may not read or write": the immutable open reads a WAL file.
    func testTheConcurrencyArticlesImmutableOpenRuns() throws {
        let path = try makeLibraryFile()
        let archive = try DatabaseQueue(path: path, options: Database.Options(immutable: true))
        let count = try archive.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM books") }
        XCTAssertEqual(count, 2)
        XCTAssertThrowsError(try archive.write { db in try db.execute(sql: "DELETE FROM books") }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
        }
    }

    /// A library file with two books, for the pool's sections of Concurrency.md.
    private func makeLibraryFile() throws -> String {
        let path = folder.appendingPathComponent("pool.sqlite").path
        try DatabasePool(path: path).write { db in
            try Author.createTable(in: db)
            try Book.createTable(in: db)
            for title in ["Evelina", "Cecilia"] {
                var book = Book(title: title)
                try book.save(db)
            }
        }
        return path
    }

    /// Concurrency.md, "A pool: reads beside the write", first block.
    func testTheConcurrencyArticlesPoolRuns() async throws {
        let path = try makeLibraryFile()

        let pool = try DatabasePool(path: path)
        try RecordStore.use(pool)
        let recent = try await pool.read { db in
            try Book.fetch(db, orderBy: [.descending("id")], limit: 10)
        }

        XCTAssertEqual(recent.map(\.title), ["Cecilia", "Evelina"])
        XCTAssertThrowsError(try DatabasePool(path: ":memory:"))
    }

    /// Concurrency.md, the concurrent read, the function over either kind, and checkpoints.
    func testTheConcurrencyArticlesConcurrentReadAndCheckpointsRun() throws {
        let path = try makeLibraryFile()
        let pool = try DatabasePool(path: path)

        let future = try pool.writeWithoutTransaction { db in
            try db.transaction(.immediate) {
                var book = Book(title: "Camilla")
                try book.save(db)
            }
            return try pool.concurrentRead { db in try Book.count(db) }
        }
        let countAfterCamilla = try future.wait()

        func bookCount(in reader: some DatabaseReader) throws -> Int {
            try reader.read { db in try Book.count(db) }
        }

        let result = try pool.checkpoint(.passive)
        if !result.isComplete {
            // A read holds an old snapshot: keep reads short, then checkpoint again.
        }
        _ = try pool.checkpoint(.truncate)  // when the app is idle: the -wal file back to zero bytes

        XCTAssertEqual(countAfterCamilla, 3)
        XCTAssertEqual(try bookCount(in: pool), 3)
        XCTAssertEqual(try bookCount(in: try DatabaseQueue(path: path)), 3)
        XCTAssertTrue(result.isComplete)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int, 0)
    }

    /// Queries.md: each request runs, and its SQL is the SQL the article shows.
    func testTheQueriesArticleRuns() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Author.createTable(in: db)
            try Book.createTable(in: db)
            try Copy.createTable(in: db)
        }
        try RecordStore.use(queue)
        var austen = Author(name: "Jane Austen")
        try austen.save()
        var books = [
            Book(title: "Emma", publishedAt: Date(timeIntervalSince1970: -4_898_000_000)),
            Book(title: "Persuasion"), Book(title: "Pride and Prejudice"), Book(title: "Lady Susan (draft)"),
        ]
        try austen.save(children: &books)
        let barcode = UUID()
        var copies = [
            Copy(id: nil, bookId: 1, barcode: barcode, shelf: .front),
            Copy(id: nil, bookId: 2, barcode: UUID(), shelf: .back),
        ]
        try Copy.save(&copies)
        func sql(
            _ request: QueryInterfaceRequest<some Record>, _ statement: RequestStatement = .select
        ) throws -> String {
            try queue.read { db in try request.compiled(db, statement).sql }
        }

        let title = Column(Book.CodingKeys.title)
        let published = Column(Book.CodingKeys.publishedAt)
        let recent = try Book.filter(published >= Date(timeIntervalSince1970: 0))
            .order(published.descending, title)
            .limit(10)
            .fetch()
        // SELECT * FROM "books" WHERE "published_at" >= ? ORDER BY "published_at" DESC, "title" ASC LIMIT ?
        let emma = try Book.filter(title == "Emma").fetchOne()
        // SELECT * FROM "books" WHERE "title" = ? LIMIT ?
        let undated = try Book.filter(published == nil).count()
        // SELECT count(*) FROM "books" WHERE "published_at" IS NULL
        let pride = try Book.filter(title.hasPrefix("Pride")).exists()
        // SELECT EXISTS (SELECT * FROM "books" WHERE "title" LIKE ? ESCAPE '\')

        XCTAssertEqual(recent.count, 0)
        XCTAssertEqual(emma?.id, 1)
        XCTAssertEqual(undated, 3)
        XCTAssertTrue(pride)
        XCTAssertEqual(
            try sql(
                Book.filter(published >= Date(timeIntervalSince1970: 0)).order(published.descending, title).limit(10)),
            "SELECT * FROM \"books\" WHERE \"published_at\" >= ? ORDER BY \"published_at\" DESC, \"title\" ASC LIMIT ?")
        XCTAssertEqual(
            try sql(Book.filter(title == "Emma").limit(1)), "SELECT * FROM \"books\" WHERE \"title\" = ? LIMIT ?")
        XCTAssertEqual(
            try sql(Book.filter(published == nil), .count),
            "SELECT count(*) FROM \"books\" WHERE \"published_at\" IS NULL")
        XCTAssertEqual(
            try sql(Book.filter(title.hasPrefix("Pride")), .exists),
            "SELECT EXISTS (SELECT * FROM \"books\" WHERE \"title\" LIKE ? ESCAPE '\\')")

        let front = try Copy.filter(Copy.CodingKeys.shelf == Shelving.front).fetch()
        // SELECT * FROM "copies" WHERE "shelf" = ?  (bound: TEXT 'front')
        let copy = try Copy.filter(Copy.CodingKeys.barcode == barcode).fetchOne()
        // SELECT * FROM "copies" WHERE "barcode" IN (?, ?, ?) LIMIT ?  (its three stored forms)

        XCTAssertEqual(front.map(\.bookId), [1])
        XCTAssertEqual(copy?.bookId, 1)
        let shelfQuery = try queue.read { db in
            try Copy.filter(Copy.CodingKeys.shelf == Shelving.front).compiled(db, .select)
        }
        XCTAssertEqual(shelfQuery.sql, "SELECT * FROM \"copies\" WHERE \"shelf\" = ?")
        XCTAssertEqual(shelfQuery.arguments.values, [.text("front")])
        XCTAssertEqual(
            try sql(Copy.filter(Copy.CodingKeys.barcode == barcode).limit(1)),
            "SELECT * FROM \"copies\" WHERE \"barcode\" IN (?, ?, ?) LIMIT ?")

        let austens = Book.filter(Column("author_id") == austen.id && !(title == "Emma"))
        // WHERE "author_id" = ? AND NOT "title" = ?
        let either = Book.filter(title.in(["Emma", "Persuasion"]) || published == nil)
        // WHERE "title" IN (?, ?) OR "published_at" IS NULL
        let nothing = Book.filter(title.in([String]()))
        // WHERE 0  (an empty list matches no row)
        let between = Book.filter(Column("id").between(1, and: 3))
        // WHERE "id" BETWEEN ? AND ?
        let doubled = Book.filter(Column("id") * 2 > 5)
        // WHERE "id" * ? > ?
        let percent = Book.filter(title.hasPrefix("100%"))
        // WHERE "title" LIKE ? ESCAPE '\'  (bound: '100\%%')
        let caseless = Book.filter(title.collating(.nocase) == "emma")
        // WHERE "title" COLLATE "NOCASE" = ?
        let custom = Book.filter(sql: "length(title) > ?", arguments: [8])
        // WHERE (length(title) > ?)

        let expected: [(QueryInterfaceRequest<Book>, String, Int)] = [
            (austens, "\"author_id\" = ? AND NOT \"title\" = ?", 3),
            (either, "\"title\" IN (?, ?) OR \"published_at\" IS NULL", 4),
            (nothing, "0", 0),
            (between, "\"id\" BETWEEN ? AND ?", 3),
            (doubled, "\"id\" * ? > ?", 2),
            (percent, "\"title\" LIKE ? ESCAPE '\\'", 0),
            (caseless, "\"title\" COLLATE \"NOCASE\" = ?", 1),
            (custom, "(length(title) > ?)", 3),
        ]
        for (request, condition, count) in expected {
            XCTAssertEqual(try sql(request), "SELECT * FROM \"books\" WHERE " + condition)
            XCTAssertEqual(try request.count(), count, condition)
        }
        XCTAssertEqual(
            try queue.read { db in try percent.compiled(db, .select).arguments.values }, [.text("100\\%%")])

        struct AuthorCount: Decodable {
            var authorId: Int64?
            var books: Int
        }
        let counts = try Book.select(Column("author_id").forKey("authorId"), SQLExpression.countAll.forKey("books"))
            .group(Column("author_id"))
            .having(count(Column("id")) > 1)
            .fetch(as: AuthorCount.self)
        // SELECT "author_id" AS "authorId", count(*) AS "books" FROM "books" GROUP BY "author_id" HAVING count("id") > ?
        let longest = try Book.select(max(Column("id"))).fetchOne(as: Int.self)
        // SELECT max("id") FROM "books" LIMIT ?

        XCTAssertEqual(counts.map(\.authorId), [1])
        XCTAssertEqual(counts.map(\.books), [4])
        XCTAssertEqual(longest, 4)
        XCTAssertEqual(
            try sql(
                Book.select(Column("author_id").forKey("authorId"), SQLExpression.countAll.forKey("books"))
                    .group(Column("author_id")).having(count(Column("id")) > 1)),
            "SELECT \"author_id\" AS \"authorId\", count(*) AS \"books\" FROM \"books\" GROUP BY \"author_id\" "
                + "HAVING count(\"id\") > ?")
        XCTAssertEqual(
            try sql(Book.select(max(Column("id"))).limit(1)), "SELECT max(\"id\") FROM \"books\" LIMIT ?")

        try Book.filter(published == nil).updateAll(published.set(to: Date(timeIntervalSince1970: 0)))
        // UPDATE "books" SET "published_at" = ? WHERE "published_at" IS NULL
        try Book.filter(title.hasPrefix("Lady Susan")).deleteAll()
        // DELETE FROM "books" WHERE "title" LIKE ? ESCAPE '\'
        try Book.order(Column("id").descending).limit(1).deleteAll()
        // DELETE FROM "books" WHERE rowid IN (SELECT rowid FROM "books" ORDER BY "id" DESC LIMIT ?)
        try queue.read { db in
            let cursor = try Book.order(title).fetchCursor(db)
            while let book = try cursor.next() { print(book.title) }
        }

        XCTAssertEqual(try Book.order(title).fetch().map(\.title), ["Emma", "Persuasion"])
        // Queries.md, "Ordering": the orderBy: of the where: forms.
        let newest = try Book.fetch(orderBy: [.descending(Book.CodingKeys.publishedAt), .ascending("title")])
        // SELECT * FROM "books" ORDER BY "published_at" DESC, "title" ASC
        XCTAssertEqual(newest.map(\.title), ["Persuasion", "Emma"])
        XCTAssertEqual(
            try sql(Book.request(where: [:], orderBy: [.descending(Book.CodingKeys.publishedAt), .ascending("title")])),
            "SELECT * FROM \"books\" ORDER BY \"published_at\" DESC, \"title\" ASC")
        // Queries.md, "Ordering": where NULLs go.
        let undatedLast = try Book.fetch(orderBy: [.ascending(Book.CodingKeys.publishedAt, nulls: .last)])
        // SELECT * FROM "books" ORDER BY "published_at" ASC NULLS LAST
        XCTAssertEqual(undatedLast.map(\.title), ["Emma", "Persuasion"])
        XCTAssertEqual(
            try sql(Book.request(where: [:], orderBy: [.ascending(Book.CodingKeys.publishedAt, nulls: .last)])),
            "SELECT * FROM \"books\" ORDER BY \"published_at\" ASC NULLS LAST")
        XCTAssertEqual(try Book.filter(published == nil).count(), 0)
        let update = try queue.read { db in
            try Book.filter(published == nil).compiled(
                db, .update, assignments: [published.set(to: Date(timeIntervalSince1970: 0))])
        }
        XCTAssertEqual(update.sql, "UPDATE \"books\" SET \"published_at\" = ? WHERE \"published_at\" IS NULL")
        XCTAssertEqual(
            try sql(Book.filter(title.hasPrefix("Lady Susan")), .delete),
            "DELETE FROM \"books\" WHERE \"title\" LIKE ? ESCAPE '\\'")
        XCTAssertEqual(
            try sql(Book.order(Column("id").descending).limit(1), .delete),
            "DELETE FROM \"books\" WHERE rowid IN (SELECT rowid FROM \"books\" ORDER BY \"id\" DESC LIMIT ?)")
    }

    /// RowInitializers.md: the record written both ways reads alike both ways, and every fetch takes init(row:).
    func testTheRowInitializersArticleRuns() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE reviews (id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL, stars INTEGER NOT NULL,
                      text TEXT, posted_at TEXT NOT NULL)
                    """)
            for (stars, text) in [(5, "Superb" as String?), (1, nil), (3, "Fine")] {
                var review = Review(
                    id: nil, bookId: 1, stars: stars, text: text, postedAt: Date(timeIntervalSince1970: 0))
                try review.insert(db)
            }
        }
        try queue.read { db in
            XCTAssertEqual(try Review.checkRowInitializer(db), 3)
        }
        let reviews = try queue.read { db in try Review.fetch(db, orderBy: [.descending("stars")]) }
        XCTAssertEqual(reviews.map(\.stars), [5, 3, 1])
        XCTAssertEqual(try queue.read { db in try Review.fetchOne(db, id: 2) }?.text, nil)
    }

    /// FullTextSearch.md: the index is created by its migration, searched, highlighted, checked and rebuilt.
    func testTheFullTextSearchArticleRuns() throws {
        let queue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("passages") { db in try Passage.createTable(in: db) }
        migrator.registerFullTextIndex("index passages", for: Passage.self)
        try migrator.migrate(queue)
        try queue.write { db in
            var first = Passage(id: nil, book: "Paris", text: "A café crème on the corner")
            var second = Passage(id: nil, book: "Lyon", text: "Another cafe, far from any street corner")
            try first.save(db)
            try second.save(db)
        }
        let found = try queue.read { db in
            try Passage.search("cafe creme").filter(Column("book") == "Paris").limit(10).fetch(db)
        }
        let highlighted = try queue.read { db in
            try Passage.search("cafe").fetchMatches(db, excerpt: .highlight(Column("text"), open: "<b>", close: "</b>"))
        }
        // highlighted[0].excerpt == "A <b>café</b> crème on the corner"
        XCTAssertEqual(found.map(\.text), ["A café crème on the corner"])
        XCTAssertEqual(
            highlighted.map(\.excerpt),
            ["A <b>café</b> crème on the corner", "Another <b>cafe</b>, far from any street corner"])
        let sql = try queue.read { db in
            try Passage.search("cafe creme").filter(Column("book") == "Paris").limit(10).compiled(db, .select).sql
        }
        XCTAssertEqual(
            sql,
            "SELECT \"passages\".* FROM \"passages\" JOIN (SELECT rowid AS \"sqliterecord_rowid\", rank AS \"sqliterecord_rank\" "
                + "FROM \"passages_fts\" WHERE \"passages_fts\" MATCH ?) AS \"sqliterecord_search\" "
                + "ON \"passages\".rowid = \"sqliterecord_search\".\"sqliterecord_rowid\" "
                + "WHERE \"book\" = ? ORDER BY \"sqliterecord_search\".\"sqliterecord_rank\" LIMIT ?")
        let near = FTS5Pattern(rawPattern: "NEAR(cafe corner, 3)")
        let nearby = try queue.read { db in try Passage.matching(near).fetch(db) }
        try queue.write { db in
            try Passage.checkFullTextIndex(db)
            try Passage.rebuildFullTextIndex(db)
        }
        XCTAssertEqual(nearby.map(\.book), ["Paris"])
    }

    /// ObservingChanges.md: the command-line example, with writes from another task.
    func testTheObservingChangesArticleRuns() async throws {
        func watchTitles(in queue: DatabaseQueue, until last: String) async throws -> [[String]] {
            let observation = ValueObservation.tracking { db in
                try Book.all().order(Column("title")).fetch(db).map(\.title)
            }
            var seen: [[String]] = []
            for try await titles in observation.removeDuplicates().values(in: queue) {
                print(titles)  // the current titles, then again after each commit that changed books
                seen.append(titles)
                if titles.contains(last) { break }  // leaving the loop ends the observation
            }
            return seen
        }

        let queue = try DatabaseQueue()
        try await queue.write { db in
            try Author.createTable(in: db)
            try Book.createTable(in: db)
        }
        let watcher = Task { try await watchTitles(in: queue, until: "Evelina") }
        try await waitForObservers(on: queue, count: 1)
        try await queue.write { db in
            var book = Book(title: "Cecilia")
            try book.save(db)
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        try await queue.write { db in
            var book = Book(title: "Evelina")
            try book.save(db)
        }
        let seen = try await watcher.value
        // The first value is [] or ["Cecilia"] (the write may land before the first read); commits that come
        // while a read runs are read once.
        XCTAssertEqual(seen.last, ["Cecilia", "Evelina"])
        XCTAssertTrue((1...3).contains(seen.count), "\(seen)")
    }

    /// ObservingChanges.md: the live query follows the books' titles.
    @MainActor
    func testTheObservingChangesLiveQueryRuns() async throws {
        guard #available(macOS 14, iOS 17, *) else { throw XCTSkip("the Observation framework needs macOS 14") }
        let queue = try DatabaseQueue()
        try await queue.write { db in try Book.createTable(in: db) }
        let query = watchBooks(in: queue)
        try await queue.write { db in
            var book = Book(title: "Camilla")
            try book.save(db)
        }
        let deadline = Date().addingTimeInterval(5)
        while query.value?.map(\.title) != ["Camilla"] && Date() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        XCTAssertEqual(query.value?.map(\.title), ["Camilla"])
    }

    /// ObservingChanges.md: the SwiftUI example's model loop, on the main actor, on a pool.
    @MainActor
    func testTheObservingChangesModelLoopRuns() async throws {
        let path = try makeLibraryFile()
        let pool = try DatabasePool(path: path)
        let model = MainActorTitles()
        let observing = Task { @MainActor in try await model.observe(pool, until: 3) }
        try await Task.sleep(nanoseconds: 50_000_000)
        try await pool.write { db in
            var book = Book(title: "Camilla")
            try book.save(db)
        }
        try await observing.value
        XCTAssertEqual(model.titles, ["Camilla", "Cecilia", "Evelina"])
    }

    /// Waits until `count` observations listen to `queue`'s commits.
    private func waitForObservers(on queue: DatabaseQueue, count: Int) async throws {
        let deadline = Date().addingTimeInterval(5)
        while try await queue.read({ db in db.changeTracker.observerCount }) < count {
            guard Date() < deadline else { return XCTFail("no observer registered within 5 s") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Associations.md, composite keys.
    func testTheAssociationsArticlesCompositeKeysRun() throws {
        let db = try Database()
        try Unit.createTable(in: db)
        try Length.createTable(in: db)
        var metre = Unit(authName: "EPSG", code: "9001", name: "metre")
        var lengths = [Length(id: nil, unitAuthName: "", unitCode: "", value: 8_848.86)]
        try metre.save(db, children: &lengths)  // sets "unit_auth_name" and "unit_code" of each length
        let units = try Unit.including(all: Unit.lengths).fetch(db, as: UnitWithLengths.self)
        // SELECT * FROM "lengths" WHERE (("unit_auth_name", "unit_code") IN (VALUES (?, ?)))
        let unit = try lengths[0].request(for: Length.unit).fetchOne(db)
        // SELECT * FROM "units" WHERE "auth_name" = ? AND "code" = ? LIMIT ?
        let pairs = try Length.including(required: Length.unit).fetchPairs(db)
        // ... LEFT JOIN "units" ON "lengths"."unit_auth_name" = "units"."auth_name" AND "lengths"."unit_code" = "units"."code"

        let stored = try db.fetchAll(sql: "SELECT unit_auth_name, unit_code, value FROM lengths")
        XCTAssertEqual(stored.map { $0.values }, [[.text("EPSG"), .text("9001"), .real(8_848.86)]])
        XCTAssertEqual(units.map(\.unit.name), ["metre"])
        XCTAssertEqual(units.map { $0.lengths.map(\.value) }, [[8_848.86]])
        XCTAssertEqual(unit?.name, "metre")
        XCTAssertEqual(pairs.map { $0.1?.code }, ["9001"])
        XCTAssertEqual(
            try Length.including(required: Length.unit).sql(db).sql,
            ##"SELECT "lengths".*, "units"."auth_name" AS "#unit", "units".* FROM "lengths" LEFT JOIN "units" "##
                + #"ON "lengths"."unit_auth_name" = "units"."auth_name" AND "lengths"."unit_code" = "units"."code""#)
        XCTAssertThrowsError(
            try Unit.including(all: Unit.hasMany(Length.self, using: "unit_code")).fetchGroups(db)
        ) { error in
            XCTAssertTrue(
                "\(error)".contains(
                    #"the foreign key has 1 column ("unit_code") of table "lengths" and the key of table "units" "#
                        + #"has 2 columns ("auth_name", "code")"#), "\(error)")
        }
    }

    /// Associations.md.
    func testTheAssociationsArticleRuns() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE books (
                    id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES authors(id), title TEXT NOT NULL,
                    published_at TEXT);
                CREATE TABLE portraits (
                    id INTEGER PRIMARY KEY, author_id INTEGER UNIQUE REFERENCES authors(id), painter TEXT NOT NULL);
                """)
        var austen = Author(id: nil, name: "Jane Austen")
        var shelley = Author(id: nil, name: "Mary Shelley")
        try shelley.save(db)
        var austenBooks = [
            Book(id: nil, authorId: nil, title: "Persuasion", publishedAt: nil),
            Book(id: nil, authorId: nil, title: "Emma", publishedAt: nil),
        ]
        try austen.save(db, children: &austenBooks)
        let emma = austenBooks[1]

        let books = try austen.request(for: Author.books).order(Column("title").ascending).fetch(db)
        // SELECT * FROM "books" WHERE "author_id" = ? ORDER BY "title" ASC
        let author = try emma.request(for: Book.author).fetchOne(db)
        // SELECT * FROM "authors" WHERE "id" = ? LIMIT ?
        let authors = try Author.order(Column("name").ascending)
            .including(all: Author.books.order(Column("title").ascending).limit(3))
            .fetch(db, as: AuthorWithBooks.self)
        // SELECT * FROM "authors" ORDER BY "name" ASC
        // SELECT * FROM "books" WHERE "author_id" IN (?, ?) ORDER BY "title" ASC
        let rows = try Book.filter(Column("title").hasPrefix("E")).including(required: Book.author)
            .fetch(db, as: BookWithAuthor.self)
        // SELECT "books".*, "authors"."id" AS "#author", "authors".* FROM "books"
        //   LEFT JOIN "authors" ON "authors"."id" = "books"."author_id" WHERE "books"."title" LIKE ? ESCAPE '\'

        XCTAssertEqual(books.map(\.title), ["Emma", "Persuasion"])
        XCTAssertEqual(author?.name, "Jane Austen")
        XCTAssertEqual(authors.map(\.author.name), ["Jane Austen", "Mary Shelley"])
        XCTAssertEqual(authors.map { $0.books.map(\.title) }, [["Emma", "Persuasion"], []])
        XCTAssertEqual(rows.map(\.book.title), ["Emma"])
        XCTAssertEqual(rows.map(\.author.name), ["Jane Austen"])
        XCTAssertEqual(
            try Book.filter(Column("title").hasPrefix("E")).including(required: Book.author).sql(db).sql,
            ##"SELECT "books".*, "authors"."id" AS "#author", "authors".* FROM "books" LEFT JOIN "authors" "##
                + #"ON "authors"."id" = "books"."author_id" WHERE "books"."title" LIKE ? ESCAPE '\'"#)

        var portrait = Portrait(id: nil, authorId: austen.id, painter: "Cassandra Austen")
        try portrait.save(db)
        let withPortraits = try Author.order(Column("name").ascending).including(optional: Author.portrait)
            .fetch(db, as: AuthorWithPortrait.self)
        XCTAssertEqual(withPortraits.map(\.portrait?.painter), ["Cassandra Austen", nil])
        XCTAssertEqual(try austen.request(for: Author.portrait).fetchOne(db)?.painter, "Cassandra Austen")
        XCTAssertEqual(try Author.including(required: Author.portrait).fetchPairs(db).map(\.0.name), ["Jane Austen"])
        XCTAssertEqual(try Author.filter(Author.portrait.exists).fetch(db).map(\.name), ["Jane Austen"])
        XCTAssertEqual(
            try Author.including(optional: Author.portrait).sql(db).sql,
            ##"SELECT "authors".*, "portraits"."author_id" AS "#portrait", "portraits".* FROM "authors" LEFT JOIN "##
                + #""portraits" ON "portraits"."author_id" = "authors"."id""#)
    }

    /// Associations.md, "Through another table": books with their tags in one query per level, books filtered
    /// by a tag, and a book's author's portrait.
    func testTheAssociationsArticlesThroughAssociationsRun() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE books (
                    id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES authors(id), title TEXT NOT NULL,
                    published_at TEXT);
                CREATE TABLE portraits (
                    id INTEGER PRIMARY KEY, author_id INTEGER UNIQUE REFERENCES authors(id), painter TEXT NOT NULL);
                CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE book_tags (
                    id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES books(id),
                    tag_id INTEGER NOT NULL REFERENCES tags(id), position INTEGER NOT NULL);
                INSERT INTO authors VALUES (1, 'Mary Shelley'), (2, 'Jane Austen');
                INSERT INTO books VALUES (1, 1, 'Frankenstein', NULL), (2, 2, 'Emma', NULL);
                INSERT INTO portraits VALUES (1, 1, 'Richard Rothwell');
                INSERT INTO tags VALUES (1, 'novel'), (2, 'gothic');
                INSERT INTO book_tags (book_id, tag_id, position) VALUES (1, 2, 2), (1, 1, 1), (2, 1, 1);
                """)
        let log = SnippetSelectLog()
        db.trace { log.append($0.sql) }
        let tagged = try Book.order(Column("title").ascending).including(all: Book.tags)
            .fetch(db, as: BookWithTags.self)
        // SELECT * FROM "books" ORDER BY "title" ASC
        // SELECT * FROM "book_tags" WHERE "book_id" IN (?, ?) ORDER BY "position" ASC
        // SELECT * FROM "tags" WHERE "id" IN (?, ?)
        let gothic = try Book.filter(Book.tags.filter(Column("name") == "gothic").exists).fetch(db)
        // SELECT * FROM "books" WHERE EXISTS (SELECT 1 FROM "book_tags" AS "#pivot" JOIN "tags" AS "#target"
        //   ON "#pivot"."tag_id" = "#target"."id" WHERE "#pivot"."book_id" = "books"."id" AND ("#target"."name" = ?))
        db.trace(nil)

        XCTAssertEqual(tagged.map(\.book.title), ["Emma", "Frankenstein"])
        XCTAssertEqual(tagged.map { $0.tags.map(\.name) }, [["novel"], ["novel", "gothic"]])
        XCTAssertEqual(gothic.map(\.title), ["Frankenstein"])
        XCTAssertEqual(
            log.statements,
            [
                #"SELECT * FROM "books" ORDER BY "title" ASC"#,
                #"SELECT * FROM "book_tags" WHERE "book_id" IN (?, ?) ORDER BY "position" ASC"#,
                #"SELECT * FROM "tags" WHERE "id" IN (?, ?)"#,
                ##"SELECT * FROM "books" WHERE EXISTS (SELECT 1 FROM "book_tags" AS "#pivot" JOIN "tags" AS "#target" "##
                    + ##"ON "#pivot"."tag_id" = "#target"."id" WHERE "#pivot"."book_id" = "books"."id" "##
                    + ##"AND ("#target"."name" = ?))"##,
            ])
        let portraits = try Book.order(Column("title").ascending).including(optional: Book.authorPortrait)
            .fetch(db, as: BookWithPortrait.self)
        XCTAssertEqual(portraits.map { $0.portrait?.painter }, [nil, "Richard Rothwell"])
    }

    /// ExistingDatabases.md: a table an earlier version made (`code`, not unique), checked and migrated.
    func testTheExistingDatabasesArticleRuns() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE airports (id INTEGER PRIMARY KEY, code TEXT NOT NULL, name TEXT NOT NULL, opened_at TEXT);
                    INSERT INTO airports VALUES (1, 'CDG', 'Paris-Charles de Gaulle', '1974-03-08'), (2, 'NRT', 'Narita', NULL);
                    """)
        }
        do {
            try queue.read { db in
                try Airport.validateSchema(in: db)
            }
            XCTFail("the table has no iata_code column yet")
        } catch let error as SchemaValidationError {
            XCTAssertEqual(
                error.mismatches, [.missingColumn("iata_code", key: "iata_code", valueType: "String", isOptional: false)])
        }
        let options = SchemaChangeOptions(renamedColumns: ["code": "iata_code"], uniqueKeys: [["iata_code"]])
        let plan = try queue.read { db in try Airport.schemaChanges(in: db, options: options) }
        print(plan)  // the changes, what would be refused, and the SQL
        var migrator = DatabaseMigrator()
        migrator.registerSchemaChanges("2 airports: iata_code", for: Airport.self, options: options)
        try migrator.migrate(queue)
        XCTAssertEqual(
            plan.sql,
            """
            ALTER TABLE "airports" RENAME COLUMN "code" TO "iata_code";
            CREATE UNIQUE INDEX "airports_iata_code_unique" ON "airports" ("iata_code");
            """)
        try queue.read { db in
            try Airport.validateSchema(in: db)
            XCTAssertEqual(try Airport.fetch(db).map(\.iataCode), ["CDG", "NRT"])
            XCTAssertEqual(try Airport.fetchOne(db, id: 1)?.openedAt, Date(timeIntervalSince1970: 131_932_800))
        }
    }

    #if PostgreSQL
    /// ExistingDatabases.md, "On PostgreSQL": the same table and plan on the throwaway server, in a schema of
    /// its own.
    func testTheExistingDatabasesArticleRunsOnPostgreSQL() throws {
        let url = try PostgresTestServer.url()
        let schema = "docc_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PostgresConnection(url)
        try admin.execute("CREATE SCHEMA \(schema)")
        defer { try? admin.execute("DROP SCHEMA \(schema) CASCADE") }
        let connection = try PostgresConnection(
            url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)")
        try connection.execute(
            """
            CREATE TABLE airports (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, code TEXT NOT NULL,
                name TEXT NOT NULL, opened_at TIMESTAMPTZ);
            INSERT INTO airports VALUES (1, 'CDG', 'Paris-Charles de Gaulle', '1974-03-08 00:00:00Z'), (2, 'NRT', 'Narita', NULL)
            """)
        let options = SchemaChangeOptions(renamedColumns: ["code": "iata_code"], uniqueKeys: [["iata_code"]])
        let plan = try Airport.schemaChanges(in: connection, options: options)
        print(plan)  // the changes, what would be refused, and the SQL
        var migrator = DatabaseMigrator<PostgresConnection>()
        migrator.registerSchemaChanges("2 airports: iata_code", for: Airport.self, options: options)
        try migrator.migrate(connection)
        XCTAssertEqual(
            plan.sql,
            """
            ALTER TABLE "airports" RENAME COLUMN "code" TO "iata_code";
            CREATE UNIQUE INDEX "airports_iata_code_unique" ON "airports" ("iata_code");
            """)
        XCTAssertFalse(plan.requiresRebuild)
        try Airport.validateSchema(in: connection)
        XCTAssertTrue(try Airport.schemaChanges(in: connection, options: options).isEmpty)
        let airports = try Airport.all().fetch(connection).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        XCTAssertEqual(airports.map(\.iataCode), ["CDG", "NRT"])
        XCTAssertEqual(airports.first?.openedAt, Date(timeIntervalSince1970: 131_932_800))
    }
    #endif

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
        XCTAssertEqual(blockCount, 54, "a ```swift block was added or removed: keep this count and this file in step")
    }

    /// Lines without indentation, blank lines dropped.
    private static func codeLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}

/// The SELECT statements a connection ran on its tables; the trace handler runs on the connection's thread.
final class SnippetSelectLog: @unchecked Sendable {
    // The lock guards `stored`.
    private let lock = NSLock()
    private var stored: [String] = []

    /// Keeps a SELECT that is not a read of the schema (`pragma_table_xinfo`), which a connection makes once
    /// per table.
    func append(_ sql: String) {
        guard sql.hasPrefix("SELECT"), !sql.contains("pragma_") else { return }
        lock.withLock { stored.append(sql) }
    }

    var statements: [String] { lock.withLock { stored } }
}
