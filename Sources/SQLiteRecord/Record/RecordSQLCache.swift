import Foundation

/// The SQL each record type's operations run, built once per type rather than on every call.
///
/// The text of an INSERT or UPDATE depends on the columns the record encodes, which are the same for
/// every record of a type (its coding keys); the cache keeps them beside the text, with the table and
/// primary key names the text was built for, and rebuilds the text when a record encodes other columns (a
/// hand-written `encode(to:)` that skips a key, say) or the type's `tableName` or `primaryKeyColumn` has
/// changed (computed properties may).
enum RecordSQLCache {
    enum Operation: Hashable {
        case insertWithID, insertWithoutID, update, upsert, delete, selectOne, exists
        case insertOrIgnore, rowIDByColumns
        /// The SQL depends on the clause and the named columns, so each is an entry of its own.
        case upsertReporting(UpsertClause)
        case updateColumns([String])
    }

    private struct Key: Hashable {
        let type: ObjectIdentifier
        let operation: Operation
    }

    // `entries` is read and written only while `lock` is held.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries:
        [Key: (table: String, primaryKey: String, columns: [String], sql: String)] = [:]

    /// The SQL for `operation` on `type`'s `table` with `columns`, from the cache, or built by `build` and
    /// cached.
    static func sql(
        _ type: Any.Type, _ operation: Operation, table: String, primaryKey: String, columns: [String] = [],
        build: () -> String
    ) -> String {
        let key = Key(type: ObjectIdentifier(type), operation: operation)
        lock.lock()
        let entry = entries[key]
        lock.unlock()
        if let entry, entry.table == table, entry.primaryKey == primaryKey, entry.columns == columns {
            return entry.sql
        }
        let sql = build()
        lock.lock()
        entries[key] = (table, primaryKey, columns, sql)
        lock.unlock()
        return sql
    }
}
