import CSQLiteRecord

/// What a connection has read about the schema (table columns) and what other layers derive from it,
/// kept until the schema may have changed.
///
/// `PRAGMA schema_version` tells when the main schema changed, but not everything: a rollback takes the
/// version back, so one number can stand for two schemas (a table created, rolled back, and created again
/// with other columns), and a TEMP table, which shadows a main table of the same name, does not move it.
/// So statements that change the schema or roll back are recognized when they are prepared (by the
/// connection's authorizer), and running one drops the cache, as does any rollback SQLite reports (the
/// rollback hook). See <https://www.sqlite.org/pragma.html#pragma_schema_version>,
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
    /// Set by the authorizer while a statement is prepared, when the statement changes the schema or rolls
    /// back; read right after the prepare.
    @exclusivity(unchecked) var preparedStatementInvalidates = false
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
    /// Installs the authorizer and the rollback hook that keep ``SchemaCache`` honest (see there). The
    /// authorizer allows everything: it only notes what a statement does.
    func observeSchemaChanges() {
        let cache = Unmanaged.passUnretained(schemaCache).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, action, first, _, _, _ in
                guard let context else { return SQLITE_OK }
                let cache = Unmanaged<SchemaCache>.fromOpaque(context).takeUnretainedValue()
                if SchemaCache.changesSchema(action) {
                    cache.preparedStatementInvalidates = true
                } else if action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT, let first,
                    sqlite3_stricmp(first, "ROLLBACK") == 0
                {
                    // ROLLBACK, and ROLLBACK TO a savepoint, which the rollback hook does not report.
                    cache.preparedStatementInvalidates = true
                }
                return SQLITE_OK
            }, cache)
        sqlite3_rollback_hook(
            handle,
            { context in
                guard let context else { return }
                Unmanaged<SchemaCache>.fromOpaque(context).takeUnretainedValue().needsDrop = true
            }, cache)
    }

    /// Removes what ``observeSchemaChanges()`` installed, before the connection closes: a statement that
    /// outlives its `Database` must not call back into the freed cache.
    func stopObservingSchemaChanges() {
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
    }

    /// Prepares with `prepare` and marks the statement when the authorizer saw it change the schema or roll
    /// back, so that running it drops the schema cache.
    func notingSchemaEffects(_ prepare: () throws -> Statement) rethrows -> Statement {
        schemaCache.preparedStatementInvalidates = false
        let statement = try prepare()
        if schemaCache.preparedStatementInvalidates {
            statement.invalidatedSchemaCache = schemaCache
        }
        return statement
    }
}
