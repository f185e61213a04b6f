import Dispatch
import Foundation
import SQLiteRecord
import XCTest

final class DatabaseQueueAsyncTests: XCTestCase {
    private struct Failure: Error {}

    private func makeQueue() async throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        return queue
    }

    func testReadAndWriteReturnValues() async throws {
        let queue = try await makeQueue()
        let id = try await queue.write { db -> Int64 in
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["Tokyo"])
            XCTAssertTrue(db.isInsideTransaction, "write runs in a transaction")
            return db.lastInsertedRowID
        }
        XCTAssertEqual(id, 1)
        let rows = try await queue.read { db in
            XCTAssertTrue(db.isInsideTransaction, "a read reads one snapshot")
            return try db.fetchAll(sql: "SELECT rowid, v FROM t")
        }
        XCTAssertEqual(rows, [["rowid": 1, "v": "Tokyo"]])
    }

    func testAWriteThatThrowsRollsBack() async throws {
        let queue = try await makeQueue()
        do {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Failure()
            }
            XCTFail("expected the body's error")
        } catch is Failure {}
        let count = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
        XCTAssertEqual(count, 0)
    }

    func testManyTasksWritingAtOnceAllLand() async throws {
        let queue = try await makeQueue()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<100 {
                        try await queue.write { db in
                            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [task * 100 + n])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let sum = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT sum(v) FROM t") }
        XCTAssertEqual(sum, 319_600)
    }

    func testCancellingTheTaskInterruptsALongQuery() async throws {
        let queue = try DatabaseQueue()
        let started = SharedCounter()
        let task = Task {
            try await queue.read { db in
                started.increment()
                return try db.scalar(Int.self, sql: countToABillionSQL)
            }
        }
        try await waitUntil { started.value > 0 }
        try await Task.sleep(nanoseconds: 100_000_000)
        let cancelledAt = Date()
        task.cancel()
        // A watchdog, so that a missed cancellation fails the test instead of running for minutes.
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 5_000_000_000)
            queue.interrupt()
            XCTFail("the cancellation did not interrupt the query")
        }
        defer { watchdog.cancel() }
        do {
            let count = try await task.value
            XCTFail("expected an interruption, got \(String(describing: count))")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .interrupt)
            XCTAssertTrue(error.isInterrupted)
            XCTAssertEqual(error.sql, countToABillionSQL)
        }
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 1)
        let answer = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT 42") }
        XCTAssertEqual(answer, 42)
    }

    func testCancellingAWriteRollsItBack() async throws {
        let queue = try await makeQueue()
        let started = SharedCounter()
        let task = Task {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES ('lost')")
                started.increment()
                _ = try db.scalar(Int.self, sql: countToABillionSQL)
            }
        }
        try await waitUntil { started.value > 0 }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        do {
            try await task.value
            XCTFail("expected an interruption")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .interrupt)
        }
        let count = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
        XCTAssertEqual(count, 0)
    }

    func testATaskCancelledBeforeItsTurnNeverRuns() async throws {
        let queue = try DatabaseQueue()
        let gate = DispatchSemaphore(value: 0)
        let entered = SharedCounter()
        let blocker = Task {
            try await queue.read { _ in
                entered.increment()
                gate.wait()
            }
        }
        try await waitUntil { entered.value > 0 }

        let ran = SharedCounter()
        let waiting = Task { try await queue.read { _ in ran.increment() } }
        waiting.cancel()
        gate.signal()
        do {
            try await waiting.value
            XCTFail("expected CancellationError")
        } catch is CancellationError {}
        try await blocker.value
        XCTAssertEqual(ran.value, 0)
    }

    func testWaitingReadsDoNotBlockTheCooperativePool() async throws {
        // More blocked reads than the machine has cores: if each held a thread of Swift's cooperative pool,
        // nothing else could run until they finish.
        let queues = try (0..<(ProcessInfo.processInfo.activeProcessorCount + 2)).map { _ in try DatabaseQueue() }
        let gate = DispatchSemaphore(value: 0)
        let entered = SharedCounter()
        let released = SharedCounter()
        // A safety valve: opens the gate after 10 s so that a failure does not hang the suite.
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            if released.value == 0 {
                for _ in queues { gate.signal() }
            }
        }
        let readers = queues.map { queue in
            Task {
                try await queue.read { _ in
                    entered.increment()
                    gate.wait()
                }
            }
        }
        let start = Date()
        try await waitUntil(timeout: 10) { entered.value == queues.count }
        let value = await Task.detached { 6 * 7 }.value
        XCTAssertEqual(value, 42)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the pool stayed free while every read waited")
        released.increment()
        for _ in queues { gate.signal() }
        for reader in readers { try await reader.value }
    }

    func testSyncAccessFromInsideAnAsyncBodyIsRefused() async throws {
        let queue = try DatabaseQueue()
        let code = try await queue.read { _ -> ResultCode? in
            do {
                try queue.write { _ in }
                return nil
            } catch let error as DatabaseError {
                return error.resultCode
            }
        }
        XCTAssertEqual(code, .misuse)
    }
}
