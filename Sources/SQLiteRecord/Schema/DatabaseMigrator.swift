/// How foreign keys are enforced while a ``DatabaseMigrator`` migration runs.
public enum MigrationForeignKeyChecks: Sendable {
    /// Foreign keys stay as the connection has them: on SQLite, on by default, when every statement of the
    /// migration is checked as it runs and `PRAGMA foreign_key_check` runs before COMMIT; on PostgreSQL,
    /// always. The default.
    case immediate
    /// The table-rebuild mode. On SQLite, foreign keys are off while the migration runs, and `PRAGMA
    /// foreign_key_check` runs before its COMMIT (on a connection that does not enforce foreign keys, only
    /// the check differs from ``immediate``): what SQLite's 12-step procedure for schema changes that ALTER
    /// TABLE cannot make (dropping a column with a constraint, changing a column's type, adding a foreign
    /// key) requires, since dropping and renaming a table with foreign keys on would delete or rewrite the
    /// rows that reference it. See <https://www.sqlite.org/lang_altertable.html#otheralter>. The migrator
    /// turns foreign keys off before BEGIN (`PRAGMA foreign_keys` does nothing inside a transaction) and on
    /// again after COMMIT or ROLLBACK; the body itself must not run the pragma. Such a migration cannot run
    /// inside a transaction of the caller's.
    ///
    /// On PostgreSQL, whose `ALTER TABLE` changes a table in place, the migration runs after `SET
    /// CONSTRAINTS ALL DEFERRED`: constraints declared `DEFERRABLE` are checked at its COMMIT, the others as
    /// each statement runs. See <https://www.postgresql.org/docs/current/sql-set-constraints.html>.
    case deferred
}

/// Creates and evolves a database schema through named migrations, applied in the order they were
/// registered, each once, on SQLite (`DatabaseMigrator()`, migrations that take a ``Database``) or on
/// PostgreSQL (`DatabaseMigrator<PostgresConnection>()`), or on either (`Connection` left generic).
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
/// The migrations applied are recorded in the database itself, in a ledger table (`sqliterecord_migrations`
/// on SQLite, `postgresrecord_migrations` on PostgreSQL), so that `migrate` applies only those that have not
/// run yet, and running it again does nothing. Each migration runs in a transaction of its own with its
/// ledger entry: when it throws, its changes and its entry are rolled back together (DDL included: both
/// engines' DDL is transactional), later migrations do not run, those before it stay applied, and the error
/// is passed on. Several processes that migrate one database at once migrate it once: each migration's
/// transaction first takes the engine's write lock (SQLite's `BEGIN IMMEDIATE`; on PostgreSQL,
/// `pg_advisory_xact_lock` on one key, `PostgresConnection.migrationLockKey`), then reads the ledger again
/// and skips a migration another process applied meanwhile.
///
/// A database whose ledger records a migration this migrator does not know (a newer version of the app
/// migrated it) is refused with ``MigrationError/unknownAppliedMigrations(unknown:path:)`` before anything
/// changes: never register a migration, ship it, then rename or remove it.
///
/// On SQLite, a migration never commits a database that fails `PRAGMA foreign_key_check`: the check runs
/// after each migration, before its COMMIT (whether or not the connection enforces foreign keys), and a
/// violation rolls that migration back:
/// ``MigrationError/foreignKeyViolation(migration:table:rowID:parentTable:violationCount:)``.
/// A migration body that runs `PRAGMA foreign_keys` is refused
/// (``MigrationError/foreignKeysPragmaInMigration(migration:)``) and rolled back: SQLite ignores the pragma
/// inside the migration's transaction, so a rebuild that counted on it would cascade-delete or null out the
/// rows that reference the rebuilt table. A rebuild registers with ``MigrationForeignKeyChecks/deferred``,
/// the table-rebuild mode. See <https://www.sqlite.org/pragma.html#pragma_foreign_key_check> and
/// <https://www.sqlite.org/lang_altertable.html#otheralter>. PostgreSQL checks foreign keys as each
/// statement runs (or at COMMIT, for deferrable ones), so a violation fails the migration there too.
///
/// The names follow GRDB's `DatabaseMigrator`, the reference Swift implementation of the idea.
public struct DatabaseMigrator<Connection: DatabaseConnection>: Sendable {
    /// How foreign keys are enforced while a migration runs: ``MigrationForeignKeyChecks``.
    public typealias ForeignKeyChecks = MigrationForeignKeyChecks

