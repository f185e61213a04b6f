import Dispatch
import Foundation
import XCTest

@testable import SQLiteRecord

/// Opening a queue or a pool while another connection holds a write transaction: the open waits up to the
/// busy timeout, as any statement does, and its error after the timeout gives the measured wait.
final class DatabaseOpeningLockTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    /// A rollback-journal file with `t(v)` holding one row, and a queue on it.
    private func makeHolder(_ name: String) throws -> DatabaseQueue {
        let holder = try DatabaseQueue(path: folder.path(name))
        try holder.write { db in try db.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES ('before')") }
        return holder
    }

    /// Runs `begin` then an INSERT in a transaction on `holder`, on another thread, and commits `seconds`
    /// later; returns once the transaction holds its lock. `finished` is signalled after the commit.
    private func holdWriteLock(
        on holder: DatabaseQueue, begin: String, for seconds: TimeInterval, finished: DispatchSemaphore
    ) {
        let inside = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? holder.writeWithoutTransaction { db in
                try db.execute(sql: begin)
                try db.execute(sql: "INSERT INTO t VALUES ('held')")
                inside.signal()
                Thread.sleep(forTimeInterval: seconds)
                try db.execute(sql: "COMMIT")
            }
            finished.signal()
        }
        inside.wait()
    }

    /// `message` with its measured seconds ("waited 0.31 s") replaced by "waited N s".
    private func withoutSeconds(_ message: String?) -> String? {
        message?.replacingOccurrences(
            of: #"waited [0-9]+\.[0-9]{2} s"#, with: "waited N s", options: .regularExpression)
    }

    func testAPoolOpenedWhileAnotherConnectionWritesWaitsAndOpensOnceTheLockIsReleased() throws {
        let holder = try makeHolder("pool.sqlite")
        let finished = DispatchSemaphore(value: 0)
        holdWriteLock(on: holder, begin: "BEGIN IMMEDIATE", for: 0.4, finished: finished)
        let start = Date()
        let pool = try DatabasePool(path: folder.path("pool.sqlite"), options: .init(busyTimeout: 5))
        let waited = Date().timeIntervalSince(start)
        finished.wait()
        XCTAssertGreaterThanOrEqual(waited, 0.3, "the open waited for the commit")
        XCTAssertLessThan(waited, 4)
        XCTAssertEqual(try pool.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") }, "wal")
        XCTAssertEqual(
            try pool.read { db in try db.fetchAll(String.self, sql: "SELECT v FROM t ORDER BY rowid") },
            ["before", "held"])
    }

    func testAPoolOpenedWhileALockIsHeldPastTheBusyTimeoutFailsWithTheMeasuredWait() throws {
        let holder = try makeHolder("locked.sqlite")
        let finished = DispatchSemaphore(value: 0)
        holdWriteLock(on: holder, begin: "BEGIN IMMEDIATE", for: 1.5, finished: finished)
        let path = folder.path("locked.sqlite")
        let start = Date()
        XCTAssertThrowsError(try DatabasePool(path: path, options: .init(busyTimeout: 0.3))) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.resultCode.primary, .busy)
            XCTAssertEqual(error?.sql, "PRAGMA journal_mode = wal")
            XCTAssertEqual(
                withoutSeconds(error?.message),
                "cannot open a DatabasePool at \(path): database is locked: waited N s, this connection's busy "
                    + "timeout is 0.3 s (another connection held a lock on the file that this statement needs all "
                    + "that time; raise Database.Options.busyTimeout, or keep other connections' write transactions "
                    + "short)")
        }
        let waited = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(waited, 0.3)
        XCTAssertLessThan(waited, 1.4, "the open gave up at its timeout, before the lock was released")
        finished.wait()
        // Nothing changed: the file keeps its journal mode and both rows.
        let plain = try Database(path: path)
        XCTAssertEqual(try plain.scalar(String.self, sql: "PRAGMA journal_mode"), "delete")
        XCTAssertEqual(try plain.scalar(Int.self, sql: "SELECT count(*) FROM t"), 2)
    }

    func testAQueueOpenedWhileAnExclusiveTransactionRunsWaitsForItsFirstSchemaRead() throws {
        let holder = try makeHolder("queue.sqlite")
        let finished = DispatchSemaphore(value: 0)
        // BEGIN EXCLUSIVE keeps readers out in rollback-journal mode: the open's schema read must wait.
        holdWriteLock(on: holder, begin: "BEGIN EXCLUSIVE", for: 0.4, finished: finished)
        let start = Date()
        let queue = try DatabaseQueue(path: folder.path("queue.sqlite"), options: .init(busyTimeout: 5))
        let waited = Date().timeIntervalSince(start)
        finished.wait()
        XCTAssertGreaterThanOrEqual(waited, 0.3)
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }, 2)
    }

    func testAQueueSwitchingToWALWhileAnotherConnectionWritesWaits() throws {
        let holder = try makeHolder("wal.sqlite")
        let finished = DispatchSemaphore(value: 0)
        holdWriteLock(on: holder, begin: "BEGIN IMMEDIATE", for: 0.4, finished: finished)
        let start = Date()
        let queue = try DatabaseQueue(
            path: folder.path("wal.sqlite"), options: .init(busyTimeout: 5, journalMode: .wal))
        let waited = Date().timeIntervalSince(start)
        finished.wait()
        XCTAssertGreaterThanOrEqual(waited, 0.3)
        XCTAssertEqual(try queue.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") }, "wal")
    }
}
