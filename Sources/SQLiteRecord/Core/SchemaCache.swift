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
    /// The schema version the cached values belong to; -1 before anything was read.
    var version: Int64 = -1
    /// Counts the times the cache was dropped: what other layers compare to know their own derived values
    /// (the Record layer's write plans) are still current.
    private(set) var generation = 0
    /// True while the version is known current without asking SQLite: inside one transaction, after it was
    /// checked, as long as no statement of the caller's own (which could be DDL) ran since.
    var isCurrent = false
    /// Set when a statement that changes the schema or rolls back has run: the cache is dropped before it
    /// is next used.
    var needsDrop = false
    /// Set by the authorizer while a statement is prepared: what running the statement does to the schema;
    /// read right after the prepare.
    var preparedStatementEffect = SchemaEffect.none
    /// True from the run of a statement that changes the schema until the transaction it ran in commits or
    /// rolls back (the commit and rollback hooks): only a rollback then may bring back an older schema.
    var changedSchemaInTransaction = false

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
    /// Prepares with `prepare` and marks the statement with what the authorizer saw it do to the schema, so
    /// that running it drops the schema cache when it must.
    func notingSchemaEffects(_ prepare: () throws -> Statement) rethrows -> Statement {
        forgetPreparedStatementNotes()
        let statement = try prepare()
        notePreparedStatement(statement)
        return statement
    }

    /// Clears what the authorizer noted of the last statement prepared, before the next prepare.
    func forgetPreparedStatementNotes() {
        schemaCache.preparedStatementEffect = .none
        changeTracker.preparedReads.removeAll(keepingCapacity: true)
        changeTracker.preparedWrites.removeAll(keepingCapacity: true)
        changeTracker.preparedDeletes.removeAll(keepingCapacity: true)
        changeTracker.preparedUpdatedColumns.removeAll(keepingCapacity: true)
        transactionGuard.preparedStatementKeepsContent = false
    }

    /// Marks `statement`, just prepared, with what the authorizer saw it do: its effect on the schema, the
    /// tables it reads and writes, and whether a read may run it though SQLite counts it as a write.
    func notePreparedStatement(_ statement: Statement) {
        statement.noteSchemaEffect(schemaCache.preparedStatementEffect, on: schemaCache)
        statement.noteAccess(
            reads: changeTracker.preparedReads, writes: changeTracker.preparedWrites,
            deletes: changeTracker.preparedDeletes, updatedColumns: changeTracker.preparedUpdatedColumns,
            on: changeTracker)
        if transactionGuard.preparedStatementKeepsContent { statement.noteKeepsContent() }
    }
}
