import Foundation
import XCTest

@testable import SQLiteRecord

/// ValueObservation on a DatabasePool (values read on readers), with writers on several threads, and
/// commits of another connection to the same file found through `PRAGMA data_version`.
final class PoolObservationTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    func testPoolDeliversTheCurrentValueThenEachCommit() async throws {
        let pool = try DatabasePool(path: folder.path("pool.sqlite"))
        try await pool.write { db in try db.execute(sql: observationSchema) }
        let observed = ObservedValues(ValueObservation.tracking(itemNames).values(in: pool))
        _ = try await observed.wait(count: 1)
        try await pool.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('a')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["a"]])
        observed.cancel()
        try await waitUntil { observed.isFinished }
    }

    func testWritersOnSeveralThreadsEndWithTheLastState() async throws {
        let pool = try DatabasePool(path: folder.path("threads.sqlite"))
        try await pool.write { db in try db.execute(sql: observationSchema) }
        let observation = ValueObservation.tracking { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM items") ?? -1
        }.removeDuplicates()
        let observed = ObservedValues(observation.values(in: pool))
        _ = try await observed.wait(count: 1)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<25 {
                try? pool.write { db in
                    try db.execute(sql: "INSERT INTO items(name) VALUES (?)", arguments: ["\(thread)-\(index)"])
                }
            }
        }
        try await waitUntil { observed.values.last == 100 }
        let values = observed.values
        XCTAssertEqual(values.first, 0)
        XCTAssertEqual(values.last, 100)
        XCTAssertEqual(values, values.sorted())
        observed.cancel()
    }

    func testCommitsOfAnotherConnectionAreSeenWithinTheInterval() async throws {
        let path = folder.path("shared.sqlite")
        let watcher = try DatabaseQueue(path: path)
        try await watcher.write { db in try db.execute(sql: observationSchema) }
        let other = try DatabaseQueue(path: path)
        let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: 0.02)
        let observed = ObservedValues(observation.values(in: watcher))
        _ = try await observed.wait(count: 1)
        try await other.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('from elsewhere')") }
        let start = Date()
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["from elsewhere"]])
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        observed.cancel()
    }

    func testWithoutChecksCommitsOfAnotherConnectionAreNotSeen() async throws {
        let path = folder.path("unchecked.sqlite")
        let watcher = try DatabaseQueue(path: path)
        try await watcher.write { db in try db.execute(sql: observationSchema) }
        let other = try DatabaseQueue(path: path)
        let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: nil)
        let observed = ObservedValues(observation.values(in: watcher))
        _ = try await observed.wait(count: 1)
        try await other.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('unseen')") }
        try await Task.sleep(nanoseconds: 150_000_000)
        XCTAssertEqual(observed.values, [[]])
        try await watcher.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('seen')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["unseen", "seen"]])
        observed.cancel()
    }

    func testClosedPoolAfterTheSequenceEnds() async throws {
        let path = folder.path("closed.sqlite")
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: observationSchema) }
        for try await names in ValueObservation.tracking(itemNames).values(in: pool) {
            XCTAssertEqual(names, [])
            break
        }
        try pool.close()
        try FileManager.default.removeItem(atPath: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// A sequence that ends while its checks of other connections are being set up leaves no timer
    /// behind; libdispatch traps on the release of one that was never activated.
    func testSequencesEndedAtTheirFirstValueWhileTheirChecksStartLeaveNoTimer() async throws {
        let pool = try DatabasePool(path: folder.path("ended.sqlite"))
        try await pool.write { db in try db.execute(sql: observationSchema) }
        let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: 0.001)
        var firstValues = 0
        for _ in 0..<300 {
            for try await names in observation.values(in: pool) {
                XCTAssertEqual(names, [])
                firstValues += 1
                break
            }
        }
        XCTAssertEqual(firstValues, 300)
    }
}
