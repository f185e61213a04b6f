import Foundation
import XCTest

@testable import SQLiteRecord

/// ValueObservation on a DatabaseQueue: the current value first, a fresh value after each commit that
/// touched a table the read used, none after a rollback or a commit elsewhere, duplicates removed on
/// demand, errors end the sequence, ending the iteration frees the observer.
final class ValueObservationTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: observationSchema) }
        return queue
    }

    func testCurrentValueFirstThenOneValueAfterEachCommit() async throws {
        let queue = try makeQueue()
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('a')") }
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        var values = try await observed.wait(count: 1)
        XCTAssertEqual(values, [["a"]])
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('b')") }
        values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [["a"], ["a", "b"]])
        try await queue.write { db in try db.execute(sql: "UPDATE items SET name = 'c' WHERE name = 'a'") }
        values = try await observed.wait(count: 3)
        XCTAssertEqual(values, [["a"], ["a", "b"], ["c", "b"]])
        observed.cancel()
    }

    /// Statements prepared while nobody observed (a record type's write plan, made by its first insert) hear
    /// of an observer added later: before each step they check the tracker's flag, which they hold.
    func testWritePlansMadeBeforeTheObservationAreSeen() async throws {
        let queue = try makeQueue()
        try await queue.write { db in
            // The second insert goes through the plan the first made.
            for name in ["a", "b"] {
                var item = ObservedItem(id: nil, name: name)
                try item.insert(db)
            }
        }
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in
            var item = ObservedItem(id: nil, name: "c")
            try item.insert(db)
        }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [["a", "b"], ["a", "b", "c"]])
        observed.cancel()
    }

    func testNoValueAfterACommitToAnotherTableOrARollback() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "INSERT INTO other(value) VALUES (1)") }
        struct Refused: Error {}
        do {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO items(name) VALUES ('rolled back')")
                throw Refused()
            }
            XCTFail("the write should have thrown")
        } catch is Refused {}
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('kept')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["kept"]])
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(observed.values.count, 2)
        observed.cancel()
    }

    func testCountStarTracksItsTable() async throws {
        let queue = try makeQueue()
        let observation = ValueObservation.tracking { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM items") ?? -1
        }
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('a'), ('b')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [0, 2])
        observed.cancel()
    }

    func testRemoveDuplicatesSkipsEqualValues() async throws {
        let queue = try makeQueue()
        let observation = ValueObservation.tracking { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM items WHERE name = 'x'") ?? -1
        }.removeDuplicates()
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('y')") }
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('x')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [0, 1])
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(observed.values, [0, 1])
        observed.cancel()
    }

    func testRequestAndRecordByKey() async throws {
        let queue = try makeQueue()
        let all = ObservedValues(ObservedItem.all().order(Column("name")).observation().values(in: queue))
        let one = ObservedValues(ObservedItem.observation(id: 1).values(in: queue))
        _ = try await all.wait(count: 1)
        _ = try await one.wait(count: 1)
        try await queue.write { db in
            var item = ObservedItem(id: nil, name: "z")
            try item.save(db)
            var second = ObservedItem(id: nil, name: "m")
            try second.save(db)
        }
        let allValues = try await all.wait(count: 2)
        XCTAssertEqual(allValues, [[], [ObservedItem(id: 2, name: "m"), ObservedItem(id: 1, name: "z")]])
        let oneValues = try await one.wait(count: 2)
        XCTAssertEqual(oneValues, [nil, ObservedItem(id: 1, name: "z")])
        all.cancel()
        one.cancel()
    }

    func testErrorOfTheReadEndsTheSequence() async throws {
        let queue = try makeQueue()
        let observation = ValueObservation.tracking { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM missing") ?? -1
        }
        let observed = ObservedValues(observation.values(in: queue))
        try await waitUntil { observed.isFinished }
        XCTAssertEqual(observed.values, [])
        XCTAssertEqual((observed.error as? DatabaseError)?.resultCode, .error)
    }

    func testErrorAfterACommitEndsTheSequenceAndFreesTheObserver() async throws {
        let queue = try makeQueue()
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('1')") }
        struct Odd: Error, Equatable { let count: Int }
        let observation = ValueObservation.tracking { db -> Int in
            let count = try db.scalar(Int.self, sql: "SELECT count(*) FROM items") ?? 0
            if count == 2 { throw Odd(count: count) }
            return count
        }
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('2')") }
        try await waitUntil { observed.isFinished }
        XCTAssertEqual(observed.values, [1])
        XCTAssertEqual(observed.error as? Odd, Odd(count: 2))
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('3')") }
        let count = try await queue.write { db in db.changeTracker.observerCount }
        XCTAssertEqual(count, 0)
    }

    func testEndingTheIterationFreesTheQueueAndItsFile() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("observed.sqlite")
        weak var weakQueue: DatabaseQueue?
        do {
            let queue = try DatabaseQueue(path: path)
            weakQueue = queue
            try await queue.write { db in try db.execute(sql: observationSchema) }
            let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: 0.01)
            for try await names in observation.values(in: queue) {
                XCTAssertEqual(names, [])
                break
            }
            let count = try await queue.write { db in db.changeTracker.observerCount }
            XCTAssertEqual(count, 0)
        }
        try await waitUntil { weakQueue == nil }
        try FileManager.default.removeItem(atPath: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testAReaderTypedAsDatabaseReaderIsObserved() async throws {
        let reader: any DatabaseReader = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: reader))
        _ = try await observed.wait(count: 1)
        let queue = try XCTUnwrap(reader as? DatabaseQueue)
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('a')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["a"]])
        observed.cancel()
    }

    func testCancellingTheTaskStopsTheObservation() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        let count = try await queue.write { db in db.changeTracker.observerCount }
        XCTAssertEqual(count, 1)
        observed.cancel()
        try await waitUntil { observed.isFinished }
        try await waitUntil { (try? queue.read { db in db.changeTracker.observerCount }) == 0 }
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('late')") }
        XCTAssertEqual(observed.values, [[]])
    }

    func testWriteWithoutTransactionCommitsAreSeen() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('a')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["a"]])
        observed.cancel()
    }

    func testEveryTableOfAJoinIsTracked() async throws {
        let queue = try makeQueue()
        let observation = ValueObservation.tracking { db in
            try db.scalar(
                Int.self, sql: "SELECT count(*) FROM items JOIN other ON other.value = items.id") ?? -1
        }
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('a')") }
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "INSERT INTO other(value) VALUES (1)") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [0, 1])
        observed.cancel()
    }

    func testASchemaChangeReadsAgainAndItsErrorEndsTheSequence() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "ALTER TABLE items RENAME TO old_items") }
        try await waitUntil { observed.isFinished }
        XCTAssertEqual(observed.values, [[]])
        let error = try XCTUnwrap(observed.error as? DatabaseError)
        XCTAssertEqual(error.resultCode, .error)
        XCTAssertTrue("\(error)".contains("no such table: items"), "\(error)")
    }

    func testARolledBackSavepointInACommittedWriteDeliversTheCommittedState() async throws {
        let queue = try makeQueue()
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await observed.wait(count: 1)
        struct Refused: Error {}
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO items(name) VALUES ('kept')")
            try? db.transaction {
                try db.execute(sql: "INSERT INTO items(name) VALUES ('undone')")
                throw Refused()
            }
        }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["kept"]])
        observed.cancel()
    }
}