    /// One registered migration.
    struct Migration: Sendable {
        let identifier: String
        let foreignKeyChecks: MigrationForeignKeyChecks
        let migrate: @Sendable (Connection) throws -> Void
    }

    private var migrations: [Migration] = []
    /// The first identifier registered twice: `registerMigration` cannot throw, so `migrate` reports it.
    private var duplicateIdentifier: String?

    /// A migrator with no migrations, for the engine of `Connection`:
    /// `DatabaseMigrator<PostgresConnection>()` on PostgreSQL; `DatabaseMigrator()` is SQLite's.
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
    ///   - foreignKeyChecks: ``MigrationForeignKeyChecks/deferred`` for a migration that rebuilds a table
    ///     (SQLite's 12-step procedure, <https://www.sqlite.org/lang_altertable.html#otheralter>); the
    ///     default keeps foreign keys on.
    ///   - migrate: the migration: statements run on the connection it receives, inside its transaction.
    public mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: MigrationForeignKeyChecks = .immediate,
        migrate: @escaping @Sendable (Connection) throws -> Void
    ) {
        if duplicateIdentifier == nil, migrations.contains(where: { $0.identifier == identifier }) {
            duplicateIdentifier = identifier
        }
        migrations.append(Migration(identifier: identifier, foreignKeyChecks: foreignKeyChecks, migrate: migrate))
    }

    // MARK: Migrating

    /// Applies the migrations that have not run yet, in order, each in a transaction of its own, on the
    /// writer's connection for writes, taken without a transaction (`write` would wrap everything in one,
    /// where a failing migration would undo the ones before it, and SQLite's `PRAGMA foreign_keys` cannot be
    /// changed). The calling task is suspended, not its thread, meanwhile.
    /// - Throws: ``MigrationError/unknownAppliedMigrations(unknown:path:)`` before anything changes when the
    ///   database was migrated by a newer version; ``MigrationError/duplicateMigration(_:)``; on SQLite
    ///   ``MigrationError/foreignKeyViolation(migration:table:rowID:parentTable:violationCount:)`` and
    ///   ``MigrationError/foreignKeysPragmaInMigration(migration:)`` (that migration is rolled back); what a
    ///   migration throws, unchanged (that migration is rolled back, those before it stay applied); the
    ///   engine's error from BEGIN, COMMIT or the ledger; `CancellationError` when the task was cancelled
    ///   before they started.
    public func migrate<Writer: AsyncDatabaseWriter<Connection>>(_ writer: Writer) async throws {
        let migrator = self
        try await writer.writeWithoutTransaction { db in try migrator.run(db, upTo: nil) }
    }

    /// Applies the migrations that have not run yet, up to and including `identifier`, as
    /// ``migrate(_:)-(Writer)`` does; later ones are left for another call (a test of an intermediate state).
    /// - Throws: as ``migrate(_:)-(Writer)``, and ``MigrationError/unregisteredMigration(_:)`` when no
    ///   migration has that identifier.
    public func migrate<Writer: AsyncDatabaseWriter<Connection>>(_ writer: Writer, upTo identifier: String)
        async throws
    {
        let migrator = self
        try await writer.writeWithoutTransaction { db in try migrator.run(db, upTo: identifier) }
    }

    /// Applies the migrations that have not run yet on `db`.
    ///
    /// Outside a transaction, each migration runs in a transaction of its own, as through a writer. Inside a
    /// transaction of the caller's, each runs in a savepoint of it: the migrations and whatever else the
    /// transaction does (a first import of data, say) commit or roll back together, and on SQLite a migration
    /// needing ``MigrationForeignKeyChecks/deferred`` is refused before anything runs.
    /// - Throws: as ``migrate(_:)-(Writer)``, and on SQLite
    ///   ``MigrationError/foreignKeysCannotBeDisabledInTransaction(migration:)`` inside a transaction when a
    ///   pending migration needs foreign keys off.
    public func migrate(_ db: Connection) throws {
        try run(db, upTo: nil)
    }

    /// Applies the migrations that have not run yet on `db`, up to and including `identifier`; later ones
    /// are left for another call (a test of an intermediate state, say).
    /// - Throws: as the other `migrate` calls, and ``MigrationError/unregisteredMigration(_:)`` when no
    ///   migration has that identifier.
    public func migrate(_ db: Connection, upTo identifier: String) throws {
        try run(db, upTo: identifier)
    }

    // MARK: Reading the ledger

    /// The identifiers the database records as applied, in the order they were applied; empty when no
    /// migration ever ran. Identifiers this migrator does not know (a newer version's) are included.
    /// - Throws: the engine's error when the ledger cannot be read.
    public func appliedMigrations(in db: Connection) throws -> [String] {
        try db.appliedMigrationIdentifiers()
    }

    /// True when every registered migration has been applied to the database.
    /// - Throws: the engine's error when the ledger cannot be read.
    public func hasCompletedMigrations(in db: Connection) throws -> Bool {
        let applied = Set(try appliedMigrations(in: db))
        return migrations.allSatisfy { applied.contains($0.identifier) }
    }

    // MARK: Implementation

    /// Applies the pending migrations up to `target` (all when nil).
    func run(_ db: Connection, upTo target: String?) throws {
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
        try db.checkPendingMigrations(pending.map { ($0.identifier, $0.foreignKeyChecks) })
        for migration in pending {
            try db.applyMigration(
                migration.identifier, foreignKeyChecks: migration.foreignKeyChecks,
                // Another process may have migrated the database since the ledger was last read: read it
                // again once the migration's transaction holds the engine's write lock.
                isApplied: { try checkedAppliedMigrations(in: db).contains(migration.identifier) },
                migrate: { try migration.migrate(db) })
        }
    }

    /// The applied identifiers, after checking that this migrator knows each of them.
    private func checkedAppliedMigrations(in db: Connection) throws -> Set<String> {
        let applied = try db.appliedMigrationIdentifiers()
        let known = Set(migrations.map(\.identifier))
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw MigrationError.unknownAppliedMigrations(unknown: unknown, path: db.databaseLocation)
        }
        return Set(applied)
    }
}

