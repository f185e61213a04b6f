#if PostgreSQL
import Dispatch
import Foundation

/// A primary server and its streaming replicas (hot standbys of PostgreSQL's own physical replication), one
/// ``PostgresPool`` each: `write` runs on the primary, `read` on a replica, spread over the replicas in
/// turn, and on the primary when no replica can take it.
///
/// ```swift
/// let pool = PostgresReplicaPool(
///     primary: PostgresPool("postgresql://app@db-primary/world"),
///     replicas: [PostgresPool("postgresql://app@db-replica-1/world"), PostgresPool("postgresql://app@db-replica-2/world")])
/// var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
/// try await france.save(pool)                                   // on the primary
/// let cities = try await pool.read { [france] connection in     // on a replica
///     try City.fetch(connection, where: ["country_id": france.id])
/// }
/// // A read that must see this pool's writes: it waits for the replica to replay them.
/// let saved = try await pool.read(after: pool.lastWriteLSN) { [france] connection in
///     try Country.fetchOne(connection, id: france.id)
/// }
/// ```
///
/// A replica applies the primary's commits a little later than they happen, so a plain `read` may not see a
/// write that just committed. After each `write` the pool takes the primary's `pg_current_wal_lsn()` on the
/// same connection, right after `COMMIT`, and keeps the highest as ``lastWriteLSN``;
/// ``read(after:isolation:_:)`` runs on a replica only once its `pg_last_wal_replay_lsn()` has reached the
/// given position, waiting up to ``Options/replayTimeout`` seconds, and runs on the primary after that. A
/// position can travel between app instances (in a session or a cookie, as Rails keeps the time of a
/// session's last write) as its text, ``PostgresLSN/description``.
///
/// A replica that cannot be reached (its connection fails to open or is lost), that is more than
/// ``Options/maximumReplayLag`` seconds behind the primary, that trails the primary while it receives
/// nothing from it, or that is no longer in recovery (it was promoted) is left out: reads go to the other
/// replicas, or to the primary, with no error to the caller. The lag is measured against the primary's own
/// log positions, taken at each check, so a standby that stopped replicating (the primary removed log it
/// still needed) is left out although it believes itself current. Each replica is checked again once
/// ``Options/recheckInterval`` seconds have passed since its last check, by the first read that comes along
/// then, never on every call. A body whose replica was lost while it ran runs again on another server: it is
/// read-only, but a body with side effects outside the database sees them twice.
///
/// A `read` is a read-only transaction wherever it runs, so a write in it fails with SQLSTATE 25006 on the
/// primary as on a standby. The record calls that take a pool (`City.fetch(pool, where:)`,
/// `city.save(pool)`) take this one too, through `AsyncDatabaseWriter`: their reads go to a replica
/// with no wait. See <https://www.postgresql.org/docs/current/hot-standby.html>.
public final class PostgresReplicaPool: @unchecked Sendable {
    /// The bounds the pool holds replicas to. Every bound is in seconds.
    public struct Options: Sendable, Equatable {
        /// The most seconds a replica may be behind the primary before reads leave it out. Five seconds by
        /// default.
        ///
        /// Measured against the primary, whatever the standby believes: each check first takes the
        /// primary's `pg_current_wal_lsn()` (on a connection of ``PostgresReplicaPool/primary``) and keeps
        /// it with the time it was taken; a replica whose `pg_last_wal_replay_lsn()` is still short of a
        /// position the primary had this many seconds ago is left out. So is a replica short of the
        /// primary's position that runs no WAL receiver (`pg_stat_wal_receiver` has no streaming row: it
        /// cannot catch up by itself), and one whose own replay lag, `now() -
        /// pg_last_xact_replay_timestamp()` while its replay trails what it received, passes the bound. A
        /// replica that has replayed everything the primary wrote is no lag, however long the primary has
        /// been idle. While the primary cannot be reached, only the replica's own view counts. See
        /// <https://www.postgresql.org/docs/current/monitoring-stats.html#MONITORING-PG-STAT-WAL-RECEIVER-VIEW>.
        public var maximumReplayLag: TimeInterval

