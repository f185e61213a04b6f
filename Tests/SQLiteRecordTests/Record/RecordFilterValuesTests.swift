import Foundation
import XCTest

@testable import SQLiteRecord

/// `where:` dictionaries holding values of every type the record encoder stores: enums by raw value, dates,
/// UUIDs, decimals, URLs, data and integers of every width, each matched in the form `save()` wrote.
final class RecordFilterValuesTests: XCTestCase {
    enum Genre: String, Codable, CaseIterable { case mystery, poetry }
    enum Shelf: Int, Codable, CaseIterable {
        case top = 1
        case bottom = 2
    }

    struct Book: Record, Equatable {
        var id: Int64?
        var genre: Genre
        var shelf: Shelf?
        var publishedAt: Date
        var isbnID: UUID
        var price: Decimal
        var link: URL
        var isSigned: Bool
        var cover: Data
        var copies: Int8
        var pages: UInt16
        var weight: UInt32
        var rating: Float
        static let tableName = "books"
    }

    /// A record whose dates are stored as unix seconds, by strategy.
    struct Event: Record, Equatable {
        var id: Int64?
        var at: Date
        static let tableName = "events"
        static var recordEncoder: RecordEncoder {
            var encoder = RecordEncoder()
            encoder.dateEncodingStrategy = .unixSeconds
            return encoder
        }
    }

