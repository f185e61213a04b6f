import Dispatch
import Foundation
import SQLiteRecord
import XCTest

final class DatabaseQueueTests: XCTestCase {
    func testWriteCommitsAndRollsBack() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertThrowsError(
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                try db.execute(sql: "INSERT INTO nowhere VALUES (3)")
            })
        XCTAssertEqual(try queue.read { db in try WorldFixtures.rowCount(db, "t") }, 1)
    }

    func testNestedAccessOnTheSameQueueThrowsInsteadOfDeadlocking() throws {
        let queue = try DatabaseQueue()
        try queue.write { _ in
            XCTAssertThrowsError(try queue.write { _ in }) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            }
            XCTAssertThrowsError(try queue.read { _ in })
        }
    }

    func testConcurrentWritersFromManyThreadsAllLand() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: WorldFixtures.schema) }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 {
                do {
                    try queue.write { db in
                        var country = Country(
                            id: nil, name: "C\(thread)-\(index)", iso: "\(thread)-\(index)", population: 1)
                        try country.save(db)
                    }
                } catch {
                    XCTFail("\(error)")
                }
            }
        }
        XCTAssertEqual(try queue.read { db in try Country.count(db) }, 400)
    }

    func testEightThreadsOfAThousandInsertsAllLand() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(thread INTEGER NOT NULL, n INTEGER NOT NULL)") }
        let failures = SharedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<1_000 {
                do {
                    try queue.write { db in
                        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [thread, n])
                    }
                } catch {
                    failures.increment()
                }
            }
        }
        XCTAssertEqual(failures.value, 0)
        try queue.read { db in
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM t"), 8_000)
            XCTAssertEqual(
                try db.scalar(Int.self, sql: "SELECT count(*) FROM (SELECT DISTINCT thread, n FROM t)"), 8_000)
            let perThread = try db.fetchAll(
                sql: "SELECT thread, count(*), sum(n) FROM t GROUP BY thread ORDER BY thread")
            XCTAssertEqual(perThread.map(\.values), (0..<8).map { [.integer(Int64($0)), 1_000, 499_500] })
        }
    }

    func testOptionsReachTheConnection() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("queue.sqlite")
        try makeDatabaseFile(at: path, rows: 1)
        let queue = try DatabaseQueue(path: path, options: .init(readOnly: true, busyTimeout: 1))
        XCTAssertEqual(queue.path, path)
        XCTAssertEqual(try queue.read { db in db.options.busyTimeout }, 1)
        XCTAssertThrowsError(try queue.write { db in try db.execute(sql: "DELETE FROM t") }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isReadOnly == true, "\(error)")
        }
    }

    func testInterruptStopsTheRunningStatementFromAnotherThread() throws {
        let queue = try DatabaseQueue()
        let started = DispatchSemaphore(value: 0)
        let finished = SharedCounter()
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            started.wait()
            // Repeated until the read ends: an interrupt that lands before the statement starts is a no-op.
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                if finished.value > 0 { break }
                queue.interrupt()
            }
            stopped.signal()
        }
        let start = Date()
        XCTAssertThrowsError(
            try queue.read { db in
                started.signal()
                return try db.scalar(Int.self, sql: countToABillionSQL)
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .interrupt)
            XCTAssertEqual((error as? DatabaseError)?.message, "interrupted")
        }
        finished.increment()
        stopped.wait()
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT 42") }, 42)
    }
}
