#if PostgreSQL
import Foundation
import SQLiteRecord

/// The statements of the writes whose columns the caller names: a partial update and an upsert with its
/// own conflict target or updated columns. Built per call from the shape's columns (their names are checked
/// here, so nothing unknown reaches the server).
extension PostgresRecordShape {
    /// The statement of an upsert, what it binds, and how to read its answer.
    struct Upsert: Sendable {
        let sql: String
        let plan: PostgresEncodingPlan
        /// The conflict target's columns.
        let target: [String]
        /// True when the statement returns the row's rowid after whether it was inserted.
        let returnsRowID: Bool
    }

    /// `UPDATE ... SET <columns> WHERE <key>` and its encoding plan; nil when `columns` is empty (the update
    /// only has to find its row).
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a name that is not a column the
    ///   record writes, or a key column.
    func partialUpdate(_ columns: [String]) throws -> (sql: String, plan: PostgresEncodingPlan)? {
        for column in columns where !nonKeyColumns.contains(column) {
            throw RecordError.unknownColumn(table: table, column: column, columns: nonKeyColumns)
        }
        guard !columns.isEmpty else { return nil }
        let sql = RecordSQL.update(
            table, columns: columns, keyColumns: key.columns, counts: key.columns.map { _ in 1 }, dialect: .postgres)
        return (sql, PostgresEncodingPlan(columns: columns, orderedKeys: orderedKeys, encoderNames: encoderNames))
    }

    /// The upsert's `INSERT ... ON CONFLICT (<target>) DO UPDATE SET <columns> WHERE (<columns>) IS DISTINCT
    /// FROM (excluded.<columns>)` (see `RecordSQL.upsert`), ending in `RETURNING (xmax = 0)[, <rowid>]`: the
    /// row comes back when it was inserted (`true`) or updated (`false`), and not at all when it held the
    /// values or a trigger skipped it. A row version written by this statement's insert has no locking
    /// transaction (`xmax = 0`); one written by its `DO UPDATE` carries the lock the update took. See
    /// <https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT>.
    /// - Parameters:
    ///   - hasNilRowID: the record's ``Record/hasNilRowID``, which the caller has read.
    ///   - conflictColumns: the target; nil for the key.
    ///   - columns: the columns a conflict updates; nil for every column but the target's and the key's,
    ///     `[]` for none (`DO NOTHING`).
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a target or updated column the
    ///   record does not write; as ``checkKey(_:)`` for a key that is not a nil rowid.
    func upsert<R: Record>(
        of record: R, hasNilRowID: Bool, onConflict conflictColumns: [String]?, updating columns: [String]?
    ) throws -> Upsert {
        let leavesOutRowID: Bool
        if case .rowID = key {
            leavesOutRowID = hasNilRowID
        } else {
            try checkKey(record.id)
            leavesOutRowID = false
        }
        // The common upsert, by the key and writing every column, is made once with the shape.
        if conflictColumns == nil, columns == nil, !leavesOutRowID { return keyUpsert }
        return try Self.upsert(
            table: table, key: key, written: leavesOutRowID ? nonKeyColumns : self.columns,
            plan: leavesOutRowID ? nonKeyColumnsPlan : columnsPlan, onConflict: conflictColumns, updating: columns)
    }

    /// The upsert of `written` into `table`, bound through `plan`, as ``upsert(of:onConflict:updating:)``
    /// describes it.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a target or updated column not in
    ///   `written`.
    static func upsert(
        table: String, key: Key, written: [String], plan: PostgresEncodingPlan, onConflict conflictColumns: [String]?,
        updating columns: [String]?
    ) throws -> Upsert {
        let target = conflictColumns ?? key.columns
        for column in target + (columns ?? []) where !written.contains(column) {
            throw RecordError.unknownColumn(table: table, column: column, columns: written)
        }
        let updated = columns ?? written.filter { !target.contains($0) && !key.columns.contains($0) }
        var sql = RecordSQL.upsert(
            into: table, columns: written, conflictColumns: target, updating: updated, dialect: .postgres)
        let returnsRowID: Bool
        if case .rowID(let column) = key {
            returnsRowID = true
            sql += " RETURNING (xmax = 0), " + SQLIdentifier.quoted(column)
        } else {
            returnsRowID = false
            sql += " RETURNING (xmax = 0)"
        }
        return Upsert(sql: sql, plan: plan, target: target, returnsRowID: returnsRowID)
    }

    /// The row whose `columns` hold `record`'s values: its rowid for a rowid key, 0 for another key; nil when
    /// there is none.
    /// - Throws: encoding errors; ``PostgresError``.
    func rowID<R: Record>(whereEqual columns: [String], of record: R, on connection: PostgresConnection) throws
        -> Int64?
    {
        let values = try self.values(of: record)
        let arguments = try columns.map { column in
            guard let index = self.columns.firstIndex(of: column) else {
                throw RecordError.unknownColumn(table: table, column: column, columns: self.columns)
            }
            return values[index]
        }
        guard case .rowID(let column) = key else {
            let condition = RecordSQL.keyCondition(columns: columns, counts: columns.map { _ in 1 }, dialect: .postgres)
            let rows = try connection.query(RecordSQL.count(from: table, condition: condition), arguments)
            return try rows[0].decode(Int64.self, at: 0) > 0 ? 0 : nil
        }
        let sql = RecordSQL.select([column], from: table, whereEqual: columns, dialect: .postgres)
        let rows = try connection.query(sql, arguments)
        return rows.count > 0 ? try rows[0].decode(Int64.self, at: 0) : nil
    }
}
#endif
