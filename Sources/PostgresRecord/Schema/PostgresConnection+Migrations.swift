#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// PostgreSQL's side of `DatabaseMigrator`: its ledger table and the advisory lock that serializes the
/// migrations of every app instance. PostgreSQL's DDL is transactional, so a migration that throws leaves
/// nothing behind. See <https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS>.
extension PostgresConnection {
    /// The advisory lock key that serializes migrations (and the installation of change notifications):
    /// the same for every instance of the app. Each migration's transaction takes it with
    /// `pg_advisory_xact_lock`, so a second instance that starts at once waits until the first committed,
    /// then finds the migration applied and skips it.
    public static let migrationLockKey: Int64 = 0x5052_4543_4F52_44  // "PRECORD"

    /// The table that records the applied migrations: `identifier TEXT PRIMARY KEY`, `applied_at TIMESTAMPTZ`.
    static let migrationLedgerTable = "postgresrecord_migrations"

    @_spi(RecordEngine)
    public var databaseLocation: String { serverLocation }

    @_spi(RecordEngine)
    public func appliedMigrationIdentifiers() throws -> [String] {
        let ledger = SQLIdentifier.quoted(Self.migrationLedgerTable)
        // The catalog read with the statement's snapshot, not `to_regclass`: that one looks the name up in the
        // session's catalog cache, which taking an advisory lock does not refresh, so a migration waiting on
        // the lock would not see the ledger another instance created meanwhile, and run again.
        let exists = try query(
            "SELECT EXISTS (SELECT FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
                + "ON n.oid = c.relnamespace WHERE c.relname = $1 AND n.nspname = current_schema())",
            [try PostgresValue(text: Self.migrationLedgerTable)])
        guard try exists[0].decode(Bool.self, at: 0) else { return [] }
        // ctid breaks ties between the entries of one transaction, which share `applied_at`: an append-only
        // table keeps its rows in the order they were inserted.
        let rows = try query("SELECT identifier FROM \(ledger) ORDER BY applied_at, ctid")
        return try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }
    }

    @_spi(RecordEngine)
    public func checkPendingMigrations(
        _ pending: [(identifier: String, foreignKeyChecks: MigrationForeignKeyChecks)]
    ) throws {}

    @_spi(RecordEngine)
    @discardableResult
    public func applyMigration(
        _ identifier: String, foreignKeyChecks: MigrationForeignKeyChecks, isApplied: () throws -> Bool,
        migrate: () throws -> Void
    ) throws -> Bool {
        try transaction {
            _ = try query("SELECT pg_advisory_xact_lock($1)", [PostgresValue(Self.migrationLockKey)])
            if try isApplied() { return false }
            let ledger = SQLIdentifier.quoted(Self.migrationLedgerTable)
            try execute(
                "CREATE TABLE IF NOT EXISTS \(ledger) (identifier TEXT PRIMARY KEY, "
                    + "applied_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())")
            if foreignKeyChecks == .deferred { try execute("SET CONSTRAINTS ALL DEFERRED") }
            try migrate()
            try execute(
                "INSERT INTO \(ledger) (identifier, applied_at) VALUES ($1, clock_timestamp())",
                [try PostgresValue(text: identifier)])
            return true
        }
    }
}
#endif