        /// The most seconds ``PostgresReplicaPool/read(after:isolation:_:)`` waits for a replica to replay
        /// the position it was given before it runs on the primary instead. One second by default; a negative or
        /// NaN value counts as zero.
        public var replayTimeout: TimeInterval

        /// The seconds between two checks of a replica: a replica left out is tried again this long after it
        /// was left out, and a replica in use has its replay lag measured again this long after the last
        /// measure. Five seconds by default; a negative or NaN value counts as zero.
        public var recheckInterval: TimeInterval

        /// Makes options; each value is in seconds (negative values count as zero).
        public init(
            maximumReplayLag: TimeInterval = 5, replayTimeout: TimeInterval = 1, recheckInterval: TimeInterval = 5
        ) {
            self.maximumReplayLag = max(0, maximumReplayLag)
            self.replayTimeout = max(0, replayTimeout)
            self.recheckInterval = max(0, recheckInterval)
        }
    }

    /// The pool of the primary, which takes every write.
    public let primary: PostgresPool
    /// The pools of the replicas, which take the reads.
    public let replicas: [PostgresPool]
    /// The bounds the pool holds replicas to.
    public let options: Options

    // The lock guards `health`, `nextReplica`, `lastWrite` and `primaryPositions`.
    private let lock = NSLock()
    private var health: [ReplicaHealth]
    private var nextReplica = 0
    private var lastWrite: PostgresLSN?
    /// The primary's positions taken at checks, oldest first, with the monotonic time (nanoseconds) each
    /// was taken: both only grow. See ``PrimaryPositions``.
    private var primaryPositions = PrimaryPositions()

    /// Makes a pool over a primary and its replicas; nothing connects before the first call. With no
    /// replicas every call runs on the primary.
    public init(primary: PostgresPool, replicas: [PostgresPool], options: Options = Options()) {
        self.primary = primary
        self.replicas = replicas
        self.options = options
        health = replicas.map { _ in ReplicaHealth() }
    }

    /// The highest position of the primary's log this pool saw right after one of its writes committed, or
    /// nil before the first write: a read after it sees every write of this pool that has returned.
    public var lastWriteLSN: PostgresLSN? { lock.withLock { lastWrite } }

    /// Runs `body` in a transaction on the primary (`BEGIN` ... `COMMIT`, `ROLLBACK` when it throws), as
    /// ``PostgresPool/write(isolation:retryingSerializationFailures:_:)`` does, then reads the primary's
    /// `pg_current_wal_lsn()` on the same connection and raises ``lastWriteLSN`` to it.
    /// - Throws: as ``PostgresPool/write(isolation:retryingSerializationFailures:_:)``; never for the log
    ///   position once the transaction committed (a position that cannot be read leaves ``lastWriteLSN`` as
    ///   it was).
    @discardableResult
    public func write<T: Sendable>(
        isolation: IsolationLevel? = nil, retryingSerializationFailures: Int = 0,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let (value, position) = try await primary.withConnection { connection in
            let value = try PostgresPool.transaction(
                on: connection, isolation, retrying: retryingSerializationFailures, body)
            return (value, try? Self.currentLSN(connection))
        }
        await noteWrite(at: position)
        return value
    }

