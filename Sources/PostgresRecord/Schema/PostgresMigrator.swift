#if PostgreSQL
import Foundation
import SQLiteRecord

/// Creates and evolves a PostgreSQL schema through named migrations, applied in the order they were
/// registered, each once, the way SQLiteRecord's `DatabaseMigrator` does on SQLite.
///
/// ```swift
/// var migrator = PostgresMigrator()
/// migrator.registerMigration("create countries") { connection in try Country.createTable(in: connection) }
/// try await migrator.migrate(pool)
/// ```
///
/// The migrations applied are recorded in the table `postgresrecord_migrations`. Several app instances that
/// start at once migrate once: `migrate` runs in one transaction that first takes a transaction-level
/// advisory lock (`pg_advisory_xact_lock`), so a second instance waits until the first committed, then
/// finds every migration applied. When a migration throws, every migration of that call rolls back with
/// it (PostgreSQL's DDL is transactional), and the error is passed on. See
/// <https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS>.
public struct PostgresMigrator: Sendable {
    /// The advisory lock key that serializes migrations: the same for every instance of the app.
    public static let advisoryLockKey: Int64 = 0x5052_4543_4F52_44  // "PRECORD"

    private var migrations: [(String, @Sendable (PostgresConnection) throws -> Void)] = []

    /// An empty migrator.
    public init() {}

    /// The names of the registered migrations, in order.
    public var migrationNames: [String] { migrations.map(\.0) }

    /// Adds a migration; `name` identifies it in the ledger forever: never rename a shipped one. Two
    /// migrations of one name make `migrate` throw before anything runs.
    public mutating func registerMigration(
        _ name: String, _ migrate: @escaping @Sendable (PostgresConnection) throws -> Void
    ) {
        migrations.append((name, migrate))
    }

    /// Applies the migrations not applied yet, on one connection in one transaction, and returns their
    /// names.
    /// - Throws: what a migration throws (nothing is applied then), or ``PostgresError``.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [String] {
        var seen: Set<String> = []
        for (name, _) in migrations where !seen.insert(name).inserted {
            throw PostgresError(kind: .client, message: "two migrations are named \"\(name)\"")
        }
        return try connection.transaction {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [PostgresValue(Self.advisoryLockKey)])
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS postgresrecord_migrations (identifier TEXT PRIMARY KEY, "
                    + "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            let rows = try connection.query("SELECT identifier FROM postgresrecord_migrations")
            let applied = Set(try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) })
            var ran: [String] = []
            for (name, migrate) in migrations where !applied.contains(name) {
                try migrate(connection)
                try connection.execute(
                    "INSERT INTO postgresrecord_migrations (identifier) VALUES ($1)", [try PostgresValue(text: name)])
                ran.append(name)
            }
            return ran
        }
    }

    /// Applies the migrations not applied yet through a connection of `pool`; see `migrate(_:)`.
    /// - Throws: as `migrate(_:)`.
    @discardableResult
    public func migrate(_ pool: PostgresPool) async throws -> [String] {
        let migrator = self
        return try await pool.writeWithoutTransaction { connection in try migrator.migrate(connection) }
    }
}

extension Record {
    /// Creates the type's table on PostgreSQL: the statements of ``postgresCreateTableSQL(ifNotExists:)``, then,
    /// unless `notifiesChanges` is false, the change notifications a `ValueObservation` listens to (the
    /// trigger of ``PostgresConnection/installChangeNotifications(for:)``), in one transaction.
    /// - Parameters:
    ///   - ifNotExists: true leaves an existing table as it is (its change notifications are installed all
    ///     the same, unless `notifiesChanges` is false).
    ///   - notifiesChanges: false creates no trigger: no observation hears of the table's commits until
    ///     ``PostgresConnection/installChangeNotifications(for:)`` runs (an observation that may install it
    ///     does so itself).
    /// - Throws: ``PostgresError`` (42P07 when the table exists and `ifNotExists` is false; 42501 when the
    ///   session may not create the trigger function in its current schema), and what `createTableSQL`
    ///   throws: `RecordError.identifierTooLong` for a table, column or index name of more than 63 bytes,
    ///   before anything runs.
    public static func createTable(
        in connection: PostgresConnection, ifNotExists: Bool = false, notifiesChanges: Bool = true
    ) throws {
        try connection.transaction {
            try connection.execute(try createTableSQL(ifNotExists: ifNotExists, dialect: .postgres))
            if notifiesChanges { try connection.installChangeNotifications(for: [tableName]) }
        }
    }

    /// The PostgreSQL `CREATE TABLE` statement (and `CREATE INDEX` for each parent association) the type
    /// needs: columns typed by the value table (`BIGINT`, `TEXT`, `TIMESTAMPTZ`, `UUID`, `NUMERIC`,
    /// `JSONB`...), NOT NULL for non-optional properties, a rowid key as
    /// `BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`.
    /// - Throws: `SchemaProbeError` when the type cannot be probed; `RecordError.identifierTooLong` for a
    ///   table, column or index name of more than 63 bytes (PostgreSQL's NAMEDATALEN - 1).
    public static func postgresCreateTableSQL(ifNotExists: Bool = false) throws -> String {
        try createTableSQL(ifNotExists: ifNotExists, dialect: .postgres)
    }
}
#endif
