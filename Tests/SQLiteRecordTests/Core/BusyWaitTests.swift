import Dispatch
import Foundation
import XCTest

@testable import SQLiteRecord

/// The library's busy handler: a statement that meets another connection's lock waits up to the busy
/// timeout, and its `SQLITE_BUSY` error says how long it waited, or that SQLite did not wait (the lock states
/// where SQLite does not call the handler), each message true of what happened.
final class BusyWaitTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    /// A database file with an empty table `t(v)` in `mode`.
    private func makeFile(_ name: String, mode: Database.JournalMode = .delete) throws -> String {
        let path = folder.path(name)
        let db = try Database(path: path, options: .init(journalMode: mode))
        try db.execute(sql: "CREATE TABLE t(v)")
        return path
    }

    /// `message` split into its text with the measured seconds replaced by `N`, and those seconds.
    private func measured(_ message: String?) throws -> (text: String, seconds: Double) {
        let message = try XCTUnwrap(message)
        let pattern = try NSRegularExpression(pattern: #"(waited|after) ([0-9]+\.[0-9]{2}) s"#)
        let range = NSRange(message.startIndex..., in: message)
        let match = try XCTUnwrap(pattern.firstMatch(in: message, range: range), message)
        let seconds = try XCTUnwrap(Range(match.range(at: 2), in: message).flatMap { Double(message[$0]) })
        let text = pattern.stringByReplacingMatches(in: message, range: range, withTemplate: "$1 N s")
        return (text, seconds)
    }

    private static let timedOutAdvice =
        " (another connection held a lock on the file that this statement needs all that time; raise "
        + "Database.Options.busyTimeout, or keep other connections' write transactions short)"

    func testAWriteThatWaitsOutTheBusyTimeoutSaysHowLongItWaited() throws {
        for mode in [Database.JournalMode.delete, .wal] {
            let path = try makeFile("timeout-\(mode).sqlite", mode: mode)
            let holder = try Database(path: path)
            let waiter = try Database(path: path, options: .init(busyTimeout: 0.3))
            try holder.execute(sql: "BEGIN IMMEDIATE")
            let start = Date()
            XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(mode): \(error)") }
                XCTAssertEqual(error.resultCode, .busy, "\(mode)")
                XCTAssertEqual(error.sql, "INSERT INTO t VALUES (1)")
                guard let (text, seconds) = try? measured(error.message) else { return XCTFail(error.message) }
                XCTAssertEqual(
                    text,
                    "database is locked: waited N s, this connection's busy timeout is 0.3 s" + Self.timedOutAdvice,
                    "\(mode)")
                XCTAssertGreaterThanOrEqual(seconds, 0.3, "\(mode): the wait is at least the timeout")
                XCTAssertLessThan(seconds, 0.6, "\(mode)")
            }
            let waited = Date().timeIntervalSince(start)
            XCTAssertGreaterThanOrEqual(waited, 0.3, "\(mode)")
            XCTAssertLessThan(waited, 1.5, "\(mode)")
            try holder.execute(sql: "ROLLBACK")
            // The lock is free: the same statement runs, and the row is there.
            try waiter.execute(sql: "INSERT INTO t VALUES (1)")
            XCTAssertEqual(try holder.scalar(Int.self, sql: "SELECT count(*) FROM t"), 1, "\(mode)")
        }
    }

    func testAWholeSecondsTimeoutIsWrittenAsWholeSeconds() throws {
        let path = try makeFile("seconds.sqlite")
        let holder = try Database(path: path)
        let waiter = try Database(path: path, options: .init(busyTimeout: 1))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
            guard let (text, seconds) = try? measured((error as? DatabaseError)?.message) else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(
                text, "database is locked: waited N s, this connection's busy timeout is 1 s" + Self.timedOutAdvice)
            XCTAssertGreaterThanOrEqual(seconds, 1)
            XCTAssertLessThan(seconds, 1.3)
        }
        try holder.execute(sql: "ROLLBACK")
    }

    func testAZeroTimeoutWaitsNotAtAllAndSaysSo() throws {
        let path = try makeFile("zero.sqlite")
        let holder = try Database(path: path)
        let waiter = try Database(path: path, options: .init(busyTimeout: 0))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "database is locked: waited 0.00 s, this connection's busy timeout is 0 s" + Self.timedOutAdvice)
        }
        try holder.execute(sql: "ROLLBACK")
    }

    func testAWriteWaitsForALockReleasedInsideTheTimeoutAndCommits() throws {
        let path = try makeFile("released.sqlite")
        let holder = try DatabaseQueue(path: path)
        let waiter = try DatabaseQueue(path: path, options: .init(busyTimeout: 5))
        let inside = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? holder.write { db in
                try db.execute(sql: "INSERT INTO t VALUES ('holder')")
                inside.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
            finished.signal()
        }
        inside.wait()
        let start = Date()
        try waiter.write { db in try db.execute(sql: "INSERT INTO t VALUES ('waiter')") }
        let waited = Date().timeIntervalSince(start)
        finished.wait()
        XCTAssertGreaterThanOrEqual(waited, 0.2, "the write waited for the other commit")
        XCTAssertLessThan(waited, 3)
        XCTAssertEqual(
            try waiter.read { db in try db.fetchAll(String.self, sql: "SELECT v FROM t ORDER BY rowid") },
            ["holder", "waiter"])
    }

    func testATransactionThatHasReadAndAsksToWriteFailsAtOnceAndSaysSo() throws {
        for mode in [Database.JournalMode.delete, .wal] {
            let path = try makeFile("upgrade-\(mode).sqlite", mode: mode)
            let holder = try Database(path: path)
            let waiter = try Database(path: path, options: .init(busyTimeout: 5))
            try waiter.execute(sql: "BEGIN DEFERRED")
            XCTAssertEqual(try waiter.scalar(Int.self, sql: "SELECT count(*) FROM t"), 0)
            try holder.execute(sql: "BEGIN IMMEDIATE")
            try holder.execute(sql: "INSERT INTO t VALUES ('holder')")
            let start = Date()
            XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES ('waiter')")) { error in
                let error = error as? DatabaseError
                XCTAssertEqual(error?.resultCode, .busy, "\(mode)")
                XCTAssertEqual(
                    error?.message,
                    "database is locked: did not wait: SQLite does not call the busy handler for this lock state "
                        + "(this connection's transaction has read and now asks to write while another connection "
                        + "holds the write lock: waiting could deadlock; begin transactions that write IMMEDIATE "
                        + "(Database.transaction(.immediate), as DatabaseQueue.write does); see "
                        + "https://www.sqlite.org/c3ref/busy_handler.html)", "\(mode)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 1, "\(mode): SQLite did not wait the 5 s timeout")
            try waiter.execute(sql: "ROLLBACK")
            try holder.execute(sql: "COMMIT")
            XCTAssertEqual(
                try holder.fetchAll(String.self, sql: "SELECT v FROM t"), ["holder"], "\(mode): only the holder's row")
        }
    }

    func testAWALTransactionWhoseSnapshotAnotherCommitReplacedSaysItCannotWrite() throws {
        let path = try makeFile("snapshot.sqlite", mode: .wal)
        let holder = try Database(path: path)
        let waiter = try Database(path: path, options: .init(busyTimeout: 5))
        try waiter.execute(sql: "BEGIN DEFERRED")
        XCTAssertEqual(try waiter.scalar(Int.self, sql: "SELECT count(*) FROM t"), 0)
        try holder.execute(sql: "INSERT INTO t VALUES ('committed')")
        let start = Date()
        XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES ('waiter')")) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.resultCode, ResultCode(rawValue: 517), "SQLITE_BUSY_SNAPSHOT")
            XCTAssertEqual(error?.resultCode.primary, .busy)
            XCTAssertEqual(
                error?.message,
                "database is locked: did not wait: SQLite does not call the busy handler for this lock state (this "
                    + "transaction read a snapshot of the write-ahead log that another connection's commit has since "
                    + "replaced, and now asks to write: no wait can help it; roll it back and run it again, beginning "
                    + "it IMMEDIATE; see https://www.sqlite.org/c3ref/busy_handler.html)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        try waiter.execute(sql: "ROLLBACK")
        XCTAssertEqual(try holder.fetchAll(String.self, sql: "SELECT v FROM t"), ["committed"])
    }

    func testAJournalModeChangeWhileAnotherConnectionWritesFailsAtOnceAndSaysSo() throws {
        let path = try makeFile("journal.sqlite")
        let holder = try Database(path: path)
        let waiter = try Database(path: path, options: .init(busyTimeout: 5))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let start = Date()
        XCTAssertThrowsError(try waiter.execute(sql: "PRAGMA journal_mode = wal")) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "database is locked: did not wait: SQLite does not call the busy handler for this lock state (a lock "
                    + "asked for while another is held, as PRAGMA journal_mode = wal does, where waiting could "
                    + "deadlock; run the statement again once the other connection's write transaction ends; see "
                    + "https://www.sqlite.org/c3ref/busy_handler.html)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        try holder.execute(sql: "ROLLBACK")
        XCTAssertEqual(try waiter.scalar(String.self, sql: "PRAGMA journal_mode = wal"), "wal")
    }

    func testAWaitThatEndedWithoutAnErrorLeavesNothingForTheNextError() throws {
        // A wait that times out is taken by its error; the next SQLITE_BUSY, where SQLite does not wait,
        // must not report it.
        let path = try makeFile("stale.sqlite")
        let holder = try Database(path: path)
        let waiter = try Database(path: path, options: .init(busyTimeout: 0.1))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
            XCTAssertEqual(
                (try? measured((error as? DatabaseError)?.message))?.text.hasPrefix(
                    "database is locked: waited N s"), true, "\(error)")
        }
        XCTAssertThrowsError(try waiter.execute(sql: "PRAGMA journal_mode = wal")) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message.hasPrefix("database is locked: did not wait: "), true, "\(error)")
        }
        try holder.execute(sql: "ROLLBACK")
    }

    func testPragmaBusyTimeoutReplacesTheHandlerAndTheErrorSaysTheWaitWasNotMeasured() throws {
        let path = try makeFile("pragma.sqlite")
        let holder = try Database(path: path)
        let waiter = try Database(path: path, options: .init(busyTimeout: 5))
        // The library's handler is installed with sqlite3_busy_handler, which SQLite's setting does not count.
        XCTAssertEqual(try waiter.scalar(Int.self, sql: "PRAGMA busy_timeout"), 0)
        try waiter.execute(sql: "PRAGMA busy_timeout = 100")
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let start = Date()
        XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "database is locked (the wait was not measured: a PRAGMA busy_timeout statement replaced the "
                    + "library's busy handler with SQLite's own; set Database.Options.busyTimeout instead)")
        }
        let waited = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(waited, 0.08, "SQLite's own handler waited its 100 ms")
        XCTAssertLessThan(waited, 2)
        try holder.execute(sql: "ROLLBACK")
    }

    func testAnotherProcessHoldingTheWriteLockIsWaitedForAndMeasured() throws {
        // SQLite's command-line shell holds the lock from another process; skipped where it is not installed.
        let shell = URL(fileURLWithPath: "/usr/bin/sqlite3")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: shell.path), "needs SQLite's shell at /usr/bin/sqlite3")
        let path = try makeFile("process.sqlite")
        let process = Process()
        process.executableURL = shell
        process.arguments = [path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writing = input.fileHandleForWriting
        @Sendable func send(_ line: String) { writing.write(Data((line + "\n").utf8)) }
        send("BEGIN IMMEDIATE; INSERT INTO t VALUES ('other process'); SELECT 'locked';")
        // The shell answers once it holds the lock.
        var answer = Data()
        while !(String(decoding: answer, as: UTF8.self).contains("locked")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            answer += chunk
        }
        XCTAssertEqual(String(decoding: answer, as: UTF8.self), "locked\n")
        let waiter = try DatabaseQueue(path: path, options: .init(busyTimeout: 0.4))
        do {
            try waiter.write { db in try db.execute(sql: "INSERT INTO t VALUES ('waiter')") }
            XCTFail("the write went through another process's lock")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.sql, "BEGIN IMMEDIATE TRANSACTION")
            let (text, seconds) = try measured(error.message)
            XCTAssertEqual(
                text, "database is locked: waited N s, this connection's busy timeout is 0.4 s" + Self.timedOutAdvice)
            XCTAssertGreaterThanOrEqual(seconds, 0.4)
            XCTAssertLessThan(seconds, 0.7)
        }
        // Released while the next write waits: it gets the lock inside its timeout and commits.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            send("COMMIT;")
            try? writing.close()
        }
        let patient = try DatabaseQueue(path: path, options: .init(busyTimeout: 5))
        try patient.write { db in try db.execute(sql: "INSERT INTO t VALUES ('waiter')") }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(
            try patient.read { db in try db.fetchAll(String.self, sql: "SELECT v FROM t ORDER BY rowid") },
            ["other process", "waiter"])
    }
}
