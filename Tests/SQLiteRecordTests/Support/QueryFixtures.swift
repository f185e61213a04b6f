import Foundation
import SQLiteRecord

/// A genre, stored as its raw value.
enum Genre: String, Codable, Sendable {
    case fiction, poetry, essay
}

/// A book for the request tests: an enum, an optional double and date, a UUID, a Bool and a Decimal, with
/// `CodingKeys` that read as columns.
struct Novel: Record, Equatable, Sendable {
    var id: Int64?
    var title: String
    var genre: Genre
    var pages: Int
    var rating: Double?
    var publishedAt: Date?
    var isbn: UUID?
    var inPrint: Bool
    var price: Decimal
    static let tableName = "novels"
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, title, genre, pages, rating, isbn, price
        case publishedAt = "published_at"
        case inPrint = "in_print"
    }
}

/// A record whose encoder stores UUIDs as BLOBs, dates as unix seconds and keys in snake_case: what a
/// request's values and coding-key columns must follow.
struct Meter: Record, Equatable, Sendable {
    var id: Int64?
    var serialNumber: UUID
    var installedAt: Date
    var isActive: Bool
    static let tableName = "meters"
    /// Declared, because the synthesized keys are private: requests outside the type name them.
    enum CodingKeys: String, CodingKey {
        case id, serialNumber, installedAt, isActive
    }
    static let recordEncoder: RecordEncoder = {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.uuidEncodingStrategy = .blob
        encoder.dateEncodingStrategy = .unixSeconds
        return encoder
    }()
    static let rowDecoder: RowDecoder = {
        var decoder = RowDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()
}

enum QueryFixtures {
    static let schema = """
        CREATE TABLE novels (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, genre TEXT NOT NULL, pages INTEGER NOT NULL, rating REAL,
            published_at TEXT, isbn TEXT, in_print INTEGER NOT NULL, price NUMERIC NOT NULL);
        CREATE TABLE meters (
            id INTEGER PRIMARY KEY, serial_number BLOB NOT NULL, installed_at REAL NOT NULL, is_active INTEGER NOT NULL);
        """

    static let isbn = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

    static func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    /// Five novels, saved in this order (ids 1 to 5).
    static let novels: [Novel] = [
        Novel(
            id: nil, title: "Dune", genre: .fiction, pages: 412, rating: 4.5, publishedAt: date(-140_000_000),
            isbn: isbn, inPrint: true, price: Decimal(string: "9.99") ?? 0),
        Novel(
            id: nil, title: "Leaves of Grass", genre: .poetry, pages: 145, rating: nil, publishedAt: nil, isbn: nil,
            inPrint: false, price: 5),
        Novel(
            id: nil, title: "100% Pure_Essays", genre: .essay, pages: 88, rating: 3.0, publishedAt: date(1_000_000_000),
            isbn: nil, inPrint: true, price: Decimal(string: "12.50") ?? 0),
        Novel(
            id: nil, title: "dune messiah", genre: .fiction, pages: 256, rating: 4.0, publishedAt: date(-100_000_000),
            isbn: nil, inPrint: true, price: Decimal(string: "8.25") ?? 0),
        Novel(
            id: nil, title: "Ariel", genre: .poetry, pages: 96, rating: 4.8, publishedAt: date(-220_000_000),
            isbn: nil, inPrint: false, price: 7),
    ]

    /// A database with both tables and the five novels.
    static func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: schema)
        for var novel in novels { try novel.insert(db) }
        return db
    }

    /// A queue with both tables and the five novels.
    static func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: schema)
            for var novel in novels { try novel.insert(db) }
        }
        return queue
    }
}
