/// SQLite's side of ``DatabaseMigrator``: its ledger table, its IMMEDIATE transactions, and the foreign key
/// checks that SQLite leaves to the caller (`PRAGMA foreign_keys` off around a rebuild, `PRAGMA
/// foreign_key_check` before COMMIT). See <https://www.sqlite.org/lang_altertable.html#otheralter>.
extension Database {
    /// The table that records the applied migrations, one row per identifier, in the order applied.
    static let migrationLedgerTable = "sqliterecord_migrations"

    @_spi(RecordEngine)
    public var databaseLocation: String { path }

    @_spi(RecordEngine)
    public func appliedMigrationIdentifiers() throws -> [String] {
        guard try tableExists(Self.migrationLedgerTable) else { return [] }
        let sql = "SELECT \"identifier\" FROM \(SQLIdentifier.quoted(Self.migrationLedgerTable)) ORDER BY rowid"
        return try withStatement(sql: sql, arguments: []) { statement in
            var identifiers: [String] = []
            while try statement.step() { identifiers.append(statement.string(at: 0)) }
            return identifiers
        }
    }

    @_spi(RecordEngine)
    public func checkPendingMigrations(_ pending: [(identifier: String, foreignKeyChecks: MigrationForeignKeyChecks)])
        throws
    {
        guard isInsideTransaction, let needsForeignKeysOff = pending.first(where: { $0.foreignKeyChecks == .deferred })
        else { return }
        throw MigrationError.foreignKeysCannotBeDisabledInTransaction(migration: needsForeignKeysOff.identifier)
    }

    @_spi(RecordEngine)
    @discardableResult
    public func applyMigration(
        _ identifier: String, foreignKeyChecks: MigrationForeignKeyChecks, isApplied: () throws -> Bool,
        migrate: () throws -> Void
    ) throws -> Bool {
        guard foreignKeyChecks == .deferred, try foreignKeysEnabled() else {
            return try applyInTransaction(identifier, isApplied: isApplied, migrate: migrate)
        }
        try setForeignKeys(false)
        let didRun: Bool
        do {
            didRun = try applyInTransaction(identifier, isApplied: isApplied, migrate: migrate)
        } catch {
            try? setForeignKeys(true)
            throw error
        }
        try setForeignKeys(true)
        return didRun
    }

    /// Runs one migration and records it, in one IMMEDIATE transaction (a savepoint inside the caller's),
    /// checked with `PRAGMA foreign_key_check` before COMMIT whatever the connection enforces.
    private func applyInTransaction(
        _ identifier: String, isApplied: () throws -> Bool, migrate: () throws -> Void
    ) throws -> Bool {
        try transaction(.immediate) {
            if try isApplied() { return false }
            let ledger = SQLIdentifier.quoted(Self.migrationLedgerTable)
            try execute(sql: "CREATE TABLE IF NOT EXISTS \(ledger) (\"identifier\" TEXT NOT NULL PRIMARY KEY)")
            try runRefusingForeignKeysPragma(identifier, migrate)
            try checkForeignKeys(after: identifier)
            try execute(sql: "INSERT INTO \(ledger) (\"identifier\") VALUES (?)", arguments: [identifier])
            return true
        }
    }

    /// Runs a migration's body with `PRAGMA foreign_keys` refused by the connection's authorizer; throws
    /// ``MigrationError/foreignKeysPragmaInMigration(migration:)`` when the body ran one, even when it caught
    /// the error the refused statement threw.
    private func runRefusingForeignKeysPragma(_ identifier: String, _ migrate: () throws -> Void) throws {
        let transactions = transactionGuard
        let wasRefusing = transactions.refusesForeignKeysPragma
        transactions.refusesForeignKeysPragma = true
        transactions.refusedForeignKeysPragma = false
        defer {
            transactions.refusesForeignKeysPragma = wasRefusing
            transactions.refusedForeignKeysPragma = false
        }
        // The authorizer sees a statement when it is prepared: one prepared before, in the cache, would not
        // be seen again.
        statementCache.removeAll()
        do {
            try migrate()
        } catch {
            if transactions.refusedForeignKeysPragma {
                throw MigrationError.foreignKeysPragmaInMigration(migration: identifier)
            }
            throw error
        }
        if transactions.refusedForeignKeysPragma {
            throw MigrationError.foreignKeysPragmaInMigration(migration: identifier)
        }
    }

    /// Throws for the first row `PRAGMA foreign_key_check` reports.
    private func checkForeignKeys(after identifier: String) throws {
        // Prepared anew each time: the pragma compiles the schema of the moment into the statement.
        let statement = try prepareStatement(sql: "PRAGMA foreign_key_check")
        guard try statement.step() else { return }
        let table = statement.string(at: 0)
        let rowID = statement.isNull(at: 1) ? nil : statement.int64(at: 1)
        let parentTable = statement.string(at: 2)
        var count = 1
        while try statement.step() { count += 1 }
        throw MigrationError.foreignKeyViolation(
            migration: identifier, table: table, rowID: rowID, parentTable: parentTable, violationCount: count)
    }

    /// Whether the connection enforces foreign keys now.
    private func foreignKeysEnabled() throws -> Bool {
        // Not from the statement cache: SQLite reads the setting when it prepares the pragma, not when it
        // runs it, so a cached statement would answer what was true then.
        let statement = try prepareStatement(sql: "PRAGMA foreign_keys")
        return try statement.step() && statement.int64(at: 0) != 0
    }

    /// Turns foreign key enforcement on or off; outside a transaction only, where the pragma has effect.
    private func setForeignKeys(_ on: Bool) throws {
        // Not cached, for the reason given in foreignKeysEnabled: the pragma acts when it is prepared.
        let statement = try prepareStatement(sql: on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        while try statement.step() {}
    }
}
