#if PostgreSQL
import Dispatch
import Foundation

/// Connections to one PostgreSQL server, shared by the whole app: `read` and `write` closures with the
/// transaction semantics of SQLiteRecord's `DatabaseQueue`.
///
/// ```swift
/// let pool = PostgresPool(configuration: PostgresConfiguration(
///     connectionString: "postgresql://app@127.0.0.1/world", maximumConnections: 8))
/// try await pool.write { connection in try france.save(connection) }
/// let cities = try await pool.read { connection in try City.fetch(connection, where: ["country_id": 1]) }
/// ```
///
/// The pool opens up to ``PostgresConfiguration/maximumConnections`` connections, lazily; a call beyond
/// them waits for one to come back. libpq's calls block, so each connection runs its closures on its own
/// serial dispatch queue: an `async` call suspends, and no thread of Swift's cooperative pool ever waits on
/// the network. The synchronous twins run the closure on the calling thread; called from inside a body of
/// the same pool, they throw ``PostgresError`` of kind `.client` instead of waiting for a connection their
/// own caller holds.
///
/// A connection found lost (its server restarted, or `pg_terminate_backend` ended it) is dropped after the
/// call that met the loss, and the next call opens a new one. A `read` or `write` that finds its idle
/// connection lost at `BEGIN`, before its body ran, runs once more on a new connection, so a connection
/// that died while it sat in the pool costs no error. A loss once the body has run throws ``PostgresError``
/// of kind `.connectionLost` and is never retried: the server may have run the body's statements, or not,
/// and running a write twice is worse than an error. `writeWithoutTransaction` sends no `BEGIN`, so a loss
/// there always throws.
///
/// Cancelling the task of an async call: a call still waiting for a connection returns at once with
/// `CancellationError` and never runs its body; one whose turn came after the cancel does not run it either.
/// Once the body runs, the cancel stops the statement the server is running for it: the library sends
/// libpq's cancel request (`PQcancel`), the statement ends within a network round trip, and it throws
/// `CancellationError` in the body; any later statement of the body throws the same without being sent. The
/// call throws `CancellationError`, its transaction rolls back, nothing of it commits (a `write` whose body
/// returned anyway rolls back instead of committing), and the connection goes back to the pool usable. A
/// cancel request names a session, not a statement; it is sent only while the call's statement is in
/// flight, and the statement's end waits until it has reached the server, so it never stops the next
/// statement on that connection (see `PostgresConnection+Cancellation.swift`). Between statements, in Swift
/// code of its own, a body stops at ``PostgresConnection/checkCancellation()``, which the library's loops over
/// records call before each record.
///
/// ``PostgresConfiguration/statementTimeout`` cancels a statement that runs longer, with the same request;
/// that statement throws ``PostgresError`` with SQLSTATE 57014.
public final class PostgresPool: @unchecked Sendable {
    /// What the pool connects with.
    public let configuration: PostgresConfiguration

    // The lock guards `idle`, `created` and `waiters`.
    private let lock = NSLock()
    private var idle: [PooledConnection] = []
    private var created = 0
    private var waiters: [(id: Int, give: (PooledConnection) -> Void)] = []
    private var waiterCount = 0

    /// Makes a pool; it connects on first use.
    public init(configuration: PostgresConfiguration) {
        self.configuration = configuration
    }

    /// Makes a pool for a libpq connection string (a URI or `key=value` pairs).
    public convenience init(_ connectionString: String, maximumConnections: Int = 10) {
        self.init(
            configuration: PostgresConfiguration(
                connectionString: connectionString, maximumConnections: maximumConnections))
    }

