import Foundation

/// A read of the database whose result is followed as the database changes: the current value first, then
/// a fresh one after each commit that changed a table the read used. The same observation runs on every
/// engine: its read takes the connection it runs on (`some DatabaseConnection`), and
/// ``values(in:bufferingPolicy:)`` takes any ``AsyncDatabaseWriter``.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Note.all().order(Column("title")).fetch(db)
/// }
/// for try await notes in observation.values(in: queue) {  // or a PostgresPool
///     print(notes.map(\.title))
/// }
/// ```
///
/// Each engine hears commits and finds the tables a read used its own way:
///
/// - SQLite: the tables are those the read's statements read, as SQLite's authorizer reports them while
///   the statements are prepared. A commit is found by the writer connection's commit hook; the fresh value
///   is read once the write has ended, in a read of its own (on a ``DatabaseQueue``, on the queue in the
///   write's own turn, before `write` returns; on a ``DatabasePool``, on a reader, beside the writer), so it is
///   never a value from a transaction that rolled back, and never older than the commit. A read of rows by
///   their rowid key, through SQL the library wrote (`fetchOne(_:id:)`, `fetch(_:ids:)`, a `where:`
///   dictionary or a request filtered on the key), depends on those rows only: the update hook tells which
///   rows a commit changed, and a change it does not report row by row counts as a change of the whole
///   table. See <https://www.sqlite.org/c3ref/update_hook.html> and the Observation article. Commits made by
///   other connections to the same file (another process, another queue) are found by polling
///   `PRAGMA data_version` (see ``checkingOtherConnections(every:)``).
///   See <https://www.sqlite.org/c3ref/set_authorizer.html> and
///   <https://www.sqlite.org/pragma.html#pragma_data_version>.
/// - PostgreSQL (the `PostgresRecord` module): the tables are those the read's statements locked, as the
///   server's `pg_locks` reports them at the end of each read, and commits, by any client, are heard
///   through `LISTEN`/`NOTIFY` on a connection of the observation's own, from a trigger on each table. See
///   the PostgreSQL article.
///
/// The tables are found again at each read, so a read whose tables depend on the data stays followed. The
/// names are GRDB's.
public struct ValueObservation<Value: Sendable>: Sendable {
    /// The observed read.
    let fetch: @Sendable (any DatabaseConnection) throws -> Value
    /// Tells two values apart; nil delivers every fresh value.
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?
    /// Seconds between two checks for commits of other connections; nil does not check. SQLite only.
    var otherConnectionsInterval: TimeInterval? = 1

    /// An observation of `fetch`, a read on any engine: run at once when iteration starts, and again after
    /// each commit that changed a table it read. It runs in a read-only transaction of the writer it
    /// observes (one snapshot: SQLite's read, PostgreSQL's `REPEATABLE READ READ ONLY`).
    /// - Parameter fetch: the read, given the connection it runs on; what it throws ends the observation's
    ///   sequence with that error (PostgreSQL reads a lost connection again: see the PostgreSQL article).
    public static func tracking(
        _ fetch: @escaping @Sendable (any DatabaseConnection) throws -> Value
    ) -> ValueObservation {
        ValueObservation(fetch: fetch)
    }

    /// An observation of `fetch`, a read that uses what only SQLite's ``Database`` has (`db.scalar`,
    /// `db.execute`). Chosen when the read's body needs a ``Database``; a read that any engine can run takes the
    /// other `tracking(_:)`, whose read is given `any DatabaseConnection`.
    ///
    /// Observed in a ``DatabaseQueue`` or a ``DatabasePool``; in a writer of another engine the sequence
    /// ends at once with ``DatabaseError`` `SQLITE_MISUSE`, which says so.
    /// - Parameter fetch: the read; what it throws ends the observation's sequence with that error.
    @_disfavoredOverload
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation {
        ValueObservation { connection in
            guard let db = connection as? Database else {
                throw DatabaseError(
                    resultCode: .misuse,
                    message: "this observation's read takes SQLite's Database, and it was given a "
                        + "\(type(of: connection)): observe it in a DatabaseQueue or a DatabasePool, or write "
                        + "the read over the connection it is given (some DatabaseConnection)")
            }
            return try fetch(db)
        }
    }

    /// The same observation, delivering a fresh value only when it differs from the last one delivered
    /// (as `isDuplicate` tells).
    /// - Parameter isDuplicate: true when two values are the same to the observer.
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation {
        var observation = self
        observation.isDuplicate = isDuplicate
        return observation
    }

    /// The same observation, checking every `interval` seconds whether another connection (another process,
    /// another queue or pool on the same file) committed, with `PRAGMA data_version`, and reading again when
    /// one did. One cheap pragma per interval on the writer connection: the observed read itself is not
    /// polled. The default is 1 second; nil checks never (only this queue's or pool's own writes are seen).
    /// An in-memory database has no other connection and is never checked. SQLite only: PostgreSQL hears
    /// every client's commits, and ignores this setting.
    /// See <https://www.sqlite.org/pragma.html#pragma_data_version>.
    /// - Parameter interval: seconds between checks, at least 0.001; nil turns the checks off.
    public func checkingOtherConnections(every interval: TimeInterval?) -> ValueObservation {
        var observation = self
        observation.otherConnectionsInterval = interval.map { max($0, 0.001) }
        return observation
    }

    /// The observed values as an asynchronous sequence: the current value, then a fresh value after each
    /// commit that changed what the read used.
    ///
    /// The observation starts when iteration starts. Ending the iteration (a `break`, the end of the task,
    /// its cancellation) stops it: it no longer hears of commits and lets the writer go. An error of the
    /// read ends the sequence with that error.
    /// - Parameters:
    ///   - writer: a ``DatabaseQueue`` or a ``DatabasePool``; on PostgreSQL a `PostgresPool`, or a
    ///     `PostgresReplicaPool` (observed on its primary, whose commits notify).
    ///   - bufferingPolicy: what to keep of values the iteration has not taken yet; by default every value.
    public func values(
        in writer: some AsyncDatabaseWriter,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(observation: self, bufferingPolicy: bufferingPolicy) { values in
            writer.observe(values)
        }
    }

    /// ``values(in:bufferingPolicy:)`` in a reader typed as SQLite's ``DatabaseReader`` (a ``DatabaseQueue``
    /// or a ``DatabasePool``), as code written before the observation took any writer has it.
    /// - Parameters:
    ///   - reader: a ``DatabaseQueue`` or a ``DatabasePool``.
    ///   - bufferingPolicy: what to keep of values the iteration has not taken yet; by default every value.
    @_disfavoredOverload
    public func values(
        in reader: some DatabaseReader,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(observation: self, bufferingPolicy: bufferingPolicy) { values in
            ValueObserver(values: values, reader: reader).start()
        }
    }
}

extension ValueObservation where Value: Equatable {
    /// The same observation, delivering a fresh value only when it differs from the last one delivered.
    public func removeDuplicates() -> ValueObservation {
        removeDuplicates(by: ==)
    }
}
