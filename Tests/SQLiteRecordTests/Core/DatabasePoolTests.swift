import Dispatch
import Foundation
import XCTest

@testable import SQLiteRecord

/// DatabasePool: WAL, lazy readers, reads beside the write in snapshots of their own, refusals, close,
/// read-only files, concurrent reads after a write, checkpoints.
final class DatabasePoolTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    /// A pool on a fresh file with `t(id INTEGER PRIMARY KEY, value INTEGER)`.
    private func makePool(readers: Int = 5, busyTimeout: TimeInterval = 5) throws -> DatabasePool {
        let pool = try DatabasePool(
            path: folder.path("pool.sqlite"),
            options: .init(busyTimeout: busyTimeout, maximumReaderCount: readers))
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER)") }
        return pool
    }

    private func count(_ pool: DatabasePool) throws -> Int {
        try pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? -1 }
    }

    func testOpeningPutsTheFileInWALModeAndOpensReadersOnlyWhenReadsNeedThem() throws {
        let pool = try makePool()
        XCTAssertEqual(pool.readers.openedCount, 0)
        XCTAssertEqual(try pool.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") }, "wal")
        XCTAssertEqual(pool.readers.openedCount, 1)
        _ = try count(pool)
        XCTAssertEqual(pool.readers.openedCount, 1, "an idle reader is reused")
        XCTAssertFalse(pool.isReadOnly)
        XCTAssertEqual(pool.path, folder.path("pool.sqlite"))
        XCTAssertTrue(try pool.read { db in db.isReadOnly }, "readers are opened read-only")
        // The file keeps WAL mode: a plain connection sees it.
        XCTAssertEqual(
            try Database(path: pool.path).scalar(String.self, sql: "PRAGMA journal_mode"), "wal")
    }

    func testWriteCommitsRollsBackAndNestsAsSavepoints() throws {
        let pool = try makePool()
        try pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (1)") }
        XCTAssertThrowsError(
            try pool.write { db in
                try db.execute(sql: "INSERT INTO t (value) VALUES (2)")
                throw CocoaError(.featureUnsupported)
            })
        try pool.write { db in
            try db.execute(sql: "INSERT INTO t (value) VALUES (3)")
            try? db.transaction {
                try db.execute(sql: "INSERT INTO t (value) VALUES (4)")
                throw CocoaError(.featureUnsupported)
            }
        }
        XCTAssertEqual(
            try pool.read { db in try db.fetchAll(Int.self, sql: "SELECT value FROM t ORDER BY id") }, [1, 3])
        XCTAssertEqual(
            try pool.writeWithoutTransaction { db in db.isInsideTransaction ? "inside" : "outside" }, "outside")
    }

    func testAReadRunsWhileAWriteIsOpenAndSeesOnlyCommittedData() throws {
        let pool = try makePool()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? pool.write { db in
                try db.execute(sql: "INSERT INTO t (value) VALUES (1)")
                inside.signal()
                release.wait()
            }
            finished.signal()
        }
        XCTAssertEqual(inside.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try count(pool), 0, "the read ran beside the write and did not see its row")
        release.signal()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try count(pool), 1)
    }

    func testAReadsSnapshotHoldsForTheWholeClosure() throws {
        let pool = try makePool()
        let counts = try pool.read { db -> [Int] in
            let before = try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? -1
            let written = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (1)") }
                written.signal()
            }
            XCTAssertEqual(written.wait(timeout: .now() + 10), .success, "the write waited for the read")
            return [before, try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? -1]
        }
        XCTAssertEqual(counts, [0, 0])
        XCTAssertEqual(try count(pool), 1)
    }

    func testReadsRunAtTheSameTimeUpToTheReaderCountAndLaterOnesWait() throws {
        let pool = try makePool(readers: 2)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                _ = try? pool.read { _ in
                    entered.signal()
                    release.wait()
                }
            }
        }
        // Both reads are inside their closures at once: only possible side by side.
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        let third = SharedCounter()
        DispatchQueue.global().async(group: group) {
            _ = try? pool.read { _ in third.increment() }
        }
        usleep(100_000)
        XCTAssertEqual(third.value, 0, "a third read ran while both readers were lent")
        release.signal()
        release.signal()
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(third.value, 1)
        XCTAssertEqual(pool.readers.openedCount, 2)
    }

    func testAReadCannotWrite() throws {
        let pool = try makePool()
        XCTAssertThrowsError(try pool.read { db in try db.execute(sql: "INSERT INTO t (value) VALUES (1)") }) {
            error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode.primary, .readOnly)
            XCTAssertTrue("\(error)".contains("a read cannot write"), "\(error)")
        }
        XCTAssertEqual(try count(pool), 0)
    }

    func testCallsFromInsideAReadOrWriteOfThePoolThrowInsteadOfWaitingForThemselves() throws {
        let pool = try makePool(readers: 1)
        func assertMisuse(_ body: () throws -> Void, _ call: String, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse, line: line)
                XCTAssertTrue(
                    "\(error)".contains("DatabasePool.\(call) was called from inside"), "\(error)", line: line)
            }
        }
        try pool.read { _ in
            assertMisuse({ _ = try pool.read { _ in 1 } }, "read")
            assertMisuse({ _ = try pool.write { _ in 1 } }, "write")
            assertMisuse({ try pool.close() }, "close")
        }
        try pool.write { _ in
            assertMisuse({ _ = try pool.read { _ in 1 } }, "read")
            assertMisuse({ _ = try pool.write { _ in 1 } }, "write")
            assertMisuse({ _ = try pool.writeWithoutTransaction { _ in 1 } }, "writeWithoutTransaction")
        }
        XCTAssertEqual(try count(pool), 0, "the pool still works")
    }

    func testInMemoryDatabasesOtherJournalModesAndNoReadersAreRefused() {
        for path in [":memory:", ""] {
            XCTAssertThrowsError(try DatabasePool(path: path)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .cannotOpen)
                XCTAssertTrue("\(error)".contains("a DatabasePool needs a database file"), "\(error)")
                XCTAssertTrue("\(error)".contains("use a DatabaseQueue"), "\(error)")
            }
        }
        XCTAssertThrowsError(try DatabasePool(path: folder.path("d.sqlite"), options: .init(journalMode: .delete))) {
            XCTAssertEqual(($0 as? DatabaseError)?.resultCode, .misuse)
        }
        XCTAssertThrowsError(try DatabasePool(path: folder.path("d.sqlite"), options: .init(maximumReaderCount: 0))) {
            XCTAssertEqual(($0 as? DatabaseError)?.resultCode, .misuse)
        }
    }

    func testAReadOnlyPoolReadsAndSaysItCannotWrite() throws {
        do {
            let pool = try makePool()
            try pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (7)") }
            try pool.close()
        }
        // Closed cleanly: the WAL was checkpointed into the file and removed.
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("pool.sqlite") + "-wal"))
        let pool = try DatabasePool(path: folder.path("pool.sqlite"), options: .init(readOnly: true))
        XCTAssertTrue(pool.isReadOnly)
        XCTAssertEqual(try pool.read { db in try db.fetchAll(Int.self, sql: "SELECT value FROM t") }, [7])
        for call in ["write", "writeWithoutTransaction", "checkpoint"] {
            XCTAssertThrowsError(
                try {
                    switch call {
                    case "write": try pool.write { db in try db.execute(sql: "DELETE FROM t") }
                    case "writeWithoutTransaction":
                        try pool.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM t") }
                    default: _ = try pool.checkpoint()
                    }
                }()
            ) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly, call)
                XCTAssertTrue("\(error)".contains("the pool on \(pool.path) is read-only"), "\(error)")
                XCTAssertTrue("\(error)".contains("opened with Options.readOnly"), "\(error)")
            }
        }
        XCTAssertThrowsError(try DatabasePool(path: folder.path("missing.sqlite"), options: .init(readOnly: true))) {
            XCTAssertEqual(($0 as? DatabaseError)?.resultCode.primary, .cannotOpen)
        }
    }

    func testCloseWaitsForTheReadInProgressAndRefusesLaterCalls() throws {
        let pool = try makePool()
        let inside = DispatchSemaphore(value: 0)
        let readDone = SharedCounter()
        DispatchQueue.global().async {
            _ = try? pool.read { _ in
                inside.signal()
                usleep(200_000)
                readDone.increment()
            }
        }
        XCTAssertEqual(inside.wait(timeout: .now() + 10), .success)
        try pool.close()
        XCTAssertEqual(readDone.value, 1, "close returned before the read ended")
        XCTAssertEqual(pool.readers.openedCount, 0)
        XCTAssertThrowsError(try count(pool)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            XCTAssertTrue("\(error)".contains("the DatabasePool on \(pool.path) is closed"), "\(error)")
        }
        XCTAssertThrowsError(try pool.write { _ in }) { XCTAssertEqual(($0 as? DatabaseError)?.resultCode, .misuse) }
        XCTAssertNoThrow(try pool.close(), "closing again does nothing")
        XCTAssertFalse(FileManager.default.fileExists(atPath: pool.path + "-wal"))
    }

    func testAConcurrentReadSeesTheStateTheWriteLeftAndNotTheWritesAfterIt() throws {
        let pool = try makePool()
        let later = DispatchSemaphore(value: 0)
        let future = try pool.writeWithoutTransaction { db -> DatabaseFuture<Int> in
            try db.transaction(.immediate) { try db.execute(sql: "INSERT INTO t (value) VALUES (1)") }
            let future = try pool.concurrentRead { db in
                // Runs only after the writer has written again: its snapshot must not see that.
                later.wait()
                return try db.scalar(Int.self, sql: "SELECT count(*) FROM t") ?? -1
            }
            try db.execute(sql: "INSERT INTO t (value) VALUES (2)")
            return future
        }
        try pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (3)") }
        later.signal()
        XCTAssertEqual(try future.wait(), 1)
        XCTAssertEqual(try future.wait(), 1, "a future can be waited for twice")
        XCTAssertEqual(try count(pool), 3)
    }

    func testAConcurrentReadOutsideAWriteWithoutTransactionIsRefused() throws {
        let pool = try makePool()
        let message = "concurrentRead must be called from inside writeWithoutTransaction"
        XCTAssertThrowsError(try pool.concurrentRead { _ in 1 }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            XCTAssertTrue("\(error)".contains(message), "\(error)")
        }
        try pool.write { _ in
            XCTAssertThrowsError(try pool.concurrentRead { _ in 1 }) { error in
                XCTAssertTrue("\(error)".contains(message), "inside a transaction: \(error)")
            }
        }
    }

    func testAConcurrentReadsErrorComesOutOfTheFuture() throws {
        let pool = try makePool()
        let future = try pool.writeWithoutTransaction { _ in
            try pool.concurrentRead { db in try db.execute(sql: "DELETE FROM t") }
        }
        XCTAssertThrowsError(try future.wait()) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode.primary, .readOnly)
        }
        XCTAssertEqual(try count(pool), 0, "the reader went back to the pool and reads again")
    }

    func testCheckpointsCopyTheLogAndALongReadKeepsThemFromFinishing() throws {
        let pool = try makePool(busyTimeout: 0.2)
        try pool.write { db in
            for value in 0..<200 { try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [value]) }
        }
        let passive = try pool.checkpoint()
        XCTAssertGreaterThan(passive.walFrameCount, 0)
        XCTAssertTrue(passive.isComplete)
        XCTAssertEqual(
            try pool.checkpoint(.truncate), Database.CheckpointResult(walFrameCount: 0, checkpointedFrameCount: 0))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: pool.path + "-wal")[.size] as? Int, 0)

        // A read holds its snapshot while the writer goes on: the log cannot be checkpointed past it.
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.read { db in
                _ = try db.scalar(Int.self, sql: "SELECT count(*) FROM t")
                inside.signal()
                release.wait()
            }
            done.signal()
        }
        XCTAssertEqual(inside.wait(timeout: .now() + 10), .success)
        for _ in 0..<3 {
            try pool.write { db in try db.execute(sql: "UPDATE t SET value = value + 1") }
        }
        let held = try pool.checkpoint(.passive)
        XCTAssertFalse(held.isComplete, "\(held)")
        XCTAssertThrowsError(try pool.checkpoint(.truncate)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .busy)
            XCTAssertTrue("\(error)".contains("the truncate checkpoint of"), "\(error)")
        }
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try pool.checkpoint(.truncate).walFrameCount, 0)
    }

    func testASchemaChangeByTheWriterReachesAReaderThatCachedTheColumns() throws {
        struct Row1: Record, Equatable {
            var id: Int64?
            var value: Int?
            static let tableName = "t"
        }
        struct Row2: Record, Equatable {
            var id: Int64?
            var value: Int?
            var note: String?
            static let tableName = "t"
        }
        let pool = try makePool(readers: 1)
        try pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (1)") }
        XCTAssertEqual(try pool.read { db in try Row1.fetch(db, where: ["value": 1]) }, [Row1(id: 1, value: 1)])
        try pool.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN note TEXT DEFAULT 'n'") }
        XCTAssertEqual(
            try pool.read { db in try Row2.fetch(db, where: ["note": "n"]) }, [Row2(id: 1, value: 1, note: "n")])
    }

    func testInterruptStopsAStatementOnAReader() throws {
        let pool = try makePool()
        let finished = DispatchSemaphore(value: 0)
        let failure = SharedCounter()
        DispatchQueue.global().async {
            do {
                _ = try pool.read { db in try db.scalar(Int.self, sql: countToABillionSQL) }
            } catch let error as DatabaseError where error.isInterrupted {
                failure.increment()
            } catch {}
            finished.signal()
        }
        let deadline = Date().addingTimeInterval(10)
        while finished.wait(timeout: .now() + 0.05) == .timedOut && Date() < deadline { pool.interrupt() }
        XCTAssertEqual(failure.value, 1)
        XCTAssertEqual(try count(pool), 0)
    }
}
