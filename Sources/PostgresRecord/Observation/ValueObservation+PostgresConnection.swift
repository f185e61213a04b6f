#if PostgreSQL
@_spi(RecordEngine) import SQLiteRecord

extension ValueObservation {
    /// An observation of `fetch`, a read that uses what only PostgreSQL's ``PostgresConnection`` has
    /// (`connection.query`). Chosen when the read's body needs a ``PostgresConnection``; a read that any
    /// engine can run takes `tracking(_:)` over `any DatabaseConnection`.
    ///
    /// Observed in a ``PostgresPool`` or a ``PostgresReplicaPool``; in a writer of another engine the
    /// sequence ends at once with ``PostgresError`` of kind `.client`, which says so.
    /// - Parameter fetch: the read; what it throws ends the observation's sequence with that error.
    @_disfavoredOverload
    public static func tracking(
        _ fetch: @escaping @Sendable (PostgresConnection) throws -> Value
    ) -> ValueObservation {
        tracking { (connection: any DatabaseConnection) in
            guard let postgres = connection as? PostgresConnection else {
                throw PostgresError(
                    kind: .client,
                    message: "this observation's read takes a PostgresConnection, and it was given a "
                        + "\(type(of: connection)): observe it in a PostgresPool, or write the read over the "
                        + "connection it is given (some DatabaseConnection)")
            }
            return try fetch(postgres)
        }
    }

    /// The observed values in `pool`, with the listener reaching the server through
    /// `listenerConfiguration`: the current value, then a fresh value after each commit that wrote a table
    /// the read used. ``ValueObservation/values(in:bufferingPolicy:)`` on a `PostgresPool` listens through
    /// the pool's own configuration.
    ///
    /// Each iteration opens a connection of its own, the listener, which `LISTEN`s on the tables' channels;
    /// the reads run on connections of `pool`, in a read-only `REPEATABLE READ` transaction. `LISTEN` needs a
    /// session of its own: behind a pooler in transaction mode (pgbouncer's `pool_mode = transaction`) the
    /// listener must reach the server directly, through `listenerConfiguration`. Ending the iteration (a
    /// `break`, the end of its task, its cancellation) closes the listener. A lost listener (the server
    /// ended its session, or restarted) connects again, listens again, and reads the value again, since a
    /// commit may have gone unheard; when no connection opens for 30 seconds, the sequence ends with the
    /// connection's error. A read whose connection is lost or cannot open (`PostgresError` of kind
    /// `.connectionLost` or `.connectionFailed`: a server that restarts while the read runs) takes the same
    /// way, so a restart costs a late value, never the sequence. Any other error of the read ends the
    /// sequence with that error, and so does a table the read used that has no change notifications and
    /// that the reading session may not give them (see ``PostgresConnection/installChangeNotifications(for:)``).
    /// See <https://www.postgresql.org/docs/current/sql-notify.html>.
    /// - Parameters:
    ///   - pool: the pool whose connections run the reads.
    ///   - listenerConfiguration: how the listener connects (a server reached directly, not through a
    ///     transaction pooler).
    ///   - bufferingPolicy: what to keep of values the iteration has not taken yet; by default every value.
    public func values(
        in pool: PostgresPool, listeningOn listenerConfiguration: PostgresConfiguration,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        values(in: pool, listeningOn: listenerConfiguration, firstReconnectionDelay: 0, bufferingPolicy: bufferingPolicy)
    }

    /// ``values(in:listeningOn:bufferingPolicy:)`` whose lost listener first waits `firstReconnectionDelay`
    /// seconds before it connects again: the tests commit while no session listens.
    func values(
        in pool: PostgresPool, listeningOn listenerConfiguration: PostgresConfiguration?,
        firstReconnectionDelay: Double,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(observation: self, bufferingPolicy: bufferingPolicy) { values in
            PostgresValueObserver(
                values: values, pool: pool, listenerConfiguration: listenerConfiguration ?? pool.configuration,
                firstReconnectionDelay: firstReconnectionDelay
            ).start()
        }
    }
}

extension PostgresPool {
    /// PostgreSQL's observation: a listener of its own hears commits through `LISTEN`/`NOTIFY`, and
    /// `pg_locks` tells the tables each read used (``PostgresValueObserver``).
    @_spi(RecordEngine)
    public func observe<Value: Sendable>(_ values: ObservedValues<Value>) {
        PostgresValueObserver(values: values, pool: self, listenerConfiguration: configuration).start()
    }
}

extension PostgresReplicaPool {
    /// Observed on ``primary``: a standby sends no notification, and a replica's read may be older than
    /// the commit it was notified of.
    @_spi(RecordEngine)
    public func observe<Value: Sendable>(_ values: ObservedValues<Value>) {
        primary.observe(values)
    }
}
#endif
