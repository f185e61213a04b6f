/// A record operation whose SQL the connection keeps (``RecordConnectionCache/sql(_:_:table:primaryKey:columns:build:)``),
/// built once per record type and connection rather than on every call.
///
/// The text of an INSERT or UPDATE depends on the columns the record encodes, which are the same for every
/// record of a type (its coding keys); the entry keeps them beside the text, with the table and primary key
/// names the text was built for, and the text is built again when a record encodes other columns (a
/// hand-written `encode(to:)` that skips a key, say) or the type's `tableName` or `primaryKeyColumn` has
/// changed (computed properties may).
enum RecordSQLOperation: Hashable {
    case insertWithID, insertWithoutID, update, upsert, delete, selectOne, exists
    case insertOrIgnore, rowIDByColumns
    /// The SQL depends on the clause and the named columns, so each is an entry of its own.
    case upsertReporting(UpsertClause)
    case updateColumns([String])
}
