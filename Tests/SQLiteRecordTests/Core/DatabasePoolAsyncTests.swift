import Foundation
import SQLiteRecord
import XCTest

/// The async twins of DatabasePool's calls: reads beside writes, cancellation, awaited futures.
final class DatabasePoolAsyncTests: XCTestCase {
    private func makePool(_ folder: TemporaryFolder, readers: Int = 5) async throws -> DatabasePool {
        let pool = try DatabasePool(path: folder.path("pool.sqlite"), options: .init(maximumReaderCount: readers))
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER)") }
        return pool
    }

    func testAsyncWritesAndReadsAgree() async throws {
        let folder = try TemporaryFolder()
        let pool = try await makePool(folder)
        let id = try await pool.write { db -> Int64 in
            try db.execute(sql: "INSERT INTO t (value) VALUES (42)")
            return db.lastInsertedRowID
        }
        XCTAssertEqual(id, 1)
        let value = try await pool.read { db in try db.scalar(Int.self, sql: "SELECT value FROM t") }
        XCTAssertEqual(value, 42)
        let mode = try await pool.writeWithoutTransaction { db in db.isInsideTransaction }
        XCTAssertFalse(mode)
    }

    func testManyAsyncReadsShareTwoReaders() async throws {
        let folder = try TemporaryFolder()
        let pool = try await makePool(folder, readers: 2)
        try await pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (1), (2), (3)") }
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await pool.read { db in try db.scalar(Int.self, sql: "SELECT sum(value) FROM t") ?? 0 }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(sums, Array(repeating: 6, count: 40))
    }

    func testCancellingTheTaskInterruptsItsRead() async throws {
        let folder = try TemporaryFolder()
        let pool = try await makePool(folder)
        let started = SharedCounter()
        let task = Task {
            try await pool.read { db -> Int? in
                started.increment()
                return try db.scalar(Int.self, sql: countToABillionSQL)
            }
        }
        try await waitUntil { started.value == 1 }
        try await Task.sleep(nanoseconds: 20_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the read finished counting to a billion")
        } catch let error as DatabaseError {
            XCTAssertTrue(error.isInterrupted, "\(error)")
        }
        let count = try await pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
        XCTAssertEqual(count, 0, "the reader went back to the pool and reads again")
    }

    func testAConcurrentReadsFutureCanBeAwaited() async throws {
        let folder = try TemporaryFolder()
        let pool = try await makePool(folder)
        let future = try await pool.writeWithoutTransaction { db in
            try db.transaction(.immediate) { try db.execute(sql: "INSERT INTO t (value) VALUES (5)") }
            let future = try pool.concurrentRead { db in try db.scalar(Int.self, sql: "SELECT sum(value) FROM t") }
            try db.execute(sql: "INSERT INTO t (value) VALUES (6)")
            return future
        }
        let sum = try await future.value
        XCTAssertTrue(sum == 5, "the concurrent read saw \(String(describing: sum)), not the state after the commit")
    }
}