    /// Runs `body` in a transaction (`BEGIN [ISOLATION LEVEL ...]` ... `COMMIT`, `ROLLBACK` when it throws)
    /// on a connection of the pool, and returns its value. A connection's own ``PostgresConnection/transaction(_:readOnly:_:)``
    /// inside `body` nests as a savepoint.
    ///
    /// With `retryingSerializationFailures` above zero, a body that fails with SQLSTATE 40001
    /// (serialization failure) or 40P01 (deadlock) runs again, up to that many more times, in a new
    /// transaction: what the server asks of SERIALIZABLE transactions. The body must then be safe to run
    /// again (no side effects outside the database).
    ///
    /// An idle connection found lost at `BEGIN` is replaced and the call runs on the new one; a loss once
    /// `body` has run throws and is not retried (see the type's discussion).
    /// - Throws: what `body` throws, or ``PostgresError`` (`.connectionFailed` when no connection opens,
    ///   `.connectionLost` when the connection was lost after `body` began);
    ///   `CancellationError` when the task was cancelled (nothing is committed then).
    @discardableResult
    public func write<T: Sendable>(
        isolation: IsolationLevel? = nil, retryingSerializationFailures: Int = 0,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            try Self.transaction(on: connection, isolation, retrying: retryingSerializationFailures, body)
        }
    }

    /// Runs `body` in a read-only transaction (`BEGIN ... READ ONLY` ... `ROLLBACK`): any write fails with
    /// SQLSTATE 25006. At `.repeatableRead` or `.serializable` every statement sees one snapshot. An idle
    /// connection found lost at `BEGIN` is replaced, as for `write`.
    /// - Throws: what `body` throws, or ``PostgresError``.
    @discardableResult
    public func read<T: Sendable>(
        isolation: IsolationLevel? = nil, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            try Self.transaction(on: connection, isolation, readOnly: true, body)
        }
    }

    /// ``write(isolation:retryingSerializationFailures:_:)`` at the server's default isolation, with no
    /// retry: what `AsyncDatabaseWriter` asks of every engine's writer.
    /// - Throws: as ``write(isolation:retryingSerializationFailures:_:)``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await write(isolation: nil, retryingSerializationFailures: 0, body)
    }

    /// ``read(isolation:_:)`` at the server's default isolation: what `AsyncDatabaseWriter` asks of every
    /// engine's writer.
    /// - Throws: as ``read(isolation:_:)``.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await read(isolation: nil, body)
    }

    /// Runs `body` on a connection outside any transaction: each statement commits on its own.
    /// - Throws: what `body` throws, or ``PostgresError``.
    @discardableResult
    public func writeWithoutTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection(body)
    }

    /// The synchronous twin of `write(isolation:retryingSerializationFailures:_:)`: blocks the
    /// calling thread, and runs `body` on it.
    /// - Throws: as the async `write`; ``PostgresError`` of kind `.client` when called from inside a body of
    ///   this pool (it would wait for the connection its caller holds).
    @discardableResult
    public func write<T>(
        isolation: IsolationLevel? = nil, retryingSerializationFailures: Int = 0,
        _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        try withConnectionSynchronously { connection in
            try Self.transaction(on: connection, isolation, retrying: retryingSerializationFailures, body)
        }
    }

    /// The synchronous twin of `read(isolation:_:)`.
    /// - Throws: as the async `read`; ``PostgresError`` of kind `.client` when called from inside a body of
    ///   this pool.
    @discardableResult
    public func read<T>(isolation: IsolationLevel? = nil, _ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnectionSynchronously { connection in
            try Self.transaction(on: connection, isolation, readOnly: true, body)
        }
    }

    /// The synchronous twin of `writeWithoutTransaction(_:)`.
    /// - Throws: as the async call; ``PostgresError`` of kind `.client` when called from inside a body of
    ///   this pool.
    @discardableResult
    public func writeWithoutTransaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnectionSynchronously(body)
    }

    /// The number of connections the pool holds open or has handed out.
    public var connectionCount: Int { lock.withLock { created } }

    /// `body` in a transaction of `connection`, run again for serialization failures as `retries` allows.
    /// A connection lost before `body` ran (at `BEGIN`) is thrown as ``LostBeforeBody``, which the pooled
    /// connection answers by running the call once more on a new connection; once `body` has run, a loss is
    /// the call's error.
    static func transaction<T>(
        on connection: PostgresConnection, _ isolation: IsolationLevel?, readOnly: Bool = false,
        retrying retries: Int = 0, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        var bodyRan = false
        do {
            return try retrying(retries) {
                try connection.transaction(isolation, readOnly: readOnly) {
                    bodyRan = true
                    return try body(connection)
                }
            }
        } catch let error as PostgresError where error.kind == .connectionLost && !bodyRan {
            throw LostBeforeBody(error: error)
        }
    }

    private static func retrying<T>(_ retries: Int, _ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as PostgresError
                where attempt < retries
                && (error.sqlState == .serializationFailure || error.sqlState == .deadlockDetected)
            {
                attempt += 1
            }
        }
    }

    func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let call = PostgresCallCancellation()
        return try await withTaskCancellationHandler {
            let pooled = try await checkOut(call)
            return try await withCheckedThrowingContinuation { continuation in
                pooled.queue.async {
                    let result = Result {
                        try self.holding { try pooled.run(self.configuration) { connection in
                            connection.cancellation = call
                            defer { connection.cancellation = nil }
                            // Cancelled while the connection opened or the call was handed over: nothing runs.
                            try connection.checkCancellation()
                            return try body(connection)
                        } }
                    }
                    self.checkIn(pooled)
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            call.cancel()
        }
    }

    private func withConnectionSynchronously<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if Thread.current.threadDictionary[holdingKey] != nil {
            throw PostgresError(
                kind: .client,
                message: "a read or write of this PostgresPool was called from inside a read or write of the same "
                    + "pool, where it would wait for a connection its own caller holds; use the body's connection")
        }
        let pooled = checkOutSynchronously()
        defer { checkIn(pooled) }
        return try holding { try pooled.run(configuration, body) }
    }

    /// The key under which a thread running a body of this pool is marked in its thread dictionary: a
    /// synchronous call of the same pool from there would wait for the connection its caller holds (on a
    /// pool of one, or with every connection so held, forever), so it throws instead. The async calls need
    /// no check, since a body is synchronous and cannot await one.
    private var holdingKey: String { "PostgresRecord.PostgresPool.\(UInt(bitPattern: ObjectIdentifier(self).hashValue))" }

    /// `body`, with this thread marked as running a body of this pool.
    private func holding<T>(_ body: () throws -> T) rethrows -> T {
        let key = holdingKey
        let dictionary = Thread.current.threadDictionary
        dictionary[key] = true
        defer { dictionary.removeObject(forKey: key) }
        return try body()
    }

    /// An idle connection, a new one while the pool is below its size, or nil after queueing `waiter` under
    /// the returned id.
    private func take(orWait waiter: @escaping (PooledConnection) -> Void) -> (PooledConnection?, Int) {
        lock.withLock {
            if let pooled = idle.popLast() { return (pooled, 0) }
            if created < configuration.maximumConnections {
                created += 1
                return (PooledConnection(label: "PostgresRecord.connection.\(created)"), 0)
            }
            waiterCount += 1
            waiters.append((waiterCount, waiter))
            return (nil, waiterCount)
        }
    }

    private func checkOut(_ call: PostgresCallCancellation) async throws -> PooledConnection {
        if call.isCancelled { throw CancellationError() }
        return try await withCheckedThrowingContinuation { continuation in
            let (pooled, waiter) = take(orWait: { continuation.resume(returning: $0) })
            if let pooled { return continuation.resume(returning: pooled) }
            // A cancel while waiting leaves the queue at once; a waiter already handed a connection runs, and
            // finds the call cancelled before its body.
            call.whenCancelled {
                let removed: Bool = self.lock.withLock {
                    guard let index = self.waiters.firstIndex(where: { $0.id == waiter }) else { return false }
                    self.waiters.remove(at: index)
                    return true
                }
                if removed { continuation.resume(throwing: CancellationError()) }
            }
        }
    }

    private func checkOutSynchronously() -> PooledConnection {
        let handOff = HandOff()
        if let pooled = take(orWait: handOff.give).0 { return pooled }
        return handOff.wait()
    }

    private func checkIn(_ pooled: PooledConnection) {
        let waiter: ((PooledConnection) -> Void)? = lock.withLock {
            if waiters.isEmpty {
                idle.append(pooled)
                return nil
            }
            return waiters.removeFirst().give
        }
        waiter?(pooled)
    }
}