    /// ``write(isolation:retryingSerializationFailures:_:)`` at the server's default isolation, with no
    /// retry: what `AsyncDatabaseWriter` asks of every engine's writer.
    /// - Throws: as ``write(isolation:retryingSerializationFailures:_:)``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await write(isolation: nil, retryingSerializationFailures: 0, body)
    }

    /// ``read(isolation:_:)`` at the server's default isolation, on a replica as that call chooses one: what
    /// `AsyncDatabaseWriter` asks of every engine's writer.
    /// - Throws: as ``read(isolation:_:)``.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await read(after: nil, isolation: nil, body)
    }

    /// Runs `body` on a connection of the primary outside any transaction (each statement commits on its
    /// own), then raises ``lastWriteLSN`` as `write` does, also when `body` throws: the statements before
    /// its error have committed.
    /// - Throws: as ``PostgresPool/writeWithoutTransaction(_:)``.
    @discardableResult
    public func writeWithoutTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let (result, position) = try await primary.withConnection { connection in
            (Result { try body(connection) }, try? Self.currentLSN(connection))
        }
        await noteWrite(at: position)
        return try result.get()
    }

    /// Runs `body` in a read-only transaction on a replica, with no wait for any write: what a replica has
    /// replayed may trail the primary by up to ``Options/maximumReplayLag`` seconds. On the primary when no
    /// replica can take it, and at `isolation: .serializable`, which a hot standby refuses (SQLSTATE 0A000,
    /// "cannot use serializable mode in a hot standby").
    /// - Throws: what `body` throws (SQLSTATE 25006 for a write in it), or ``PostgresError`` from the
    ///   primary; a replica's connection failure is never the call's error.
    @discardableResult
    public func read<T: Sendable>(
        isolation: IsolationLevel? = nil, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await read(after: nil, isolation: isolation, body)
    }

    /// Runs `body` in a read-only transaction on a replica that has replayed the primary's log up to
    /// `position` (its `pg_last_wal_replay_lsn()` is at or past it), so that `body` sees every transaction
    /// that committed before `position`; pass ``lastWriteLSN`` to see this pool's own writes.
    ///
    /// The replica is asked once before the read, in one statement on the connection the read then uses.
    /// One that has not replayed `position` yet is asked again, at intervals growing from 1 to 50
    /// milliseconds, until ``Options/replayTimeout`` seconds have passed; `body` then runs on the primary,
    /// and the next read checks that replica (see ``Options/maximumReplayLag``) instead of waiting on it
    /// again until its check is due.
    /// A nil `position` waits for nothing, as ``read(isolation:_:)``; a SERIALIZABLE read runs on the primary,
    /// as there.
    /// - Throws: as ``read(isolation:_:)``; `CancellationError` when the task is cancelled while it waits.
    @discardableResult
    public func read<T: Sendable>(
        after position: PostgresLSN?, isolation: IsolationLevel? = nil,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        // A hot standby refuses SERIALIZABLE: the read runs where it can, on the primary, which is past
        // every position.
        if isolation == .serializable { return try await primary.read(isolation: isolation, body) }
        var tried: Set<Int> = []
        while let (index, measuresLag) = nextCandidate(excluding: tried) {
            tried.insert(index)
            switch try await read(onReplica: index, measuringLag: measuresLag, after: position, isolation, body) {
            case .value(let value): return value
            case .unavailable: continue
            case .behind: return try await primary.read(isolation: isolation, body)
            }
        }
        return try await primary.read(isolation: isolation, body)
    }

    /// `body` on replica `index`, after its status when the lag is due a measure or `position` is set.
    private func read<T: Sendable>(
        onReplica index: Int, measuringLag: Bool, after position: PostgresLSN?, _ isolation: IsolationLevel?,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> ReplicaOutcome<T> {
        let maximumLag = options.maximumReplayLag
        let deadline = Self.now() + Self.nanoseconds(options.replayTimeout)
        var pause: UInt64 = 1_000_000
        var measuresLag = measuringLag
        while true {
            // Taken before the replica's status, so that a replica short of it is short of what the
            // primary had before the replica was asked.
            let primaryPosition = measuresLag ? await takePrimaryPosition() : nil
            let step: ReplicaStep<T>
            do {
                step = try await replicas[index].withConnection { [measuresLag, self] connection in
                    if measuresLag || position != nil {
                        let status = try Self.status(of: connection)
                        if measuresLag, !isCurrent(status, primaryPosition: primaryPosition, maximumLag: maximumLag) {
                            return .leftOut
                        }
                        if let position, status.replayed.map({ $0 < position }) ?? true { return .behind }
                    }
                    return .value(try PostgresPool.transaction(on: connection, isolation, readOnly: true, body))
                }
            } catch let error as PostgresError
                where error.kind == .connectionFailed || error.kind == .connectionLost
            {
                leaveOut(index)
                return .unavailable
            }
            if measuresLag, case .leftOut = step {
                leaveOut(index)
                return .unavailable
            }
            if measuresLag {
                keep(index)
                measuresLag = false
            }
            switch step {
            case .value(let value): return .value(value)
            case .leftOut: return .unavailable
            case .behind:
                let now = Self.now()
                guard now < deadline else {
                    checkSoon(index)
                    return .behind
                }
                try await Task.sleep(nanoseconds: min(pause, deadline - now))
                pause = min(pause * 2, 50_000_000)
            }
        }
    }

    /// Raises ``lastWriteLSN`` to `position`; when the position could not be read on the write's connection
    /// (it was lost right after `COMMIT`), reads it on another connection of the primary, a position at or
    /// past the commit's if the commit happened.
    private func noteWrite(at position: PostgresLSN?) async {
        var position = position
        if position == nil {
            position = try? await primary.withConnection { connection in try Self.currentLSN(connection) }
        }
        guard let position else { return }
        lock.withLock {
            if lastWrite.map({ $0 < position }) ?? true { lastWrite = position }
        }
    }

    /// The next replica to try, in turn, among those not in `tried` that are in use or due a check, and
    /// whether the call must measure its lag first (its check is due). Claiming a due check restarts the
    /// replica's interval, so that one call checks it, not every call that comes meanwhile.
    private func nextCandidate(excluding tried: Set<Int>) -> (index: Int, measuresLag: Bool)? {
        let now = Self.now()
        let interval = Self.nanoseconds(options.recheckInterval)
        return lock.withLock {
            let count = health.count
            for offset in 0..<count {
                let index = (nextReplica + offset) % count
                guard !tried.contains(index) else { continue }
                let due = now &- health[index].checkedAt >= interval || health[index].checkedAt == 0
                guard health[index].isInUse || due else { continue }
                nextReplica = (index + 1) % count
                if due { health[index].checkedAt = now }
                return (index, due)
            }
            return nil
        }
    }

    /// Whether a replica with `status` may take reads: in recovery, and no more than `maximumLag` seconds
    /// behind the primary, by the primary's positions (`primaryPosition` is the one just taken, nil when
    /// the primary could not be reached) and by its own replay lag.
    private func isCurrent(
        _ status: ReplicaStatus, primaryPosition: PostgresLSN?, maximumLag: TimeInterval
    ) -> Bool {
        guard status.isInRecovery, status.replayLag <= maximumLag else { return false }
        let replayed = status.replayed ?? PostgresLSN(rawValue: 0)
        if let primaryPosition, replayed < primaryPosition, !status.isReceiving { return false }
        let now = Self.now()
        let behindSince = lock.withLock { primaryPositions.firstTime(after: replayed) }
        guard let behindSince else { return true }
        return Double(now &- behindSince) / 1e9 <= maximumLag
    }

    /// The primary's `pg_current_wal_lsn()` now, kept with the time in ``primaryPositions``; nil when the
    /// primary cannot be reached or answers nothing.
    private func takePrimaryPosition() async -> PostgresLSN? {
        guard let position = try? await primary.withConnection({ try Self.currentLSN($0) }) else { return nil }
        let now = Self.now()
        let window = Self.nanoseconds(options.maximumReplayLag + options.recheckInterval + 1)
        lock.withLock { primaryPositions.add(position, at: now, keeping: window) }
        return position
    }

    /// Makes replica `index` due a check: the next read measures it before using it.
    private func checkSoon(_ index: Int) {
        lock.withLock { health[index].checkedAt = 0 }
    }

    private func leaveOut(_ index: Int) {
        let now = Self.now()
        lock.withLock { health[index] = ReplicaHealth(isInUse: false, checkedAt: now) }
    }

    private func keep(_ index: Int) {
        let now = Self.now()
        lock.withLock { health[index] = ReplicaHealth(isInUse: true, checkedAt: now) }
    }

    /// A standby's replay position, its replay lag in seconds, and whether it is still in recovery, in one
    /// statement. A connection lost here is lost before the read's body ran, which the pool's connection
    /// slot answers by running the call once more on a new connection.
    private static func status(of connection: PostgresConnection) throws -> ReplicaStatus {
        do {
            let rows = try connection.query(statusSQL)
            guard rows.count == 1 else {
                throw PostgresError(kind: .client, message: "the replica status query returned \(rows.count) rows")
            }
            let row = rows[0]
            return ReplicaStatus(
                replayed: try row.decode(String?.self, at: 0).flatMap(PostgresLSN.init),
                replayLag: try row.decode(Double.self, at: 1), isInRecovery: try row.decode(Bool.self, at: 2),
                isReceiving: try row.decode(Bool.self, at: 3))
        } catch let error as PostgresError where error.kind == .connectionLost {
            throw LostBeforeBody(error: error)
        }
    }

    /// The replica's replay position, its lag behind what it received (zero once it has replayed all of it,
    /// so that an idle primary is no lag), `pg_is_in_recovery()`, and whether its WAL receiver streams from
    /// the primary (a row in `pg_stat_wal_receiver`, whose `status` a role without `pg_read_all_stats`
    /// sees as NULL). See
    /// <https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-RECOVERY-CONTROL>.
    private static let statusSQL = """
        SELECT pg_last_wal_replay_lsn()::text, \
        CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0 \
        ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) END::float8, \
        pg_is_in_recovery(), \
        EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE coalesce(status, 'streaming') = 'streaming')
        """

    /// The primary's current write position, `pg_current_wal_lsn()`. See
    /// <https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-ADMIN-BACKUP>.
    private static func currentLSN(_ connection: PostgresConnection) throws -> PostgresLSN {
        let rows = try connection.query("SELECT pg_current_wal_lsn()::text")
        guard rows.count == 1, let position = PostgresLSN(try rows[0].decode(String.self, at: 0)) else {
            throw PostgresError(kind: .client, message: "pg_current_wal_lsn() returned no log position")
        }
        return position
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        // The options' properties are `var`: a negative or NaN value set after the initializer's clamp counts
        // as zero, since converting it to UInt64 would trap.
        guard seconds > 0 else { return 0 }
        return seconds >= Double(UInt64.max / 2) / 1e9 ? UInt64.max / 2 : UInt64(seconds * 1e9)
    }
}

