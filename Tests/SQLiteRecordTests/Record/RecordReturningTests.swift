import Foundation
import SQLiteRecord
import XCTest

/// Writes that read back what the database set (RETURNING): defaults, trigger results, generated columns.
final class RecordReturningTests: XCTestCase {
    struct Entry: Record, Equatable {
        var id: Int64?
        var title: String
        var createdAt: String?
        var slug: String?
        var titleLength: Int?
        static let tableName = "entry"
        enum CodingKeys: String, CodingKey {
            case id, title, slug
            case createdAt = "created_at"
            case titleLength = "title_length"
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE entry (
                        id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE,
                        created_at TEXT NOT NULL DEFAULT '2024-01-02 03:04:05',
                        slug TEXT,
                        title_length INTEGER GENERATED ALWAYS AS (length(title)) VIRTUAL);
                    CREATE TRIGGER entry_slug AFTER INSERT ON entry
                    BEGIN UPDATE entry SET slug = lower(NEW.title) WHERE id = NEW.id; END;
                    CREATE TRIGGER entry_slug_update AFTER UPDATE OF title ON entry
                    BEGIN UPDATE entry SET slug = lower(NEW.title) || '-2' WHERE id = NEW.id; END;
                    CREATE TABLE stamp (id INTEGER PRIMARY KEY, note TEXT NOT NULL, created_at TEXT DEFAULT 'now-ish');
                    """)
        }
        return queue
    }

    func testInsertAndFetchReadsDefaultsAndGeneratedColumns() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var entry = Entry(id: nil, title: "Hello", createdAt: "2000-01-01 00:00:00", slug: nil, titleLength: nil)
            try entry.insertAndFetch(db)
            XCTAssertEqual(entry.id, 1)
            XCTAssertEqual(entry.titleLength, 5)
            XCTAssertEqual(entry.createdAt, "2000-01-01 00:00:00")
            // The AFTER INSERT trigger's value: RETURNING does not see it, so the row is read again.
            XCTAssertEqual(entry.slug, "hello")
            // A nil property over a column with a DEFAULT: the insert leaves the column out, and reads the default.
            var dated = Entry(id: nil, title: "Dated", createdAt: nil, slug: nil, titleLength: nil)
            try dated.insertAndFetch(db)
            XCTAssertEqual(
                dated, Entry(id: 2, title: "Dated", createdAt: "2024-01-02 03:04:05", slug: "dated", titleLength: 5))
        }
    }

    struct Stamp: Record, Equatable {
        var id: Int64?
        var note: String
        static let tableName = "stamp"
    }

    struct StampRead: Record, Equatable {
        var id: Int64?
        var note: String
        var createdAt: String?
        static let tableName = "stamp"
        enum CodingKeys: String, CodingKey {
            case id, note
            case createdAt = "created_at"
        }
    }

    func testNamedColumnsOnlyAreReadBackAndUnknownOnesThrowFirst() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var entry = Entry(id: nil, title: "Hello", createdAt: "x", slug: "kept", titleLength: 42)
            try entry.insertAndFetch(db, columns: ["title_length"])
            XCTAssertEqual(entry, Entry(id: 1, title: "Hello", createdAt: "x", slug: "kept", titleLength: 5))
            var other = Entry(id: nil, title: "Other", createdAt: nil, slug: nil, titleLength: nil)
            XCTAssertThrowsError(try other.insertAndFetch(db, columns: ["nope"])) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .unknownColumn(
                        table: "entry", column: "nope", columns: ["id", "title", "created_at", "slug", "title_length"]))
            }
            XCTAssertNil(other.id)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM entry"), 1)
        }
    }

    func testUpdateAndFetchReadsWhatATriggerWrote() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var entry = Entry(id: nil, title: "Hello", createdAt: "x", slug: nil, titleLength: nil)
            try entry.insert(db)
            entry.title = "World"
            try entry.updateAndFetch(db)
            XCTAssertEqual(entry.titleLength, 5)
            XCTAssertEqual(entry.createdAt, "x")
            XCTAssertEqual(entry.slug, "world-2")
            var missing = Entry(id: 99, title: "Gone", createdAt: nil, slug: nil, titleLength: nil)
            XCTAssertThrowsError(try missing.updateAndFetch(db)) { error in
                XCTAssertEqual(error as? RecordError, .recordNotFound(table: "entry", id: "99"))
            }
        }
    }

    func testUpsertAndFetchReadsTheRowWhateverTheOutcome() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO stamp (id, note) VALUES (1, 'a')")
            var read = StampRead(id: nil, note: "a", createdAt: nil)
            // A nil created_at is left to its DEFAULT; on conflict only `note` is updated.
            XCTAssertEqual(try read.upsertAndFetch(db, onConflict: ["id"], updating: ["note"]), .inserted)
            XCTAssertEqual(read, StampRead(id: 2, note: "a", createdAt: "now-ish"))
            var first = Stamp(id: 1, note: "a")
            var stamped = StampRead(id: 1, note: "a", createdAt: nil)
            XCTAssertEqual(try stamped.upsertAndFetch(db, updating: ["note"]), .unchanged)
            XCTAssertEqual(stamped.createdAt, "now-ish")
            stamped.note = "b"
            stamped.createdAt = nil
            XCTAssertEqual(try stamped.upsertAndFetch(db, updating: ["note"], columns: ["created_at"]), .updated)
            XCTAssertEqual(stamped, StampRead(id: 1, note: "b", createdAt: "now-ish"))
            XCTAssertEqual(try first.upsert(db), .updated)
        }
    }

    func testTheDefaultStoreAndAsyncForms() async throws {
        let queue = try makeQueue()
        try RecordStore.use(queue)
        var entry = Entry(id: nil, title: "Hello", createdAt: "x", slug: nil, titleLength: nil)
        try await entry.insertAndFetch(columns: ["title_length"])
        XCTAssertEqual(entry.titleLength, 5)
        entry.title = "Hi"
        try await entry.updateAndFetch(columns: ["title_length"])
        XCTAssertEqual(entry.titleLength, 2)
        entry.title = "Hey you"
        let outcome = try await entry.upsertAndFetch(columns: ["title_length"])
        XCTAssertEqual(outcome, .updated)
        XCTAssertEqual(entry.titleLength, 7)
    }
}