/// A connection slot of the pool: its serial queue and its connection, opened on first use and again
/// after a loss. Used by one caller at a time: the pool hands it out under its lock and takes it back only
/// when the caller is done, which is what makes the unchecked `Sendable` sound.
private final class PooledConnection: @unchecked Sendable {
    let queue: DispatchQueue
    private var connection: PostgresConnection?

    init(label: String) { queue = DispatchQueue(label: label) }

    /// `body` on the slot's connection, opened first when there is none. When `body` throws
    /// ``LostBeforeBody`` on a connection that sat idle since an earlier call, it runs once more on a new
    /// connection; a connection opened for this call and lost at once is the call's error (the server is
    /// going away, and a second connection would only fail to open).
    func run<T>(_ configuration: PostgresConfiguration, _ body: (PostgresConnection) throws -> T) throws -> T {
        let wasIdle = connection != nil
        do {
            return try runOnce(configuration, body)
        } catch let lost as LostBeforeBody {
            guard wasIdle else { throw lost.error }
            do {
                return try runOnce(configuration, body)
            } catch let lost as LostBeforeBody {
                throw lost.error
            }
        }
    }

    private func runOnce<T>(
        _ configuration: PostgresConfiguration, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        let connection = try self.connection ?? PostgresConnection(configuration: configuration)
        self.connection = connection
        defer { if !connection.isConnected { self.connection = nil } }
        return try body(connection)
    }
}

/// A connection lost at `BEGIN`, before the call's body ran: nothing of the call reached the server, so
/// the call may run again on a new connection. Never leaves the pool: ``PooledConnection/run(_:_:)``
/// retries or throws `error`.
struct LostBeforeBody: Error {
    let error: PostgresError
}

/// Hands one pooled connection from the thread that returns it to a thread that waits for it.
private final class HandOff: @unchecked Sendable {
    // The semaphore orders `give`'s write of `value` before `wait`'s read.
    private let semaphore = DispatchSemaphore(value: 0)
    private var value: PooledConnection?

    func give(_ pooled: PooledConnection) {
        value = pooled
        semaphore.signal()
    }

    func wait() -> PooledConnection {
        semaphore.wait()
        // `give` ran before the signal, so `value` is set.
        guard let value else { preconditionFailure("HandOff signalled without a connection") }
        return value
    }
}
#endif
