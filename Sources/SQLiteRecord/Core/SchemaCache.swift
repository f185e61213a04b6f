import CSQLiteRecord

/// What a connection has read about the schema (table columns) and what other layers derive from it,
/// kept until the schema may have changed.
///
/// `PRAGMA schema_version` tells when the main schema changed, but not everything: a rollback takes the
/// version back, so one number can stand for two schemas (a table created, rolled back, and created again
/// with other columns), and a TEMP table, which shadows a main table of the same name, does not move it.
/// So statements that change the schema are recognized when they are prepared (by the connection's
/// authorizer), and running one drops the cache; so does a rollback (a ROLLBACK or ROLLBACK TO statement,
/// or one SQLite makes itself and reports to the rollback hook) of a transaction in which such a statement
/// ran. A rollback of a transaction that only wrote rows keeps the cache, and the Record layer's write
/// plans with it. See <https://www.sqlite.org/pragma.html#pragma_schema_version>,
/// <https://www.sqlite.org/c3ref/set_authorizer.html> and <https://www.sqlite.org/c3ref/commit_hook.html>.
final class SchemaCache {
    // Unchecked: a connection is used on one thread at a time, and these are read on every record write.
    /// The schema version the cached values belong to; -1 before anything was read.
    @exclusivity(unchecked) var version: Int64 = -1
    /// Counts the times the cache was dropped: what other layers compare to know their own derived values
    /// (the Record layer's write plans) are still current.
    @exclusivity(unchecked) private(set) var generation = 0
    /// True while the version is known current without asking SQLite: inside one transaction, after it was
    /// checked, as long as no statement of the caller's own (which could be DDL) ran since.
    @exclusivity(unchecked) var isCurrent = false
    /// Set when a statement that changes the schema or rolls back has run: the cache is dropped before it
    /// is next used.
    @exclusivity(unchecked) var needsDrop = false
    /// Set by the authorizer while a statement is prepared: what running the statement does to the schema;
    /// read right after the prepare.
    @exclusivity(unchecked) var preparedStatementEffect = SchemaEffect.none
    /// True from the run of a statement that changes the schema until the transaction it ran in commits or
    /// rolls back (the commit and rollback hooks): only a rollback then may bring back an older schema.
    @exclusivity(unchecked) var changedSchemaInTransaction = false

    /// What running a statement does to the schema.
    enum SchemaEffect: UInt8 {
        case none
        /// CREATE, DROP, ALTER, ATTACH, DETACH.
        case changesSchema
        /// ROLLBACK, or ROLLBACK TO a savepoint.
        case rollsBack
    }

    /// Notes that a statement with `effect` is about to run; called before its step, because the commit and
    /// rollback hooks run inside the step.
    func statementWillRun(_ effect: SchemaEffect) {
        switch effect {
        case .none:
            break
        case .changesSchema:
            needsDrop = true
            changedSchemaInTransaction = true
        case .rollsBack:
            if changedSchemaInTransaction { needsDrop = true }
        }
    }
    /// `columns(in:)` answers, by lowercased table name (SQLite compares names case-insensitively).
    var columns: [String: [ColumnInfo]] = [:]
    /// Values other layers derive from the columns (the Record layer's affinity plan), by layer key and
    /// table.
    var derived: [DerivedKey: AnyObject] = [:]

    /// A derived value's key: the type that derives it and the table as the caller spells it.
    struct DerivedKey: Hashable {
        let owner: ObjectIdentifier
        let table: String
    }

    /// Forgets everything read and derived, and the version it belonged to.
    func drop() {
        columns.removeAll()
        derived.removeAll()
        version = -1
        isCurrent = false
        needsDrop = false
        generation += 1
    }

    /// The authorizer's actions that change the schema: creating, dropping or altering tables, indexes,
    /// views, triggers and virtual tables (TEMP ones included), and attaching or detaching a database.
    static func changesSchema(_ action: Int32) -> Bool {
        switch action {
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
            SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
            SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
            SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
            SQLITE_ALTER_TABLE, SQLITE_ATTACH, SQLITE_DETACH, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            return true
        default:
            return false
        }
    }
}

extension Database {
    /// Installs the authorizer and the commit and rollback hooks that keep ``SchemaCache`` honest (see there). The
    /// authorizer allows everything but `PRAGMA foreign_keys = ...` inside a migration body (see
    /// ``TransactionGuard/refusesForeignKeysPragma``): otherwise it only notes what a statement does.
    func observeSchemaChanges() {
        let guardContext = Unmanaged.passUnretained(transactionGuard).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                let transactions = Unmanaged<TransactionGuard>.fromOpaque(context).takeUnretainedValue()
                let cache = transactions.schemaCache
                // The tables the statement reads and writes, for observations (see ``ChangeTracker``).
                transactions.changeTracker.noteAuthorization(action, table: first)
                // A pragma's value is the second argument: nil when the statement only reads the setting.
                if action == SQLITE_PRAGMA, transactions.refusesForeignKeysPragma, let first, second != nil,
                    sqlite3_stricmp(first, "foreign_keys") == 0
                {
                    transactions.refusedForeignKeysPragma = true
                    return SQLITE_DENY
                }
                if SchemaCache.changesSchema(action) {
                    cache.preparedStatementEffect = .changesSchema
                } else if action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT, let first,
                    sqlite3_stricmp(first, "ROLLBACK") == 0
                {
                    // ROLLBACK, and ROLLBACK TO a savepoint, which the rollback hook does not report.
                    cache.preparedStatementEffect = .rollsBack
                }
                return SQLITE_OK
            }, guardContext)
        // The commit and rollback hooks serve the transaction guard too (see ``TransactionGuard``), which
        // holds the schema cache.
        let transactions = Unmanaged.passUnretained(transactionGuard).toOpaque()
        sqlite3_rollback_hook(
            handle,
            { context in
                guard let context else { return }
                let transactions = Unmanaged<TransactionGuard>.fromOpaque(context).takeUnretainedValue()
                transactions.noteRollback()
                transactions.changeTracker.transactionDidRollBack()
                let cache = transactions.schemaCache
                if cache.changedSchemaInTransaction { cache.needsDrop = true }
                cache.changedSchemaInTransaction = false
            }, transactions)
        sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                // 0 lets the commit go ahead; anything else turns it into a rollback.
                return Unmanaged<TransactionGuard>.fromOpaque(context).takeUnretainedValue().commitHookAnswer()
            }, transactions)
    }

    /// Removes what ``observeSchemaChanges()`` installed, before the connection closes: a statement that
    /// outlives its `Database` must not call back into the freed cache.
    func stopObservingSchemaChanges() {
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        sqlite3_commit_hook(handle, nil, nil)
    }

    /// Prepares with `prepare` and marks the statement with what the authorizer saw it do to the schema, so
    /// that running it drops the schema cache when it must.
    func notingSchemaEffects(_ prepare: () throws -> Statement) rethrows -> Statement {
        schemaCache.preparedStatementEffect = .none
        changeTracker.preparedReads.removeAll(keepingCapacity: true)
        changeTracker.preparedWrites.removeAll(keepingCapacity: true)
        let statement = try prepare()
        statement.noteSchemaEffect(schemaCache.preparedStatementEffect, on: schemaCache)
        statement.noteAccess(
            reads: changeTracker.preparedReads, writes: changeTracker.preparedWrites, on: changeTracker)
        return statement
    }
}
