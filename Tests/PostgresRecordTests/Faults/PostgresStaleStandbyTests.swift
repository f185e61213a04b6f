#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A standby that stopped replicating: stopped while the primary wrote, switched log segments and
/// checkpointed (no replication slot, `wal_keep_size` 0), so the log it needs is gone when it starts again.
/// It stays in recovery at its old position, with its received and replayed positions equal: by its own
/// view it is current. The replica pool must leave it out by the primary's positions, and read the
/// primary's rows.
final class PostgresStaleStandbyTests: XCTestCase {
    private var primary: PostgresTestCluster?
    private var standby: PostgresTestCluster?

    override func tearDown() {
        standby?.remove()
        primary?.remove()
        super.tearDown()
    }

    /// Rows in `notes`, and whether the server that answered is in recovery (a standby).
    private static func countAndRecovery(_ connection: PostgresConnection) throws -> [Int64] {
        let row = try connection.query("SELECT count(*), pg_is_in_recovery()::int::int8 FROM notes")[0]
        return [try row.decode(Int64.self, at: 0), try row.decode(Int64.self, at: 1)]
    }

    func testAStandbyWhoseLogIsGoneIsLeftOutWithinTheLagBound() async throws {
        let primary = try PostgresTestCluster.make()
        self.primary = primary
        let standby = try primary.makeStandby()
        self.standby = standby
        let lagBound = 1.0
        let recheck = 0.2
        let pool = PostgresReplicaPool(
            primary: PostgresPool(primary.connectionString, maximumConnections: 2),
            replicas: [PostgresPool(standby.connectionString, maximumConnections: 2)],
            options: .init(maximumReplayLag: lagBound, replayTimeout: 0.5, recheckInterval: recheck))
        try await pool.write {
            try $0.execute("CREATE TABLE notes (id int8); INSERT INTO notes SELECT generate_series(1, 71)")
        }
        // The standby stops at a segment's end: started again, it has received exactly what it replayed
        // (`pg_last_wal_receive_lsn()` restarts at the segment's start), so its own replay lag is zero.
        try await pool.writeWithoutTransaction { _ = try $0.query("SELECT pg_switch_wal()") }
        let current = try await pool.read(after: pool.lastWriteLSN) { try Self.countAndRecovery($0) }
        XCTAssertEqual(current, [71, 1], "the standby took the read while it replicated")

        try standby.stop(mode: "fast")
        // No slot holds the log for the standby: each segment switch and checkpoint lets the primary recycle
        // the segments the standby would ask for.
        for _ in 0..<4 {
            try await pool.write { try $0.execute("INSERT INTO notes SELECT generate_series(1, 264)") }
            try await pool.writeWithoutTransaction { connection in
                _ = try connection.query("SELECT pg_switch_wal()")
                try connection.execute("CHECKPOINT")
            }
        }
        try standby.start()
        let onStandby = try PostgresConnection(standby.connectionString)
        let standbyView = try onStandby.query(
            "SELECT count(*), pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() FROM notes")[0]
        XCTAssertEqual(
            try standbyView.decode(Int64.self, at: 0), 71, "the standby replayed log it should not have found")
        XCTAssertEqual(try standbyView.decode(Bool.self, at: 1), true, "the standby does not believe itself current")

        // From the standby's start, every read past the bound (the lag bound, a check interval, and a second
        // for the reads themselves) answers the primary's rows from the primary.
        let start = Date()
        let bound = lagBound + recheck + 1
        var lastStale: TimeInterval?
        while Date().timeIntervalSince(start) < bound + 1 {
            let answer = try await pool.read { try Self.countAndRecovery($0) }
            if answer != [1_127, 0] { lastStale = Date().timeIntervalSince(start) }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        XCTAssertLessThan(lastStale ?? 0, bound, "the standby cut off from the primary's log still took reads")
        var answers: [[Int64]] = []
        for _ in 0..<10 { answers.append(try await pool.read { try Self.countAndRecovery($0) }) }
        XCTAssertEqual(answers, Array(repeating: [1_127, 0], count: 10))
        // A read after the pool's last write runs on the primary at once, instead of waiting out its replay
        // timeout on a standby that will never replay it.
        let readAfterStart = Date()
        let afterWrite = try await pool.read(after: pool.lastWriteLSN) { try Self.countAndRecovery($0) }
        XCTAssertEqual(afterWrite, [1_127, 0])
        XCTAssertLessThan(Date().timeIntervalSince(readAfterStart), 0.5)
    }
}
#endif
