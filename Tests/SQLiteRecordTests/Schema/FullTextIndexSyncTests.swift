import SQLiteRecord
import XCTest

private struct Memo: Record, FullTextSearchable, Equatable {
    var id: Int64?
    var slug: String
    var authorId: Int64
    var title: String
    static let tableName = "memos"
    static let fullTextIndex = FullTextIndex(columns: ["title"])
    enum CodingKeys: String, CodingKey {
        case id, slug, title
        case authorId = "author_id"
    }
}

/// A full-text index in step with writes the library did not make: INSERT OR REPLACE, REPLACE, UPDATE OR
/// REPLACE, raw upserts, and deletes through foreign-key cascades. After each, searching finds exactly the
/// current rows and FTS5's integrity-check passes.
final class FullTextIndexSyncTests: XCTestCase {
    private func makeQueue(_ options: Database.Options = Database.Options()) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: ":memory:", options: options)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE authors (id INTEGER PRIMARY KEY);
                    CREATE TABLE memos (
                        id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE,
                        author_id INTEGER NOT NULL REFERENCES authors(id) ON DELETE CASCADE, title TEXT NOT NULL);
                    INSERT INTO authors VALUES (1), (2);
                    INSERT INTO memos VALUES (1, 'a', 1, 'alpha apple'), (2, 'b', 1, 'bravo banana'),
                        (3, 'c', 2, 'charlie cherry');
                    """)
            try Memo.createFullTextIndex(in: db)
        }
        return queue
    }

    /// The ids whose title has `word`: through the index, then through the table itself.
    private func found(_ queue: DatabaseQueue, _ word: String) throws -> (index: [Int64?], table: [Int64]) {
        try queue.read { db in
            let index = try Memo.matching(FTS5Pattern(matchingAllTokensIn: word)).order(Column("id")).fetch(db)
                .map(\.id)
            let table = try db.fetchAll(
                Int64.self, sql: "SELECT id FROM memos WHERE ' ' || title || ' ' LIKE ? ORDER BY id",
                arguments: ["% \(word) %"])
            return (index, table)
        }
    }

    /// Asserts that each word finds `expected` through the index and the table, and that the index passes
    /// FTS5's integrity-check.
    private func assertInStep(
        _ queue: DatabaseQueue, _ expected: [String: [Int64]], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for (word, ids) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try found(queue, word)
            XCTAssertEqual(result.table, ids, "table, \(word)", file: file, line: line)
            XCTAssertEqual(result.index, ids, "index, \(word)", file: file, line: line)
        }
        XCTAssertNoThrow(try queue.write { db in try Memo.checkFullTextIndex(db) }, file: file, line: line)
    }

    func testInsertOrReplaceOfTheSameRowIDReplacesItsWords() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO memos VALUES (1, 'a', 1, 'delta date')")
        }
        try assertInStep(queue, ["alpha": [], "apple": [], "delta": [1], "bravo": [2]])
    }

    func testReplaceOnAUniqueColumnDropsTheReplacedRowsWords() throws {
        let queue = try makeQueue()
        try queue.write { db in
            // Slug 'b' belongs to row 2: REPLACE deletes row 2 and inserts row 9.
            try db.execute(sql: "REPLACE INTO memos (id, slug, author_id, title) VALUES (9, 'b', 2, 'echo elder')")
            try db.execute(sql: "UPDATE OR REPLACE memos SET slug = 'c', title = 'foxtrot fig' WHERE id = 1")
        }
        XCTAssertEqual(
            try queue.read { db in try db.fetchAll(Int64.self, sql: "SELECT id FROM memos ORDER BY id") }, [1, 9])
        try assertInStep(
            queue, ["bravo": [], "charlie": [], "alpha": [], "echo": [9], "foxtrot": [1], "fig": [1]])
    }

    func testARawUpsertAndACascadeDeleteKeepTheIndexInStep() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO memos (slug, author_id, title) VALUES ('a', 1, 'golf grape'), ('z', 2, 'hotel')
                    ON CONFLICT(slug) DO UPDATE SET title = excluded.title
                    """)
            try db.execute(sql: "DELETE FROM authors WHERE id = 1")  // cascades to memos 1 and 2
        }
        XCTAssertEqual(
            try queue.read { db in try db.fetchAll(String.self, sql: "SELECT slug FROM memos ORDER BY id") },
            ["c", "z"])
        try assertInStep(queue, ["alpha": [], "golf": [], "bravo": [], "charlie": [3], "hotel": [4]])
    }

    func testWithoutRecursiveTriggersAReplaceLeavesTheIndexOutOfStep() throws {
        // SQLite's default: REPLACE fires no delete trigger (https://www.sqlite.org/lang_conflict.html).
        let queue = try makeQueue(Database.Options(recursiveTriggers: false))
        try queue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO memos VALUES (1, 'a', 1, 'delta date')")
        }
        XCTAssertThrowsError(try queue.write { db in try Memo.checkFullTextIndex(db) }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode.rawValue, 267)  // SQLITE_CORRUPT_VTAB
        }
        try queue.write { db in try Memo.rebuildFullTextIndex(db) }
        try assertInStep(queue, ["alpha": [], "delta": [1]])
    }
}
