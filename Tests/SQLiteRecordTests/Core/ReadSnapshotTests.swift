import CSQLiteRecord
import Foundation
import SQLiteRecord
import XCTest

/// A read refuses every statement that may write, before it runs, without changing a setting of the
/// connection: a queue that alternates reads and writes keeps its prepared statements, and a write inside a
/// read, whichever way it is run, changes no stored row.
final class ReadSnapshotTests: XCTestCase {
    private static let insertSQL = "INSERT INTO job (name) VALUES (?)"

    private func makeQueue(path: String = ":memory:") throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE job (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
        return queue
    }

    private func jobNames(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM job ORDER BY id") }
    }

    func testReadsBetweenWritesPrepareNoStatementAgain() throws {
        let queue = try makeQueue()
        for index in 0..<10 {
            try queue.write { db in try db.execute(sql: Self.insertSQL, arguments: ["\(index)"]) }
            let count = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM job") }
            XCTAssertEqual(count, index + 1)
        }
        XCTAssertEqual(try queue.read { db in db.reprepares }, 0)
        XCTAssertEqual(try jobNames(queue).count, 10)
    }

    func testAWriteStatementCachedByAWriteIsRefusedInsideARead() throws {
        let queue = try makeQueue()
        try queue.write { db in try db.execute(sql: Self.insertSQL, arguments: ["kept"]) }
        XCTAssertThrowsError(
            try queue.read { db in try db.execute(sql: Self.insertSQL, arguments: ["sneaky"]) }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "a read cannot write: DatabaseQueue.read and DatabasePool.read run their body in one read-only "
                    + "snapshot; run this statement inside write instead")
            XCTAssertEqual((error as? DatabaseError)?.sql, Self.insertSQL)
        }
        // The same cached statement writes again in the next write.
        try queue.write { db in try db.execute(sql: Self.insertSQL, arguments: ["after"]) }
        XCTAssertEqual(try jobNames(queue), ["kept", "after"])
    }

    func testAWriteStatementKeptByTheCallerIsRefusedInsideARead() throws {
        let queue = try makeQueue()
        let statement = try queue.write { db -> Statement in
            let statement = try db.makeStatement(sql: Self.insertSQL)
            try statement.bind(["kept"])
            try statement.step()
            statement.reset()
            return statement
        }
        XCTAssertThrowsError(try queue.read { _ in try statement.step() }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
        }
        XCTAssertEqual(try jobNames(queue), ["kept"])
    }

    func testABodyThatCommitsItsReadAndOpensATransactionCommitsNothing() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.read { db in
                try db.execute(sql: "COMMIT")
                try db.transaction(.immediate) { try db.execute(sql: Self.insertSQL, arguments: ["sneaky"]) }
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly, "\(error)")
            XCTAssertEqual((error as? DatabaseError)?.sql, "BEGIN IMMEDIATE TRANSACTION")
        }
        XCTAssertThrowsError(
            try queue.read { db in
                try db.execute(sql: "COMMIT")
                try db.transaction(.deferred) { try db.execute(sql: Self.insertSQL, arguments: ["sneaky"]) }
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly, "\(error)")
            XCTAssertEqual((error as? DatabaseError)?.sql, Self.insertSQL)
        }
        XCTAssertEqual(try jobNames(queue), [])
        try queue.write { db in try db.execute(sql: Self.insertSQL, arguments: ["fine"]) }
        XCTAssertEqual(try jobNames(queue), ["fine"])
    }

    func testWritesThroughTheRawConnectionInsideAReadAreRolledBack() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.read { db in
                let code = sqlite3_exec(db.sqliteConnection, "INSERT INTO job (name) VALUES ('raw')", nil, nil, nil)
                XCTAssertEqual(code, SQLITE_OK)
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
            XCTAssertTrue("\(error)".contains("its changes were rolled back; write inside write"), "\(error)")
        }
        // Ending the read's transaction first: the commit hook turns the INSERT's own commit into a rollback.
        try queue.read { db in
            let code = sqlite3_exec(
                db.sqliteConnection, "COMMIT; INSERT INTO job (name) VALUES ('raw')", nil, nil, nil)
            // SQLITE_CONSTRAINT_COMMITHOOK, a macro Swift does not import.
            XCTAssertEqual(code, SQLITE_CONSTRAINT | (2 << 8))
        }
        XCTAssertEqual(try jobNames(queue), [])
    }

    func testAReadMayAskTheJournalModeAndCheckpoint() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("read-snapshot-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let queue = try makeQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.write { db in try db.execute(sql: Self.insertSQL, arguments: ["one"]) }
        let mode = try queue.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
        let busy = try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA wal_checkpoint") }
        XCTAssertEqual(busy, 0)
        XCTAssertThrowsError(try queue.read { db in try db.execute(sql: "PRAGMA user_version = 3") }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
        }
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA user_version") }, 0)
        XCTAssertEqual(try jobNames(queue), ["one"])
    }
}
