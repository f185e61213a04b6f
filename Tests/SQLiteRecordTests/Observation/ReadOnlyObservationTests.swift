import Foundation
import XCTest

@testable import SQLiteRecord

/// ValueObservation over a read-only pool or queue sees the commits of other connections (its
/// `data_version` read on a connection that can run it), and a check that cannot run ends the sequence.
final class ReadOnlyObservationTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func makeFile(_ name: String) async throws -> (path: String, writer: DatabasePool) {
        let path = folder.path(name)
        let writer = try DatabasePool(path: path)
        try await writer.write { db in try db.execute(sql: observationSchema) }
        return (path, writer)
    }

    func testAReadOnlyPoolSeesAnotherConnectionsCommits() async throws {
        let (path, writer) = try await makeFile("readonly-pool.sqlite")
        let pool = try DatabasePool(path: path, options: .init(readOnly: true))
        let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: 0.02)
        let observed = ObservedValues(observation.values(in: pool))
        _ = try await observed.wait(count: 1)
        for (index, name) in ["first", "second", "third"].enumerated() {
            try await writer.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES (?)", arguments: [name]) }
            let values = try await observed.wait(count: index + 2)
            XCTAssertEqual(values.last, Array(["first", "second", "third"].prefix(index + 1)))
        }
        XCTAssertFalse(observed.isFinished)
        observed.cancel()
        try await waitUntil { observed.isFinished }
    }

    func testAReadOnlyQueueSeesAnotherConnectionsCommits() async throws {
        let (path, writer) = try await makeFile("readonly-queue.sqlite")
        let queue = try DatabaseQueue(path: path, options: .init(readOnly: true))
        let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: 0.02)
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await writer.write { db in try db.execute(sql: "INSERT INTO items(name) VALUES ('elsewhere')") }
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, [[], ["elsewhere"]])
        observed.cancel()
    }

    func testACheckThatCannotRunEndsTheSequenceWithItsError() async throws {
        // A rollback-journal file: another connection's exclusive lock keeps every reader out, so the check
        // of `data_version` fails with SQLITE_BUSY once its busy timeout runs out.
        let path = folder.path("locked.sqlite")
        let holder = try Database(path: path, options: .init(journalMode: .delete))
        try holder.execute(sql: observationSchema)
        let queue = try DatabaseQueue(path: path, options: .init(readOnly: true, busyTimeout: 0.05))
        let observation = ValueObservation.tracking(itemNames).checkingOtherConnections(every: 0.02)
        let observed = ObservedValues(observation.values(in: queue))
        _ = try await observed.wait(count: 1)
        try holder.execute(sql: "BEGIN EXCLUSIVE")
        try await waitUntil { observed.isFinished }
        try holder.execute(sql: "ROLLBACK")
        XCTAssertEqual(observed.values, [[]])
        XCTAssertEqual((observed.error as? DatabaseError)?.resultCode, .busy, "\(String(describing: observed.error))")
    }
}
