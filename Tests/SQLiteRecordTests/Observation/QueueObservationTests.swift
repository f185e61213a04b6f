import Foundation
import XCTest

@testable import SQLiteRecord

/// ValueObservation on a DatabaseQueue reads on the queue, in the block of the write that committed: the
/// value of each commit is read before `write` returns, every commit that concerns the read delivers its own
/// value in commit order, and a rollback or a commit elsewhere reads nothing.
final class QueueObservationTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: observationSchema) }
        return queue
    }

    /// An observation of `count(*)` of items that notes every count it reads in `reads`.
    private func countObservation(noting reads: Locked<[Int]>) -> ValueObservation<Int> {
        ValueObservation.tracking { db in
            let count = try db.scalar(Int.self, sql: "SELECT count(*) FROM items") ?? -1
            reads.withLock { $0.append(count) }
            return count
        }
    }

    /// Inserts through the synchronous `write`.
    private static func insertItem(_ name: String, into queue: DatabaseQueue) throws {
        try queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES (?)", arguments: [name]) }
    }

    func testTheValueOfACommitIsReadBeforeTheWriteReturns() async throws {
        let queue = try makeQueue()
        let reads = Locked<[Int]>([])
        let observed = ObservedValues(countObservation(noting: reads).values(in: queue))
        _ = try await observed.wait(count: 1)
        XCTAssertEqual(reads.withLock { $0 }, [0])
        try Self.insertItem("a", into: queue)
        XCTAssertEqual(reads.withLock { $0 }, [0, 1])
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('b'), ('c')") }
        XCTAssertEqual(reads.withLock { $0 }, [0, 1, 3])
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO items(name) VALUES ('d')")
            try db.execute(sql: "INSERT INTO items(name) VALUES ('e')")
        }
        // Two commits in one block: one read, after the block.
        XCTAssertEqual(reads.withLock { $0 }, [0, 1, 3, 5])
        let values = try await observed.wait(count: 4)
        XCTAssertEqual(values, [0, 1, 3, 5])
        observed.cancel()
    }

    func testTheObservedReadAfterEachCommitPreparesNoStatementAgain() async throws {
        let queue = try makeQueue()
        let reads = Locked<[Int]>([])
        let observed = ObservedValues(countObservation(noting: reads).values(in: queue))
        _ = try await observed.wait(count: 1)
        for index in 1...10 { try Self.insertItem("\(index)", into: queue) }
        XCTAssertEqual(reads.withLock { $0 }, Array(0...10))
        // SQLite prepares a statement again after it was expired (as changing PRAGMA query_only expires every
        // statement of the connection): neither the INSERT nor the observed SELECT may need it.
        let reprepares = try await queue.read { db in db.reprepares }
        XCTAssertEqual(reprepares, 0)
        observed.cancel()
    }

    func testEveryCommitDeliversItsOwnValueInCommitOrder() async throws {
        let queue = try makeQueue()
        let reads = Locked<[Int]>([])
        let observed = ObservedValues(countObservation(noting: reads).values(in: queue))
        _ = try await observed.wait(count: 1)
        for index in 1...50 { try Self.insertItem("\(index)", into: queue) }
        let values = try await observed.wait(count: 51)
        XCTAssertEqual(values, Array(0...50))
        XCTAssertEqual(reads.withLock { $0 }, Array(0...50))
        observed.cancel()
    }

    func testWritersOnSeveralThreadsDeliverEveryState() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(countObservation(noting: Locked([])).values(in: queue))
        _ = try await observed.wait(count: 1)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<25 {
                do {
                    try Self.insertItem("\(thread)-\(index)", into: queue)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let values = try await observed.wait(count: 101)
        XCTAssertEqual(values, Array(0...100))
        let stored = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM items") }
        XCTAssertEqual(stored, 100)
        observed.cancel()
    }

    func testARollbackOrACommitToAnotherTableReadsNothing() async throws {
        let queue = try makeQueue()
        let reads = Locked<[Int]>([])
        let observed = ObservedValues(countObservation(noting: reads).values(in: queue))
        _ = try await observed.wait(count: 1)
        struct Refused: Error {}
        do {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO items(name) VALUES ('rolled back')")
                throw Refused()
            }
            XCTFail("the write should have thrown")
        } catch is Refused {}
        try await queue.write { db in try db.execute(sql: "INSERT INTO other(value) VALUES (7)") }
        XCTAssertEqual(reads.withLock { $0 }, [0])
        try Self.insertItem("kept", into: queue)
        XCTAssertEqual(reads.withLock { $0 }, [0, 1])
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [0, 1])
        let names = try await queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM items") }
        XCTAssertEqual(names, ["kept"])
        observed.cancel()
    }

    func testACachedStatementTellsItsTableInEveryTransactionAfterARollbackOrACommit() async throws {
        let queue = try makeQueue()
        let reads = Locked<[Int]>([])
        let observed = ObservedValues(countObservation(noting: reads).values(in: queue))
        _ = try await observed.wait(count: 1)
        struct Refused: Error {}
        let insert = "INSERT INTO items(name) VALUES (?)"
        do {
            try await queue.write { db in
                for name in ["r1", "r2"] { try db.execute(sql: insert, arguments: [name]) }
                throw Refused()
            }
            XCTFail("the write should have thrown")
        } catch is Refused {}
        // The same cached statement, in the transactions after the rollback: each commit is seen.
        try await queue.write { db in
            for name in ["a", "b", "c"] { try db.execute(sql: insert, arguments: [name]) }
        }
        try await queue.write { db in try db.execute(sql: insert, arguments: ["d"]) }
        try await queue.writeWithoutTransaction { db in try db.execute(sql: insert, arguments: ["e"]) }
        XCTAssertEqual(reads.withLock { $0 }, [0, 3, 4, 5])
        let values = try await observed.wait(count: 4)
        XCTAssertEqual(values, [0, 3, 4, 5])
        let names = try await queue.read { db in
            try db.fetchAll(String.self, sql: "SELECT name FROM items ORDER BY id")
        }
        XCTAssertEqual(names, ["a", "b", "c", "d", "e"])
        observed.cancel()
    }

    func testAnErrorOfTheReadAfterACommitEndsTheSequenceAndTheWriteSucceeds() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "ALTER TABLE items RENAME TO renamed") }
        try await waitUntil { observed.isFinished }
        XCTAssertEqual(observed.values, [[]])
        let error = try XCTUnwrap(observed.error as? DatabaseError)
        XCTAssertTrue(error.message.contains("no such table: items"), error.message)
        let tables = try await queue.read { db in
            try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        XCTAssertEqual(tables, ["other", "renamed"])
        let count = try await queue.read { db in db.changeTracker.observerCount }
        XCTAssertEqual(count, 0)
    }

    func testRemoveDuplicatesOnAQueueDeliversOnlyChanges() async throws {
        let queue = try makeQueue()
        let observation = ValueObservation.tracking { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM items WHERE name = 'x'") ?? -1
        }.removeDuplicates()
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        for name in ["y", "x", "y", "x"] { try Self.insertItem(name, into: queue) }
        let values = try await observed.wait(count: 3)
        XCTAssertEqual(values, [0, 1, 2])
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(observed.values, [0, 1, 2])
        observed.cancel()
    }
}