extension DatabaseMigrator where Connection == Database {
    /// A migrator with no migrations, for SQLite: migrations take a ``Database``.
    public init() {}

    /// Applies the migrations that have not run yet, in order, each in an IMMEDIATE transaction of its own,
    /// blocking the calling thread meanwhile.
    ///
    /// `writer` is a ``DatabaseQueue`` or a ``DatabasePool`` (any ``DatabaseWriter``). Its writer connection is
    /// taken through `writeWithoutTransaction`, which serializes access to it without opening a transaction.
    /// - Throws: as ``migrate(_:)-(Writer)``, and ``DatabaseError`` with `SQLITE_MISUSE` when called from inside
    ///   `read` or `write` on the same queue or pool.
    public func migrate(_ writer: any DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in try run(db, upTo: nil) }
    }

    /// Applies the migrations that have not run yet, up to and including `identifier`, as
    /// ``migrate(_:)-(DatabaseWriter)`` does; later ones are left for another call.
    /// - Throws: as ``migrate(_:)-(DatabaseWriter)``, and ``MigrationError/unregisteredMigration(_:)`` when no
    ///   migration has that identifier.
    public func migrate(_ writer: any DatabaseWriter, upTo identifier: String) throws {
        try writer.writeWithoutTransaction { db in try run(db, upTo: identifier) }
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
    /// A migration registered with ``MigrationForeignKeyChecks/deferred`` was to run inside a
    /// transaction of the caller's: foreign keys cannot be turned off there (`PRAGMA foreign_keys` does
    /// nothing inside a transaction). Nothing ran; migrate from outside any transaction.
    case foreignKeysCannotBeDisabledInTransaction(migration: String)
    /// Migration `migration` ran `PRAGMA foreign_keys`, which SQLite ignores inside the transaction the
    /// migration runs in: a rebuild that counted on it would delete or rewrite the rows that reference the
    /// rebuilt table. The statement was refused and the migration rolled back; nothing was written. Remove
    /// the pragma and register the migration with ``MigrationForeignKeyChecks/deferred``, the
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
