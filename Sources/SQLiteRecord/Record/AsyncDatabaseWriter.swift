/// A database of any engine that runs transactions for async code: SQLite's ``DatabaseQueue`` and
/// ``DatabasePool``, PostgreSQL's `PostgresPool` and `PostgresReplicaPool` (the `PostgresRecord` module).
/// The Record calls that run in a transaction of their own take one (`try await city.save(pool)`,
/// `try await City.fetch(pool, where: ["country_id": 1])`), so code written against it runs on either engine.
///
/// ```swift
/// func importCities(_ cities: [City], into writer: some AsyncDatabaseWriter) async throws {
///     var cities = cities
///     try await City.save(writer, &cities)            // one transaction, all or nothing
/// }
///
/// try await importCities(cities, into: DatabaseQueue(path: "world.sqlite"))
/// try await importCities(cities, into: PostgresPool("postgresql:///world"))
/// ```
///
/// A `read` runs in a read-only transaction: one snapshot on SQLite, `BEGIN READ ONLY` on PostgreSQL (on a
/// replica pool, one of its replicas). A `write` runs in a transaction that commits when its closure returns
/// and rolls back when it throws. Cancelling the task interrupts the statement running for it and rolls the
/// transaction back. The names are GRDB's `DatabaseReader`/`DatabaseWriter`.
public protocol AsyncDatabaseWriter<Connection>: AnyObject, Sendable {
    /// The engine's connection that `read` and `write` hand their closures: ``Database`` on SQLite.
    associatedtype Connection: DatabaseConnection

    /// Runs `body` in a read-only transaction on one of the writer's connections, suspending the calling
    /// task meanwhile, and returns its value.
    /// - Throws: what `body` throws; the engine's error for a write in `body` (SQLite's `SQLITE_READONLY`,
    ///   PostgreSQL's SQLSTATE 25006) or for BEGIN and COMMIT; `CancellationError` (or SQLite's
    ///   `SQLITE_INTERRUPT`) when the task was cancelled.
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` in a write transaction, serialized as the engine serializes writes, suspending the
    /// calling task meanwhile: committed when `body` returns, rolled back when it throws.
    /// - Throws: what `body` throws (after the rollback); the engine's error for BEGIN or COMMIT
    ///   (PostgreSQL's `connectionLost` during COMMIT: the outcome is unknown); `CancellationError` (or
    ///   SQLite's `SQLITE_INTERRUPT`) when the task was cancelled, and nothing is committed then.
    func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` on the connection that writes, serialized with the other writes as `write` is, but
    /// outside any transaction: `body` opens its own (a ``DatabaseMigrator`` runs each migration in one,
    /// and on SQLite turns `PRAGMA foreign_keys` off between them), and each statement it runs outside one
    /// commits on its own.
    /// - Throws: what `body` throws; `CancellationError` when the task was cancelled before `body` started.
    func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Starts observing `values`' observation in this writer: the engine hears commits and finds the
    /// tables each read used its own way, reads with ``ObservedValues/read(on:)``, hands values to
    /// ``ObservedValues/deliver(_:)``, and stops when ``ObservedValues/onStop(_:)`` says. See ``ValueObservation``.
    @_spi(RecordEngine)
    func observe<Value: Sendable>(_ values: ObservedValues<Value>)
}
