#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// An observation across a server crash (``PostgresTestCluster``'s `kill()`, `pg_ctl stop -m immediate`) and
/// restart on the same port: the listener connects again once the server is back, listens again, reads
/// again, and hears the next commit.
final class PostgresObservationRestartTests: XCTestCase {
    /// What each test watches: the `notes` table (one row, 'a', with change notifications) on `cluster`,
    /// observed through a pool of its own; every value seen, and the error that ended the sequence if any.
    private struct Watch {
        let setUp: PostgresConnection
        let seen: TestLocked<[[String]]>
        let failure: TestLocked<String?>
        let task: Task<Void, Never>
    }

    /// Starts watching `notes` on `cluster`. When `gate` holds a gate, the observed read after it is set waits
    /// there after its `BEGIN`.
    private func watchNotes(
        on cluster: PostgresTestCluster, gate: TestLocked<PostgresGatedSaveTestCase.Gate?> = TestLocked(nil)
    ) throws -> Watch {
        let setUp = try PostgresConnection(cluster.connectionString)
        try setUp.execute("CREATE TABLE notes (title TEXT NOT NULL)")
        try setUp.installChangeNotifications(for: ["notes"])
        try setUp.execute("INSERT INTO notes VALUES ('a')")
        let pool = PostgresPool(cluster.connectionString, maximumConnections: 2)
        let observation = ValueObservation.tracking { connection in
            // Taken once: the held read is the one after the gate is set.
            if let held = gate.withLock({ current in defer { current = nil }; return current }) {
                held.arriveAndWait()
            }
            let rows = try connection.query("SELECT title FROM notes ORDER BY title")
            return try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }
        }.removeDuplicates()
        let seen = TestLocked<[[String]]>([])
        let failure = TestLocked<String?>(nil)
        let task = Task {
            do {
                for try await titles in observation.values(in: pool) { seen.withLock { $0.append(titles) } }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        return Watch(setUp: setUp, seen: seen, failure: failure, task: task)
    }

    func testAnObservationOutlivesAServerRestart() async throws {
        let cluster = try PostgresTestCluster.make()
        defer { cluster.remove() }
        let watch = try watchNotes(on: cluster)
        defer { watch.task.cancel() }
        try await wait(until: 1, in: watch.seen)
        try cluster.kill()
        try cluster.start()
        // Committed as soon as the server is back, perhaps before the listener is: the read after its new
        // LISTEN finds it then.
        try PostgresConnection(cluster.connectionString).execute("INSERT INTO notes VALUES ('b')")
        try await wait(until: 2, in: watch.seen)
        try PostgresConnection(cluster.connectionString).execute("INSERT INTO notes VALUES ('c')")
        try await wait(until: 3, in: watch.seen)
        XCTAssertEqual(watch.seen.withLock { $0 }, [["a"], ["a", "b"], ["a", "b", "c"]])
        XCTAssertNil(watch.failure.withLock { $0 })
    }

    /// The server dies while the observed read runs (the read is held at a gate after its `BEGIN`, the
    /// server is killed, then the read goes on into the dead session): the read's `connectionLost` costs a
    /// late value, not the sequence. The listener connects again once the server is back, and the read
    /// after it sees the commit that started the held read and the next one.
    func testAnObservationOutlivesARestartThatHitsItsRead() async throws {
        let cluster = try PostgresTestCluster.make()
        defer { cluster.remove() }
        let gate = TestLocked<PostgresGatedSaveTestCase.Gate?>(nil)
        let watch = try watchNotes(on: cluster, gate: gate)
        defer { watch.task.cancel() }
        try await wait(until: 1, in: watch.seen)
        let held = PostgresGatedSaveTestCase.Gate(name: "read")
        gate.withLock { $0 = held }
        try watch.setUp.execute("INSERT INTO notes VALUES ('b')")
        await held.waitForArrival()
        try cluster.kill()
        held.release()
        // The held read has met the dead session by now, or meets it while the server starts.
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertNil(watch.failure.withLock { $0 }, "the sequence ended while the server was down")
        try cluster.start()
        try await wait(until: 2, in: watch.seen)
        try PostgresConnection(cluster.connectionString).execute("INSERT INTO notes VALUES ('c')")
        try await wait(until: 3, in: watch.seen)
        XCTAssertEqual(watch.seen.withLock { $0 }, [["a"], ["a", "b"], ["a", "b", "c"]])
        XCTAssertNil(watch.failure.withLock { $0 })
    }

    private func wait(until count: Int, in seen: TestLocked<[[String]]>) async throws {
        let deadline = Date().addingTimeInterval(20)
        while seen.withLock({ $0.count < count }) {
            guard Date() < deadline else { return XCTFail("values seen: \(seen.withLock { $0 })") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}
#endif