    private func uuidBytes(_ uuid: UUID) -> [UInt8] {
        let u = uuid.uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    private static let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    private static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    private static func book() -> Book {
        Book(
            id: nil, genre: .mystery, shelf: .bottom, publishedAt: Self.date, isbnID: Self.uuid,
            price: Decimal(string: "19.99")!, link: URL(string: "https://example.com/a?b=1")!, isSigned: true,
            cover: Data([1, 2, 3]), copies: -3, pages: 65_000, weight: 4_000_000_000, rating: 4.5)
    }

    private static func savedBook(_ db: Database) throws -> Book {
        try Book.createTable(in: db)
        var other = book()
        other.genre = .poetry
        other.shelf = nil
        other.publishedAt = Date(timeIntervalSince1970: 0)
        other.isbnID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        other.price = 5
        other.link = URL(string: "https://example.com/other")!
        other.isSigned = false
        other.cover = Data([9])
        other.copies = 1
        other.pages = 1
        other.weight = 1
        other.rating = 1
        try other.insert(db)
        var saved = book()
        try saved.insert(db)
        return saved
    }

    func testEachValueTypeFindsTheRowSaveWrote() throws {
        let db = try Database()
        let saved = try Self.savedBook(db)
        let row = try XCTUnwrap(
            db.fetchOne(
                sql: "SELECT genre, shelf, publishedAt, isbnID, price, link, isSigned, cover, copies, pages, weight, "
                    + "rating FROM books WHERE id = ?", arguments: [saved.id]))
        XCTAssertEqual(row["genre"], SQLiteValue.text("mystery"))
        XCTAssertEqual(row["shelf"], SQLiteValue.integer(2))
        XCTAssertEqual(row["publishedAt"], SQLiteValue.text("2023-11-14 22:13:20.250"))
        XCTAssertEqual(row["isbnID"], SQLiteValue.text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        XCTAssertEqual(row["price"], SQLiteValue.real(19.99))
        XCTAssertEqual(row["link"], SQLiteValue.text("https://example.com/a?b=1"))
        XCTAssertEqual(row["isSigned"], SQLiteValue.integer(1))
        XCTAssertEqual(row["cover"], SQLiteValue.blob(Data([1, 2, 3])))
        XCTAssertEqual(row["copies"], SQLiteValue.integer(-3))
        XCTAssertEqual(row["pages"], SQLiteValue.integer(65_000))
        XCTAssertEqual(row["weight"], SQLiteValue.integer(4_000_000_000))
        XCTAssertEqual(row["rating"], SQLiteValue.real(4.5))

        let value = Self.book()
        let conditions: [(String, any Encodable)] = [
            ("genre", Genre.mystery), ("shelf", Shelf.bottom), ("publishedAt", value.publishedAt),
            ("isbnID", value.isbnID), ("price", value.price), ("link", value.link), ("isSigned", true),
            ("cover", value.cover), ("copies", Int8(-3)), ("pages", UInt16(65_000)),
            ("weight", UInt32(4_000_000_000)), ("rating", Float(4.5)), ("shelf", Optional(Shelf.bottom)),
        ]
        for (column, value) in conditions {
            XCTAssertEqual(try Book.fetch(db, where: [column: value]).map(\.id), [saved.id], column)
            XCTAssertEqual(try Book.count(db, where: [column: value]), 1, column)
        }
    }

    func testAnEnumLiteralInAWhereDictionary() throws {
        let db = try Database()
        let saved = try Self.savedBook(db)
        XCTAssertEqual(try Book.fetch(db, where: ["genre": Genre.mystery]), [saved])
        XCTAssertEqual(try Book.fetchOne(db, where: ["genre": Genre.mystery, "copies": -3]), saved)
        XCTAssertEqual(try Book.count(db, where: ["shelf": Shelf.top]), 0)
        let noShelf: Shelf? = nil
        XCTAssertEqual(try Book.fetch(db, where: ["shelf": noShelf]).map(\.genre), [.poetry])
        XCTAssertEqual(try Book.deleteAll(db, where: ["genre": Genre.poetry]), 1)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT genre FROM books"), ["mystery"])
    }

    func testAUUIDStoredUppercaseOrAsABlobMatches() throws {
        let db = try Database()
        let saved = try Self.savedBook(db)
        try db.execute(sql: "UPDATE books SET isbnID = upper(isbnID) WHERE id = ?", arguments: [saved.id])
        let found = try Book.fetch(db, where: ["isbnID": Self.uuid, "genre": Genre.mystery])
        XCTAssertEqual(found.map(\.id), [saved.id])
        try db.execute(
            sql: "UPDATE books SET isbnID = ? WHERE id = ?", arguments: [Data(uuidBytes(Self.uuid)), saved.id])
        XCTAssertEqual(try Book.count(db, where: ["isbnID": Self.uuid, "genre": Genre.mystery]), 1)
    }

    func testADateStrategyIsTheFormTheFilterCompares() throws {
        let db = try Database()
        try Event.createTable(in: db)
        var event = Event(id: nil, at: Date(timeIntervalSince1970: 1_700_000_000))
        try event.insert(db)
        XCTAssertEqual(try db.scalar(SQLiteValue.self, sql: "SELECT at FROM events"), .real(1_700_000_000))
        // Both overloads: a Date alone is SQLiteValueConvertible, with an enum beside it Encodable.
        XCTAssertEqual(try Event.fetch(db, where: ["at": event.at]), [event])
        let conditions: [String: (any Encodable)?] = ["at": event.at, "id": event.id]
        XCTAssertEqual(try Event.fetch(db, where: conditions), [event])
    }

    func testAStructValueIsComparedAsTheJSONTextSaveWrites() throws {
        struct Pair: Codable { var a = 1, b = 2 }
        let db = try Database()
        let saved = try Self.savedBook(db)
        XCTAssertEqual(try Book.fetch(db, where: ["genre": Pair()]), [])
        try db.execute(sql: #"UPDATE books SET genre = '{"a":1,"b":2}' WHERE id = ?"#, arguments: [saved.id])
        XCTAssertEqual(try Book.count(db, where: ["genre": Pair()]), 1)
    }

    func testAnUnknownColumnIsStillRefused() throws {
        let db = try Database()
        _ = try Self.savedBook(db)
        XCTAssertThrowsError(try Book.fetch(db, where: ["gnre": Genre.mystery])) { error in
            guard case RecordError.unknownColumn(let table, let column, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "books")
            XCTAssertEqual(column, "gnre")
        }
    }

    func testTheDefaultStoreAndAsyncForms() async throws {
        let queue = try DatabaseQueue()
        try RecordStore.use(queue)
        defer { RecordStore.reset() }
        let saved = try await queue.write { db in try Self.savedBook(db) }
        let awaited = try await Book.fetch(where: ["genre": Genre.mystery])
        XCTAssertEqual(awaited.map(\.id), [saved.id])
        let one = try await Book.fetchOne(where: ["shelf": Shelf.bottom])
        XCTAssertEqual(one?.id, saved.id)
        let counted = try await Book.count(where: ["genre": Genre.poetry])
        XCTAssertEqual(counted, 1)
        let deleted = try await Book.deleteAll(where: ["genre": Genre.poetry])
        XCTAssertEqual(deleted, 1)
        let left = try await Book.count(where: ["genre": Genre.mystery])
        XCTAssertEqual(left, 1)
    }

    func testTheDefaultStoreForms() throws {
        let queue = try DatabaseQueue()
        try RecordStore.use(queue)
        defer { RecordStore.reset() }
        let saved = try queue.write { db in try Self.savedBook(db) }
        XCTAssertEqual(try Book.fetch(where: ["genre": Genre.mystery]).map(\.id), [saved.id])
        XCTAssertEqual(try Book.fetchOne(where: ["shelf": Shelf.bottom])?.id, saved.id)
        XCTAssertEqual(try Book.count(where: ["genre": Genre.poetry]), 1)
        XCTAssertEqual(try Book.deleteAll(where: ["genre": Genre.poetry]), 1)
        XCTAssertEqual(
            try queue.read { db in try db.fetchAll(String.self, sql: "SELECT genre FROM books") }, ["mystery"])
    }
}
