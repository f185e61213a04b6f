#if PostgreSQL
import Dispatch
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// Twenty failovers: a primary with a synchronous standby (`synchronous_commit = remote_apply`,
/// `synchronous_standby_names = '*'`) is killed (`pg_ctl stop -m immediate`) while four tasks write batches
/// through one pool, and the standby is promoted. The pool's connection string names both servers with
/// `target_session_attrs=read-write` (libpq's multi-host form), so it finds the new primary by itself: a
/// connection skips the dead server and the standby until the promotion, and opens on the new primary after
/// it. Between failovers the killed server is rebuilt as the new primary's standby on its own port, and made
/// synchronous again before the next kill.
///
/// Afterwards, on the last primary: every batch whose `write` returned is whole (a batch row and its four
/// items, in one transaction), no batch is half there, and a batch whose `write` failed is stored only when
/// the failure said the outcome is unknown (SQLSTATE 08007). Prints one summary line (`PostgreSQL failover
/// run: ...`) with the time from each kill to the first write acknowledged after it, the figures of the
/// PostgreSQL article's Faults section.
final class PostgresFailoverTests: XCTestCase {
    static let failovers = 20
    static let writers = 4
    static let itemsPerBatch = 4

    /// One batch in one transaction: its row, then its items.
    private static func saveBatch(_ pool: PostgresPool, _ batch: Int64) async throws {
        try await pool.write { connection in
            try connection.execute("INSERT INTO batches (batch) VALUES ($1)", [PostgresValue(batch)])
            for item in 0..<itemsPerBatch {
                try connection.execute(
                    "INSERT INTO items (batch, item) VALUES ($1, $2)",
                    [PostgresValue(batch), PostgresValue(Int64(item))])
            }
        }
    }

    /// Makes `primary` wait for its standby to apply each commit, and waits until the standby is its
    /// synchronous standby and has replayed everything committed before (commits acknowledged while the
    /// primary ran alone included), so that a kill from now on loses no acknowledged commit.
    private static func makeSynchronous(_ primary: PostgresTestCluster) throws {
        let connection = try PostgresConnection(primary.connectionString)
        try connection.execute("ALTER SYSTEM SET synchronous_commit = 'remote_apply'")
        try connection.execute("ALTER SYSTEM SET synchronous_standby_names = '*'")
        _ = try connection.query("SELECT pg_reload_conf()").count
        try waitUntil(connection, "SELECT count(*) = 1 FROM pg_stat_replication WHERE sync_state = 'sync'")
        let position = try connection.query("SELECT pg_current_wal_lsn()::text")[0].decode(String.self, at: 0)
        try waitUntil(connection, "SELECT count(*) = 1 FROM pg_stat_replication WHERE replay_lsn >= '\(position)'")
    }

    /// Lets a promoted standby commit alone until its own standby is back (what a failover manager does
    /// with `synchronous_standby_names`); commits waiting for a standby are released.
    private static func runAlone(_ primary: PostgresTestCluster) throws {
        let connection = try PostgresConnection(primary.connectionString)
        try connection.execute("ALTER SYSTEM SET synchronous_standby_names = ''")
        _ = try connection.query("SELECT pg_reload_conf()").count
    }

    private static func waitUntil(_ connection: PostgresConnection, _ sql: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while try !connection.query(sql)[0].decode(Bool.self, at: 0) {
            guard Date() < deadline else {
                throw PostgresTestServer.CommandFailure(command: sql, output: "not true in 30 s")
            }
            usleep(10_000)
        }
    }

