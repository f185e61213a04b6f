#if PostgreSQL
/// A read of the server whose result is followed as the tables it used change: the current value first, then
/// a fresh one after each commit, by any client, that wrote one of those tables. SQLiteRecord's
/// `ValueObservation` on PostgreSQL.
///
/// ```swift
/// let observation = PostgresValueObservation.tracking { connection in
///     try Note.all().order(Column("title")).fetch(connection)
/// }
/// for try await notes in observation.removeDuplicates().values(in: pool) {
///     print(notes.map(\.title))
/// }
/// ```
///
/// Commits are heard through `LISTEN`/`NOTIFY`: each table the read used must carry the trigger that
/// ``PostgresConnection/installChangeNotifications(for:)`` installs (a migration step), which notifies the
/// table's channel in every transaction that writes it. `NOTIFY` is sent at commit only, so a transaction
/// that rolls back delivers nothing. The tables are those the read's statements locked, as the server's
/// `pg_locks` reports them at the end of each read (raw SQL, joins and views included), and they are
/// found again at each read. See <https://www.postgresql.org/docs/current/sql-notify.html>.
public struct PostgresValueObservation<Value: Sendable>: Sendable {
    /// The observed read.
    let fetch: @Sendable (PostgresConnection) throws -> Value
    /// Tells two values apart; nil delivers every fresh value.
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?
    /// The wait before a lost listener first connects again, in seconds: none, since the server that ended
    /// one session mostly takes the next at once. The tests lengthen it to commit while no session listens.
    var firstReconnectionDelay = 0.0

    /// An observation of `fetch`, a read: run when iteration starts, and again after each commit that wrote a
    /// table it used. It runs in a read-only `REPEATABLE READ` transaction of the pool, so that all its
    /// statements read one snapshot.
    /// - Parameter fetch: the read; what it throws ends the observation's sequence with that error, but for a
    ///   lost connection, which is read again (see ``values(in:listeningOn:bufferingPolicy:)``).
    public static func tracking(
        _ fetch: @escaping @Sendable (PostgresConnection) throws -> Value
    ) -> PostgresValueObservation {
        PostgresValueObservation(fetch: fetch)
    }

    /// The same observation, delivering a fresh value only when it differs from the last one delivered (as
    /// `isDuplicate` tells).
    /// - Parameter isDuplicate: true when two values are the same to the observer.
    public func removeDuplicates(
        by isDuplicate: @escaping @Sendable (Value, Value) -> Bool
    ) -> PostgresValueObservation {
        var observation = self
        observation.isDuplicate = isDuplicate
        return observation
    }

    /// The observed values as an asynchronous sequence: the current value, then a fresh value after each
    /// commit that wrote a table the read used.
    ///
    /// Each iteration opens a connection of its own, the listener, which `LISTEN`s on the tables' channels;
    /// the reads run on connections of `pool`. `LISTEN` needs a session of its own: behind a pooler in
    /// transaction mode (pgbouncer's `pool_mode = transaction`) the listener must reach the server directly,
    /// through `listeningOn`. Ending the iteration (a `break`, the end of its task, its cancellation) closes
    /// the listener. A lost listener (the server ended its session, or restarted) connects again, listens
    /// again, and reads the value again, since a commit may have gone unheard; when no connection opens for
    /// 30 seconds, the sequence ends with the connection's error. A read whose connection is lost or cannot
    /// open (`PostgresError` of kind `.connectionLost` or `.connectionFailed`: a server that restarts while
    /// the read runs) takes the same way, so a restart costs a late value, never the sequence: the listener
    /// connects again and the value is read again, for up to 30 seconds from the loss. Any other error of the
    /// read ends the sequence with that error, and so does a table the read used that has no change
    /// notifications.
    /// - Parameters:
    ///   - pool: the pool whose connections run the reads.
    ///   - listenerConfiguration: how the listener connects (`listeningOn:`, a server reached directly, not
    ///     through a transaction pooler); nil uses the pool's configuration.
    ///   - bufferingPolicy: what to keep of values the iteration has not taken yet; by default every value.
    public func values(
        in pool: PostgresPool, listeningOn listenerConfiguration: PostgresConfiguration? = nil,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> PostgresAsyncValueObservation<Value> {
        PostgresAsyncValueObservation(
            observation: self, pool: pool, listenerConfiguration: listenerConfiguration ?? pool.configuration,
            bufferingPolicy: bufferingPolicy)
    }
}

extension PostgresValueObservation where Value: Equatable {
    /// The same observation, delivering a fresh value only when it differs from the last one delivered.
    public func removeDuplicates() -> PostgresValueObservation {
        removeDuplicates(by: ==)
    }
}

/// The values of a ``PostgresValueObservation`` in a pool, as an `AsyncSequence`: made by
/// ``PostgresValueObservation/values(in:listeningOn:bufferingPolicy:)``.
///
/// Each iteration starts an observation of its own, with a listening connection of its own, which ends with
/// the iteration: leaving the loop, or cancelling its task, stops it and closes that connection.
public struct PostgresAsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// The type of the values.
    public typealias Element = Value

    let observation: PostgresValueObservation<Value>
    let pool: PostgresPool
    let listenerConfiguration: PostgresConfiguration
    let bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy

    /// Starts the observation and returns the iterator of its values.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(
            bufferingPolicy: bufferingPolicy)
        let observer = PostgresValueObserver(
            observation: observation, pool: pool, listenerConfiguration: listenerConfiguration,
            continuation: continuation)
        continuation.onTermination = { _ in observer.stop() }
        observer.start()
        return Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates an observation's values.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator

        /// The next value: waits for a commit that writes a table the read used.
        /// - Throws: the error the observed read threw, or a connection error that lasted 30 seconds (the
        ///   listener's, or the read's); the sequence ends with it.
        public mutating func next() async throws -> Value? {
            try await base.next()
        }
    }
}
#endif
