/// Creates and evolves a database schema through named migrations, applied in the order they were
/// registered, each once.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("create countries and cities") { db in
///     try db.execute(sql: "CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
///     try db.execute(sql: "CREATE TABLE cities (id INTEGER PRIMARY KEY, country_id INTEGER REFERENCES countries(id))")
/// }
/// migrator.registerMigration("index cities by country") { db in
///     try db.execute(sql: "CREATE INDEX cities_country_id ON cities(country_id)")
/// }
/// try migrator.migrate(queue)
/// ```
///
/// The migrations applied are recorded in the database itself, in the table `sqliterecord_migrations`, so
/// that `migrate` applies only those that have not run yet, and running it again does nothing. Each
/// migration runs in an IMMEDIATE transaction of its own with its ledger entry: when it throws, its changes
/// and its entry are rolled back together, later migrations do not run, and the error is passed on.
///
/// A database whose ledger records a migration this migrator does not know (a newer version of the app
/// migrated it) is refused with ``MigrationError/unknownAppliedMigrations(unknown:path:)`` before anything
/// changes: never register a migration, ship it, then rename or remove it.
///
/// A migration never commits a database that fails `PRAGMA foreign_key_check`: the check runs after each
/// migration, before its COMMIT (whether or not the connection enforces foreign keys), and a violation rolls
/// that migration back: ``MigrationError/foreignKeyViolation(migration:table:rowID:parentTable:violationCount:)``.
/// A migration body that runs `PRAGMA foreign_keys` is refused
/// (``MigrationError/foreignKeysPragmaInMigration(migration:)``) and rolled back: SQLite ignores the pragma
/// inside the migration's transaction, so a rebuild that counted on it would cascade-delete or null out the
/// rows that reference the rebuilt table. A rebuild registers with ``ForeignKeyChecks/deferred``, the
/// table-rebuild mode. See <https://www.sqlite.org/pragma.html#pragma_foreign_key_check> and
/// <https://www.sqlite.org/lang_altertable.html#otheralter>.
///
/// The names follow GRDB's `DatabaseMigrator`, the reference Swift implementation of the idea.
public struct DatabaseMigrator: Sendable {
    /// How foreign keys are enforced while a migration runs.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys stay as the connection has them: on by default, when every statement of the migration
        /// is checked as it runs and `PRAGMA foreign_key_check` runs before COMMIT. The default.
        case immediate
        /// The table-rebuild mode: foreign keys are off while the migration runs, and `PRAGMA
        /// foreign_key_check` runs before its COMMIT (on a connection that does not enforce foreign keys,
        /// only the check differs from ``immediate``): what
        /// SQLite's 12-step procedure for schema changes that ALTER TABLE cannot make (dropping
        /// a column with a constraint, changing a column's type, adding a foreign key) requires, since
        /// dropping and renaming a table with foreign keys on would delete or rewrite the rows that reference
        /// it. See <https://www.sqlite.org/lang_altertable.html#otheralter>.
        ///
        /// The migrator turns foreign keys off before BEGIN (`PRAGMA foreign_keys` does nothing inside a
        /// transaction) and on again after COMMIT or ROLLBACK; the body itself must not run the pragma. Such a
        /// migration cannot run inside a transaction of the caller's.
        case deferred
    }

    /// One registered migration.
    struct Migration: Sendable {
        let identifier: String
        let foreignKeyChecks: ForeignKeyChecks
        let migrate: @Sendable (Database) throws -> Void
    }

    /// The table that records the applied migrations, one row per identifier, in the order applied.
    static let ledgerTable = "sqliterecord_migrations"

    private var migrations: [Migration] = []
    /// The first identifier registered twice: `registerMigration` cannot throw, so `migrate` reports it.
    private var duplicateIdentifier: String?

    /// A migrator with no migrations.
    public init() {}

    /// The identifiers of the registered migrations, in the order they were registered (and are applied).
    public var migrationIdentifiers: [String] { migrations.map(\.identifier) }

    /// Registers a migration, to run after the ones registered before it.
    ///
    /// A migration's code must not change once it has shipped: databases that applied it keep its result
    /// forever. Later changes go in later migrations. Creating tables from the current model types
    /// (``Record/createTable(in:ifNotExists:)``) inside a migration ties the migration to the types' current
    /// shape; ``Record/createTableSQL(ifNotExists:)`` prints SQL to paste instead.
    /// - Parameters:
    ///   - identifier: the migration's name, unique within the migrator; it is what the database records.
    ///   - foreignKeyChecks: ``ForeignKeyChecks/deferred`` for a migration that rebuilds a table (SQLite's
    ///     12-step procedure, <https://www.sqlite.org/lang_altertable.html#otheralter>); the default keeps
    ///     foreign keys on.
    ///   - migrate: the migration: statements run on the `Database` it receives, inside its transaction.
    public mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .immediate,
        migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        if duplicateIdentifier == nil, migrations.contains(where: { $0.identifier == identifier }) {
            duplicateIdentifier = identifier
        }
        migrations.append(Migration(identifier: identifier, foreignKeyChecks: foreignKeyChecks, migrate: migrate))
    }

    // MARK: Migrating

    /// Applies the migrations that have not run yet, in order, each in an IMMEDIATE transaction of its own.
    ///
    /// `writer` is a ``DatabaseQueue`` or a ``DatabasePool`` (any ``DatabaseWriter``). Its writer connection is
    /// taken through `writeWithoutTransaction`, which serializes access to it without opening a transaction:
    /// `write` would wrap everything in one transaction,
    /// where `PRAGMA foreign_keys` cannot be changed and a failing migration would undo the ones before it.
    /// The migrator opens each migration's transaction itself.
    /// - Throws: ``MigrationError/unknownAppliedMigrations(unknown:path:)`` before anything changes when the
    ///   database was migrated by a newer version;
    ///   ``MigrationError/foreignKeyViolation(migration:table:rowID:parentTable:violationCount:)`` when a
    ///   migration leaves a row whose foreign key points nowhere (that migration is rolled back);
    ///   ``MigrationError/foreignKeysPragmaInMigration(migration:)`` when a migration's body runs
    ///   `PRAGMA foreign_keys` (that migration is rolled back);
    ///   ``MigrationError/duplicateMigration(_:)``; what a migration throws, unchanged (that migration is
    ///   rolled back, those before it stay applied); ``DatabaseError`` from BEGIN, COMMIT or the ledger,
    ///   or with `SQLITE_MISUSE` when called from inside `read` or `write` on the same queue or pool.
    public func migrate(_ writer: any DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in try run(db, upTo: nil) }
    }

    /// Applies the migrations that have not run yet, up to and including `identifier`, as ``migrate(_:)-5g3eh``
    /// does; later ones are left for another call (a test of an intermediate state, say).
    /// - Throws: as ``migrate(_:)-5g3eh``, and ``MigrationError/unregisteredMigration(_:)`` when no migration has
    ///   that identifier.
    public func migrate(_ writer: any DatabaseWriter, upTo identifier: String) throws {
        try writer.writeWithoutTransaction { db in try run(db, upTo: identifier) }
    }

    /// The async twin of ``migrate(_:)-5g3eh``: the calling task is suspended, not its thread, while the queue
    /// or pool runs the migrations.
    /// - Throws: as ``migrate(_:)-5g3eh``, and `CancellationError` when the task was cancelled before they
    ///   started.
    public func migrate(_ writer: any DatabaseWriter) async throws {
        try await writer.writeWithoutTransaction { db in try run(db, upTo: nil) }
    }

    /// Applies the migrations that have not run yet on `db`.
    ///
    /// Outside a transaction, each migration runs in an IMMEDIATE transaction of its own, as with a queue.
    /// Inside a transaction of the caller's (``DatabaseQueue/write(_:)-3p679``), each runs in a savepoint of it: the
    /// migrations and whatever else the transaction does (a first import of data, say) commit or roll back
    /// together, and a migration needing ``ForeignKeyChecks/deferred`` is refused before anything runs.
    /// - Throws: as ``migrate(_:)-5g3eh``, and ``MigrationError/foreignKeysCannotBeDisabledInTransaction(migration:)``
    ///   inside a transaction when a pending migration needs foreign keys off.
    public func migrate(_ db: Database) throws {
        try run(db, upTo: nil)
    }

    /// Applies the migrations that have not run yet on `db`, up to and including `identifier`.
    /// - Throws: as the other `migrate` calls, and ``MigrationError/unregisteredMigration(_:)`` when no
    ///   migration has that identifier.
    public func migrate(_ db: Database, upTo identifier: String) throws {
        try run(db, upTo: identifier)
    }

    // MARK: Reading the ledger

    /// The identifiers the database records as applied, in the order they were applied; empty when no
    /// migration ever ran. Identifiers this migrator does not know (a newer version's) are included.
    /// - Throws: ``DatabaseError`` when the ledger cannot be read.
    public func appliedMigrations(in db: Database) throws -> [String] {
        guard try db.tableExists(Self.ledgerTable) else { return [] }
        let sql = "SELECT \"identifier\" FROM \(SQLIdentifier.quoted(Self.ledgerTable)) ORDER BY rowid"
        return try db.withStatement(sql: sql, arguments: []) { statement in
            var identifiers: [String] = []
            while try statement.step() { identifiers.append(statement.string(at: 0)) }
            return identifiers
        }
    }

    /// True when every registered migration has been applied to the database.
    /// - Throws: ``DatabaseError`` when the ledger cannot be read.
    public func hasCompletedMigrations(in db: Database) throws -> Bool {
        let applied = Set(try appliedMigrations(in: db))
        return migrations.allSatisfy { applied.contains($0.identifier) }
    }

    // MARK: Implementation

    /// Applies the pending migrations up to `target` (all when nil).
    private func run(_ db: Database, upTo target: String?) throws {
        if let duplicateIdentifier { throw MigrationError.duplicateMigration(duplicateIdentifier) }
        var candidates = migrations[...]
        if let target {
            guard let last = migrations.firstIndex(where: { $0.identifier == target }) else {
                throw MigrationError.unregisteredMigration(target)
            }
            candidates = migrations[...last]
        }
        // The refusal comes first, before the ledger or anything else is written.
        let applied = try checkedAppliedMigrations(in: db)
        let pending = candidates.filter { !applied.contains($0.identifier) }
        guard !pending.isEmpty else { return }
        let insideTransaction = db.isInsideTransaction
        if insideTransaction, let needsForeignKeysOff = pending.first(where: { $0.foreignKeyChecks == .deferred }) {
            throw MigrationError.foreignKeysCannotBeDisabledInTransaction(migration: needsForeignKeysOff.identifier)
        }
        let foreignKeysOn = try Self.foreignKeysEnabled(db)
        // Checked whatever the connection enforces: a migration never commits a database that fails the check.
        for migration in pending {
            if migration.foreignKeyChecks == .deferred && foreignKeysOn {
                try Self.setForeignKeys(false, db)
                do {
                    try apply(migration, db, checkingForeignKeys: true)
                } catch {
                    try? Self.setForeignKeys(true, db)
                    throw error
                }
                try Self.setForeignKeys(true, db)
            } else {
                try apply(migration, db, checkingForeignKeys: true)
            }
        }
    }

    /// Runs one migration and records it, in one IMMEDIATE transaction (a savepoint inside the caller's).
    private func apply(_ migration: Migration, _ db: Database, checkingForeignKeys: Bool) throws {
        try db.transaction(.immediate) {
            // Another connection may have migrated the file since the ledger was last read: read it again
            // now that this transaction holds the write lock.
            if try checkedAppliedMigrations(in: db).contains(migration.identifier) { return }
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS \(SQLIdentifier.quoted(Self.ledgerTable)) "
                    + "(\"identifier\" TEXT NOT NULL PRIMARY KEY)")
            try Self.runRefusingForeignKeysPragma(migration, db)
            if checkingForeignKeys { try Self.checkForeignKeys(after: migration.identifier, db) }
            try db.execute(
                sql: "INSERT INTO \(SQLIdentifier.quoted(Self.ledgerTable)) (\"identifier\") VALUES (?)",
                arguments: [migration.identifier])
        }
    }

    /// Runs the migration's body with `PRAGMA foreign_keys` refused by the connection's authorizer; throws
    /// ``MigrationError/foreignKeysPragmaInMigration(migration:)`` when the body ran one, even when it caught
    /// the error the refused statement threw.
    private static func runRefusingForeignKeysPragma(_ migration: Migration, _ db: Database) throws {
        let transactions = db.transactionGuard
        let wasRefusing = transactions.refusesForeignKeysPragma
        transactions.refusesForeignKeysPragma = true
        transactions.refusedForeignKeysPragma = false
        defer {
            transactions.refusesForeignKeysPragma = wasRefusing
            transactions.refusedForeignKeysPragma = false
        }
        // The authorizer sees a statement when it is prepared: one prepared before, in the cache, would not
        // be seen again.
        db.statementCache.removeAll()
        do {
            try migration.migrate(db)
        } catch {
            if transactions.refusedForeignKeysPragma {
                throw MigrationError.foreignKeysPragmaInMigration(migration: migration.identifier)
            }
            throw error
        }
        if transactions.refusedForeignKeysPragma {
            throw MigrationError.foreignKeysPragmaInMigration(migration: migration.identifier)
        }
    }

    /// The applied identifiers, after checking that this migrator knows each of them.
    private func checkedAppliedMigrations(in db: Database) throws -> Set<String> {
        let applied = try appliedMigrations(in: db)
        let known = Set(migrations.map(\.identifier))
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw MigrationError.unknownAppliedMigrations(unknown: unknown, path: db.path) }
        return Set(applied)
    }

    /// Throws for the first row `PRAGMA foreign_key_check` reports.
    private static func checkForeignKeys(after identifier: String, _ db: Database) throws {
        // Prepared anew each time: the pragma compiles the schema of the moment into the statement.
        let statement = try db.prepareStatement(sql: "PRAGMA foreign_key_check")
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
    private static func foreignKeysEnabled(_ db: Database) throws -> Bool {
        // Not from the statement cache: SQLite reads the setting when it prepares the pragma, not when it
        // runs it, so a cached statement would answer what was true then.
        let statement = try db.prepareStatement(sql: "PRAGMA foreign_keys")
        return try statement.step() && statement.int64(at: 0) != 0
    }

    /// Turns foreign key enforcement on or off; outside a transaction only, where the pragma has effect.
    private static func setForeignKeys(_ on: Bool, _ db: Database) throws {
        // Not cached, for the reason given in foreignKeysEnabled: the pragma acts when it is prepared.
        let statement = try db.prepareStatement(sql: on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        while try statement.step() {}
    }
}

/// Why ``DatabaseMigrator`` refused to migrate a database, or rolled a migration back.
///
/// What a migration's own closure throws is passed on unchanged (a ``DatabaseError`` keeps its result code
/// and SQL); these are the migrator's own checks.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database's ledger records migrations this migrator does not know: a newer version of the app
    /// migrated it. Nothing was changed. `unknown` lists them in the order they were applied.
    case unknownAppliedMigrations(unknown: [String], path: String)
    /// After migration `migration` ran, `PRAGMA foreign_key_check` found rows whose foreign key points at no
    /// parent row: the first is the row with rowid `rowID` (nil in a WITHOUT ROWID table) of `table`,
    /// referencing `parentTable`; `violationCount` rows violate a foreign key in all. The migration was
    /// rolled back and is not recorded. The check covers the whole database, so violations left by earlier
    /// writes made with foreign keys off fail it too: delete or repair those rows in the migration.
    /// See <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>.
    case foreignKeyViolation(migration: String, table: String, rowID: Int64?, parentTable: String, violationCount: Int)
    /// A migration registered with ``DatabaseMigrator/ForeignKeyChecks/deferred`` was to run inside a
    /// transaction of the caller's: foreign keys cannot be turned off there (`PRAGMA foreign_keys` does
    /// nothing inside a transaction). Nothing ran; migrate from outside any transaction.
    case foreignKeysCannotBeDisabledInTransaction(migration: String)
    /// Migration `migration` ran `PRAGMA foreign_keys`, which SQLite ignores inside the transaction the
    /// migration runs in: a rebuild that counted on it would delete or rewrite the rows that reference the
    /// rebuilt table. The statement was refused and the migration rolled back; nothing was written. Remove
    /// the pragma and register the migration with ``DatabaseMigrator/ForeignKeyChecks/deferred``, the
    /// table-rebuild mode. See <https://www.sqlite.org/lang_altertable.html#otheralter>.
    case foreignKeysPragmaInMigration(migration: String)
    /// `migrate(_:upTo:)` named a migration that was never registered. Nothing ran.
    case unregisteredMigration(String)
    /// Two migrations were registered under the same identifier. Nothing ran.
    case duplicateMigration(String)

    /// A sentence for a log: what was refused, where and why.
    public var description: String {
        switch self {
        case .unknownAppliedMigrations(let unknown, let path):
            return "The database at \(path) was migrated by a newer version of this app: it records migration(s) "
                + unknown.map { "\"\($0)\"" }.joined(separator: ", ")
                + " that this version does not know. Nothing was changed; open it with the newer version"
        case .foreignKeyViolation(let migration, let table, let rowID, let parentTable, let violationCount):
            let row = rowID.map { "the row with rowid \($0)" } ?? "a row"
            let others = violationCount > 1 ? " (\(violationCount) violations in all)" : ""
            return "Migration \"\(migration)\" was rolled back: PRAGMA foreign_key_check found that \(row) of table "
                + "\"\(table)\" references a row of \"\(parentTable)\" that does not exist\(others)"
        case .foreignKeysCannotBeDisabledInTransaction(let migration):
            return "Migration \"\(migration)\" needs foreign keys off, which PRAGMA foreign_keys cannot do inside a "
                + "transaction; nothing ran. Call migrate outside any transaction (DatabaseMigrator.migrate(_:) "
                + "with the DatabaseQueue does)"
        case .foreignKeysPragmaInMigration(let migration):
            return "Migration \"\(migration)\" was rolled back, nothing written: it runs PRAGMA foreign_keys, which "
                + "SQLite ignores inside the migration's transaction, so a table it rebuilds would lose the rows "
                + "that reference it. Remove the pragma and register the migration with foreignKeyChecks: "
                + ".deferred, the table-rebuild mode: the migrator turns foreign keys off outside the transaction "
                + "and runs PRAGMA foreign_key_check before COMMIT "
                + "(https://www.sqlite.org/lang_altertable.html#otheralter)"
        case .unregisteredMigration(let identifier):
            return "No migration \"\(identifier)\" is registered; nothing ran"
        case .duplicateMigration(let identifier):
            return "Migration \"\(identifier)\" is registered twice; nothing ran. Each migration needs an "
                + "identifier of its own"
        }
    }
}
