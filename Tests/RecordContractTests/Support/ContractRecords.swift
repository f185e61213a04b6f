import Foundation
import SQLiteRecord
import XCTest

/// What the records' callbacks saw, in order: `willSave Dune`, `didInsert 1`, `willDelete Dune`,
/// `didDelete true`. Tests run one at a time; the lock keeps the log whole if a callback runs elsewhere.
final class CallbackLog: @unchecked Sendable {
    static let shared = CallbackLog()
    // The lock guards `entries`.
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// The entries since the last call, which empties the log.
    func take() -> [String] { lock.withLock { defer { entries = [] }; return entries } }
}

/// A rowid record with every callback, logging each and refusing an empty title in `willSave` and the
/// title "keep" in `willDelete`.
struct Book: Record, Equatable {
    var id: Int64?
    var title: String
    var pages: Int
    var isbn: String?
    static let tableName = "books"
    static let tableDefinition = TableDefinition().unique(CodingKeys.isbn)

    struct EmptyTitle: Error, Equatable {}
    struct Kept: Error, Equatable {}

    func willSave(_ db: some DatabaseConnection) throws {
        CallbackLog.shared.append("willSave \(title)")
        if title.isEmpty { throw EmptyTitle() }
    }

    mutating func didInsert(rowID: Int64) { CallbackLog.shared.append("didInsert \(rowID)") }

    func willDelete(_ db: some DatabaseConnection) throws {
        CallbackLog.shared.append("willDelete \(title)")
        if title == "keep" { throw Kept() }
    }

    func didDelete(_ deleted: Bool) { CallbackLog.shared.append("didDelete \(deleted)") }
}

/// A key the client chooses: `save` inserts or updates by it.
struct Currency: Record, Equatable {
    var id: String
    var name: String
    var rate: Double
    static let tableName = "currencies"
}

/// A composite key: two columns, `id` computed over them.
struct Placement: Record, Equatable {
    struct Key: Codable, Hashable, Sendable {
        var shelf: Int64
        var slot: Int64
    }
    var shelf: Int64
    var slot: Int64
    var label: String
    static let tableName = "placements"
    var id: Key {
        get { Key(shelf: shelf, slot: slot) }
        set {
            shelf = newValue.shelf
            slot = newValue.slot
        }
    }
}

/// A record whose `willSave` reads through the connection it is given: a review needs its book.
struct Review: Record, Equatable {
    var id: Int64?
    var bookId: Int64
    var stars: Int
    static let tableName = "reviews"
    enum CodingKeys: String, CodingKey {
        case id, stars
        case bookId = "book_id"
    }

    struct UnknownBook: Error, Equatable { let id: Int64 }

    func willSave(_ db: some DatabaseConnection) throws {
        guard try Book.exists(db, id: bookId) else { throw UnknownBook(id: bookId) }
    }
}

/// A type whose table is chosen while the program runs: every call goes to the table named at that moment.
struct Shard: Record, Equatable {
    var id: Int64?
    var value: String
    nonisolated(unsafe) static var current = "shard_a"
    static var tableName: String { current }

    /// Creates `shard_a` and `shard_b`, inserts one record into `shard_a` and returns it, with `current` left
    /// at "shard_a".
    static func makeTables(in engine: any ContractEngine) throws -> Shard {
        for table in ["shard_a", "shard_b"] {
            current = table
            try engine.createTable(Shard.self)
        }
        current = "shard_a"
        var first = Shard(id: nil, value: "in a")
        try engine.write { db in try first.insert(db) }
        return first
    }
}

/// A child of ``Book`` that declares its parent: `save(_:children:)` sets `book_id` from the declaration.
struct Chapter: Record, Equatable {
    var id: Int64?
    var bookId: Int64?
    var title: String
    static let tableName = "chapters"
    static let book = belongsTo(Book.self, using: "book_id")
    static let parentAssociations: [any ParentAssociation] = [book]
    enum CodingKeys: String, CodingKey {
        case id, title
        case bookId = "book_id"
    }
}

/// A record whose `code` column a trigger sets (`upper(title)`) on insert and on update: what the writes
/// that read back (`insertAndFetch`, `updateAndFetch`, `upsertAndFetch`) must bring into the record.
struct Ticket: Record, Equatable {
    var id: Int64?
    var title: String
    var code: String?
    var votes: Int = 0
    static let tableName = "tickets"

    /// Creates `tickets` and its trigger, as each engine writes them.
    static func makeTable(in engine: any ContractEngine) throws {
        if engine.isSQLite {
            try engine.execute("CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE, code TEXT, votes INTEGER)")
            for event in ["INSERT", "UPDATE OF title"] {
                try engine.execute(
                    "CREATE TRIGGER \"tickets \(event)\" AFTER \(event) ON tickets BEGIN "
                        + "UPDATE tickets SET code = upper(NEW.title) WHERE id = NEW.id; END")
            }
        } else {
            try engine.execute(
                "CREATE TABLE tickets (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
                    + "title TEXT NOT NULL UNIQUE, code TEXT, votes BIGINT)")
            try engine.execute(
                "CREATE FUNCTION tickets_code() RETURNS trigger LANGUAGE plpgsql AS "
                    + "$$ BEGIN NEW.code := upper(NEW.title); RETURN NEW; END $$")
            try engine.execute(
                "CREATE TRIGGER tickets_code BEFORE INSERT OR UPDATE ON tickets FOR EACH ROW "
                    + "EXECUTE FUNCTION tickets_code()")
        }
    }
}