/// Whether reads use a replica, and when it was last checked (monotonic nanoseconds; zero: never).
private struct ReplicaHealth {
    var isInUse = true
    var checkedAt: UInt64 = 0
}

private struct ReplicaStatus {
    let replayed: PostgresLSN?
    let replayLag: TimeInterval
    let isInRecovery: Bool
    /// The standby's WAL receiver streams from the primary.
    let isReceiving: Bool
}

/// The primary's log positions as the pool's checks took them, each with the monotonic time it was taken,
/// oldest first; both grow along the array. Bounded: a position equal to the one before adds nothing (the
/// earlier time is the one that counts), and positions older than the window are dropped but for the newest
/// of them, which still tells that a replica short of it is at least that old.
private struct PrimaryPositions {
    private var entries: [(time: UInt64, position: PostgresLSN)] = []

    /// Keeps `position`, taken at `time`, and drops what is older than `window` nanoseconds but the newest
    /// of those. A position below the last one (another primary, after a failover) starts over.
    mutating func add(_ position: PostgresLSN, at time: UInt64, keeping window: UInt64) {
        if let last = entries.last, position < last.position { entries.removeAll() }
        if entries.last?.position != position { entries.append((time, position)) }
        let oldest = time > window ? time - window : 0
        if let firstKept = entries.firstIndex(where: { $0.time >= oldest }), firstKept > 1 {
            entries.removeFirst(firstKept - 1)
        }
    }

    /// When the primary was first seen past `replayed`: the time of the oldest position above it, nil
    /// when the primary was never seen past it.
    func firstTime(after replayed: PostgresLSN) -> UInt64? {
        entries.first { $0.position > replayed }?.time
    }
}

/// What one try on a replica's connection came to.
private enum ReplicaStep<T: Sendable>: Sendable {
    case value(T)
    /// The replica lags past the bound or is no longer a standby.
    case leftOut
    /// The replica has not replayed the position yet.
    case behind
}

/// What a read on one replica came to: its value, the replica left out (try another), or the position not
/// replayed in time (read on the primary).
private enum ReplicaOutcome<T> {
    case value(T)
    case unavailable
    case behind
}
#endif