    func testTwentyFailoversToASynchronousStandbyLoseNoAcknowledgedBatch() async throws {
        let first = try PostgresTestCluster.make()
        defer { first.remove() }
        try PostgresConnection(first.connectionString).execute(
            """
            CREATE TABLE batches (batch BIGINT PRIMARY KEY);
            CREATE TABLE items (batch BIGINT NOT NULL, item BIGINT NOT NULL)
            """)
        let second = try first.makeStandby()
        defer { second.remove() }
        try Self.makeSynchronous(first)
        let url = "postgresql://postgres@127.0.0.1:\(first.port),127.0.0.1:\(second.port)/postgres"
            + "?target_session_attrs=read-write"
        let pool = PostgresPool(url, maximumConnections: Self.writers)

        let stopped = TestLocked(false)
        let nextBatch = TestLocked<Int64>(0)
        // Each acknowledged batch, when its write began and when it returned.
        let acknowledged = TestLocked<[(batch: Int64, begun: Date, at: Date)]>([])
        let failed = TestLocked(0)
        let unknown = TestLocked<[Int64]>([])
        let writers = (0..<Self.writers).map { _ in
            Task {
                while !stopped.withLock({ $0 }) {
                    let batch = nextBatch.withLock { value -> Int64 in
                        value += 1
                        return value
                    }
                    let begun = Date()
                    do {
                        try await Self.saveBatch(pool, batch)
                        acknowledged.withLock { $0.append((batch, begun, Date())) }
                    } catch {
                        failed.withLock { $0 += 1 }
                        if (error as? PostgresError)?.sqlState == .transactionResolutionUnknown {
                            unknown.withLock { $0.append(batch) }
                        }
                        try? await Task.sleep(nanoseconds: 2_000_000)
                    }
                }
            }
        }
        let started = Date()
        // The failovers run on a thread of their own: pg_ctl and the waits block.
        let failingOver: Result<[TimeInterval], any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result {
                        var primary = first
                        var standby = second
                        var firstWrites: [TimeInterval] = []
                        for _ in 0..<Self.failovers {
                            usleep(UInt32.random(in: 50_000..<200_000))
                            try primary.kill()
                            // The server is gone: a write begun from now on can only commit on the new primary.
                            let killedAt = Date()
                            try standby.promote()
                            try Self.runAlone(standby)
                            let deadline = Date().addingTimeInterval(30)
                            var firstWrite: Date?
                            while firstWrite == nil, Date() < deadline {
                                firstWrite = acknowledged.withLock { list in
                                    list.filter { $0.begun > killedAt }.map(\.at).min()
                                }
                                if firstWrite == nil { usleep(1_000) }
                            }
                            firstWrites.append((firstWrite ?? deadline).timeIntervalSince(killedAt))
                            try primary.rebuildAsStandby(of: standby)
                            swap(&primary, &standby)
                            try Self.makeSynchronous(primary)
                        }
                        // Batches after the last failover, so that the run ends with writes that commit.
                        usleep(100_000)
                        return firstWrites
                    })
            }
        }
        stopped.withLock { $0 = true }
        for writer in writers { await writer.value }
        let firstWrites = try failingOver.get()
        let seconds = Date().timeIntervalSince(started)

        // The last primary: the server the pool writes to now.
        let check = try PostgresConnection(url)
        let rows = try check.query(
            """
            SELECT b.batch, count(i.batch) FROM batches b LEFT JOIN items i ON i.batch = b.batch GROUP BY b.batch
            UNION ALL
            SELECT DISTINCT i.batch, -1 FROM items i LEFT JOIN batches b ON b.batch = i.batch WHERE b.batch IS NULL
            """)
        var whole = Set<Int64>()
        var half = Set<Int64>()
        for index in 0..<rows.count {
            let batch = try rows[index].decode(Int64.self, at: 0)
            if try rows[index].decode(Int64.self, at: 1) == Int64(Self.itemsPerBatch) {
                whole.insert(batch)
            } else {
                half.insert(batch)
            }
        }
        let acknowledgedBatches = Set(acknowledged.withLock { $0.map(\.batch) })
        let unknownBatches = Set(unknown.withLock { $0 })
        let lost = acknowledgedBatches.subtracting(whole)
        let storedDespiteFailure = whole.subtracting(acknowledgedBatches).subtracting(unknownBatches)
        let sorted = firstWrites.sorted()
        print(
            String(
                format: "PostgreSQL failover run: %d failovers in %.1f s, %lld batches begun, %d acknowledged, "
                    + "%d failed, %d of them with the outcome unknown (08007, %d found whole), %d lost, %d half, "
                    + "%d found whole after a failure that said nothing committed; from the kill to the first "
                    + "write begun after it and acknowledged: median %.0f ms, max %.0f ms",
                Self.failovers, seconds, nextBatch.withLock { $0 }, acknowledgedBatches.count,
                failed.withLock { $0 }, unknownBatches.count, whole.intersection(unknownBatches).count, lost.count,
                half.count, storedDespiteFailure.count, sorted[sorted.count / 2] * 1000, (sorted.last ?? 0) * 1000))
        XCTAssertEqual(lost.sorted(), [])
        XCTAssertEqual(half.sorted(), [])
        XCTAssertEqual(storedDespiteFailure.sorted(), [])
        XCTAssertEqual(firstWrites.count, Self.failovers)
        XCTAssertLessThan(sorted.last ?? .infinity, 30, "a failover after which no write succeeded")
        XCTAssertGreaterThan(acknowledgedBatches.count, Self.failovers)
    }
}
#endif
