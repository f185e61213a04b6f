#if PostgreSQL
/// What ``PostgresPool`` and ``PostgresReplicaPool`` have in common, and what the record calls that run in
/// a transaction of their own take (`City.fetch(pool, where:)`, `city.save(pool)`): read-only and read-write
/// transactions on some connection. The names are SQLiteRecord's `DatabaseWriter`, which GRDB's are.
///
/// ```swift
/// func importCities(_ cities: [City], into writer: some PostgresDatabaseWriter) async throws {
///     var cities = cities
///     try await City.save(writer, &cities)
/// }
/// ```
public protocol PostgresDatabaseWriter: AnyObject, Sendable {
    /// Runs `body` in a read-only transaction (`BEGIN ... READ ONLY` ... `ROLLBACK`) and returns its value:
    /// any write in it fails with SQLSTATE 25006. Which server it runs on is the writer's choice: a
    /// ``PostgresPool``'s one server, or one of a ``PostgresReplicaPool``'s replicas.
    /// - Throws: what `body` throws, or ``PostgresError``; `CancellationError` when the task was cancelled.
    func read<T: Sendable>(
        isolation: IsolationLevel?, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws, on the
    /// server that takes writes, and returns its value; with `retryingSerializationFailures` above zero a
    /// body failing with SQLSTATE 40001 or 40P01 runs again, up to that many more times.
    /// - Throws: what `body` throws, or ``PostgresError``; `CancellationError` when the task was cancelled
    ///   (nothing is committed then).
    func write<T: Sendable>(
        isolation: IsolationLevel?, retryingSerializationFailures: Int,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T
}

extension PostgresPool: PostgresDatabaseWriter {}
#endif
