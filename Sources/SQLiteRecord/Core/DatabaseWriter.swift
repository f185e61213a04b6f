/// Thread-safe access to a database for reading and writing: what ``DatabaseQueue`` and ``DatabasePool``
/// have in common, and what ``RecordStore/use(_:)`` takes. Every writer is also an ``AsyncDatabaseWriter``,
/// the engine-neutral form the Record calls through a writer take.
///
/// Writes are serialized: one at a time, each in an IMMEDIATE transaction that commits when its closure
/// returns and rolls back when it throws.
///
/// ```swift
/// func importCities(_ cities: [City], into writer: some DatabaseWriter) throws {
///     try writer.write { db in
///         var cities = cities
///         try City.save(db, &cities)
///     }
/// }
/// ```
public protocol DatabaseWriter: DatabaseReader, AsyncDatabaseWriter where Connection == Database {
    /// Runs `body` in an IMMEDIATE transaction, serialized with every other write, blocking the calling
    /// thread until it is done: committed when `body` returns, rolled back when it throws. Nothing in
    /// `body` commits but the transaction itself. See <https://www.sqlite.org/lang_transaction.html>.
    /// - Throws: what `body` throws (after the rollback), ``DatabaseError`` from BEGIN or COMMIT, with
    ///   `SQLITE_READONLY` when the database cannot be written, or with `SQLITE_MISUSE` when called from
    ///   inside another `read` or `write` of the same queue or pool.
    func write<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` in an IMMEDIATE transaction, serialized with every other write, suspending the calling
    /// task (not a thread) until it is done; cancelling the task interrupts the statement running for it,
    /// and the transaction rolls back.
    /// - Throws: what `body` throws (after the rollback), ``DatabaseError`` from BEGIN or COMMIT, with
    ///   `SQLITE_INTERRUPT` when the task was cancelled while a statement ran, or `CancellationError` when it
    ///   was cancelled before `body` started.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `body` with the writer connection outside any transaction, serialized with every other write:
    /// for the statements SQLite refuses inside a transaction (`VACUUM`, some pragmas).
    /// See <https://www.sqlite.org/lang_vacuum.html>.
    /// - Throws: what `body` throws, or ``DatabaseError`` with `SQLITE_MISUSE` when called from inside
    ///   another `read` or `write` of the same queue or pool.
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` with the writer connection outside any transaction, suspending the calling task meanwhile.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_INTERRUPT` when the task was cancelled
    ///   while a statement ran; `CancellationError` when it was cancelled before `body` started.
    func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseQueue: DatabaseWriter {}

extension DatabasePool: DatabaseWriter {}
