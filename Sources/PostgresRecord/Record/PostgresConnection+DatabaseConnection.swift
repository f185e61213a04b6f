#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// PostgreSQL's side of the Record calls: each requirement runs the statements of one call, with no callback
/// (the Record layer calls `willSave(_:)`, `didInsert(rowID:)` and the others around it). Statements are
/// built once per record type (``PostgresRecordShape``) and sent with binary parameters.
extension PostgresConnection: DatabaseConnection {
    @_spi(RecordEngine)
    public func insertRow<R: Record>(of record: R, onConflict conflict: ConflictResolution) throws -> Int64? {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        // `ON CONFLICT DO NOTHING` skips a row that conflicts with a uniqueness constraint; a NOT NULL or CHECK
        // violation still fails, as PostgreSQL has no way to skip those.
        if case .rowID(let column) = shape.key, record.hasNilRowID {
            try catchUpIdentity(of: shape)
            let sql = conflict == .ignore ? shape.insertWithoutKeyIgnoringSQL : shape.insertWithoutKeySQL
            let result = try shape.run(sql, record, shape.nonKeyColumnsPlan, on: self)
            guard result.rowCount == 1 else { return nil }
            return try R.returnedRowID(result, column: column)
        }
        if case .rowID = shape.key {} else { try shape.checkKey(record.id) }
        // No RETURNING: the command tag's row count (`INSERT 0 1`) tells that the row went in; a conflict, a
        // trigger or a rule that skipped it leaves 0.
        let sql = conflict == .ignore ? shape.insertSQL + " ON CONFLICT DO NOTHING" : shape.insertSQL
        let result = try shape.run(sql, record, shape.columnsPlan, on: self)
        shape.identityCatchUp?.noteExplicitWrite()
        guard result.affectedRows == 1 else { return nil }
        return record.rowIDIfAny ?? 0
    }

    @_spi(RecordEngine)
    public func updateRow<R: Record>(of record: R, columns: [String]?) throws {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        try shape.checkKey(record.id)
        let update: (sql: String, plan: PostgresEncodingPlan)?
        if let columns {
            update = try shape.partialUpdate(columns)
        } else {
            update = shape.updateSQL.map { ($0, shape.nonKeyColumnsPlan) }
        }
        guard let update else {
            // Nothing to write but the key: the update only has to find its row.
            guard try recordExists(R.self, id: record.id) else {
                throw RecordError.recordNotFound(table: shape.table, id: R.keyDescription(record.id))
            }
            return
        }
        let changed = try shape.run(update.sql, record, update.plan, key: record.id, on: self).affectedRows
        if changed == 0 {
            // No row changed: none has the key, or a trigger skipped the update.
            if try recordExists(R.self, id: record.id) {
                throw RecordError.rowNotUpdated(table: shape.table, id: R.keyDescription(record.id))
            }
            throw RecordError.recordNotFound(table: shape.table, id: R.keyDescription(record.id))
        }
    }

    @_spi(RecordEngine)
    public func saveRow<R: Record>(of record: R) throws {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        try shape.checkKey(record.id)
        // No RETURNING: an upsert inserts or updates its row (or, when every column is a key column, leaves
        // the row that is there), so there is nothing to read back.
        let result = try shape.run(shape.upsertSQL, record, shape.columnsPlan, on: self)
        shape.identityCatchUp?.noteExplicitWrite()
        if result.affectedRows == 0, shape.columns.count > shape.key.columns.count,
            try !recordExists(R.self, id: record.id)
        {
            throw RecordError.rowNotInserted(table: shape.table)
        }
    }

    @_spi(RecordEngine)
    public func upsertRow<R: Record>(
        of record: inout R, onConflict conflictColumns: [String]?, updating columns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        let hasNilRowID = record.hasNilRowID
        if case .rowID(let column) = shape.key, hasNilRowID, conflictColumns == nil || conflictColumns == [column] {
            // A new row's key is the identity's next value, which no row holds: the upsert is an insert, as
            // on SQLite. (An ON CONFLICT on the key would update a row whose given id the sequence reached.)
            guard let rowID = try insertRow(of: record, onConflict: .abort) else {
                throw RecordError.rowNotInserted(table: shape.table)
            }
            return (.inserted, rowID)
        }
        let upsert = try shape.upsert(
            of: record, hasNilRowID: hasNilRowID, onConflict: conflictColumns, updating: columns)
        let result: PostgresResult
        do {
            result = try shape.run(upsert.sql, record, upsert.plan, on: self)
        } catch let error as PostgresError where error.sqlState == .invalidColumnReference {
            // 42P10: no unique or exclusion constraint matches the ON CONFLICT target.
            throw RecordError.conflictTargetNotUnique(table: shape.table, columns: upsert.target)
        }
        if !hasNilRowID { shape.identityCatchUp?.noteExplicitWrite() }
        if result.rowCount == 1 {
            let inserted = result.bool(row: 0, column: 0) == true
            return (inserted ? .inserted : .updated, upsert.returnsRowID ? result.int64(row: 0, column: 1) : nil)
        }
        // No row came back: the row was there and held the values (or the conflict updates nothing), or a
        // trigger skipped the insert. The conflict target's row tells which.
        let found = try shape.rowID(whereEqual: upsert.target, of: record, on: self)
        guard let found else { throw RecordError.rowNotInserted(table: shape.table) }
        return (.unchanged, upsert.returnsRowID ? found : nil)
    }

    @_spi(RecordEngine)
    public func deleteRow<R: Record>(_ type: R.Type, id: R.ID) throws -> Bool {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        let key = try shape.keyValues(id)
        if try run(shape.deleteSQL, key).affectedRows > 0 { return true }
        // No row deleted: none had the key, or a trigger skipped the delete.
        if try recordExists(R.self, id: id) {
            throw RecordError.rowNotDeleted(table: shape.table, id: R.keyDescription(id))
        }
        return false
    }

    @_spi(RecordEngine)
    public func fetchRecord<R: Record>(_ type: R.Type, id: R.ID) throws -> R? {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        if case .rowID = shape.key, SameTypeCast.cast(id, to: Int64?.self) == .some(nil) { return nil }
        let rows = try query(shape.selectOneSQL, try shape.keyValues(id))
        return rows.count > 0 ? try R.decode(rows, row: 0, shape: shape) : nil
    }

    @_spi(RecordEngine)
    public func recordExists<R: Record>(_ type: R.Type, id: R.ID) throws -> Bool {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        if case .rowID = shape.key, SameTypeCast.cast(id, to: Int64?.self) == .some(nil) { return false }
        let rows = try query(shape.existsSQL, try shape.keyValues(id))
        return try rows[0].decode(Int64.self, at: 0) > 0
    }

    @_spi(RecordEngine)
    public func fetchRecords<R: Record>(
        _ type: R.Type, where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering], limit: Int?,
        offset: Int?
    ) throws -> [R] {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        // The last fetch's columns were checked against this table's, and stay checked while the connection
        // keeps the table's columns (``lastFetch`` is forgotten with them).
        let last = lastFetch.flatMap { $0.form.table == shape.table && $0.form.ordering == ordering ? $0 : nil }
        let filter = try PostgresFilter(conditions, shape: shape, connection: self, checked: last?.form.columns)
        // Checked again when the filter's check read the table's columns again (which forgets ``lastFetch``):
        // another session may have dropped the ordering column meanwhile.
        if last == nil || lastFetch == nil { try checkColumns(ordering.map(\.column), of: shape.table) }
        var arguments = filter.arguments
        // A negative limit or offset is none, as in a request and as SQLite reads them: NULL is PostgreSQL's
        // `LIMIT ALL` and `OFFSET 0`.
        if let limit { arguments.append(limit >= 0 ? PostgresValue(Int64(limit)) : .null) }
        if let offset { arguments.append(offset >= 0 ? PostgresValue(Int64(offset)) : .null) }
        let form = SelectTexts.Form(
            dialect: .postgres, table: shape.table, columns: filter.columns, forms: filter.nulls.map { $0 ? 0 : 1 },
            ordering: ordering, hasLimit: limit != nil, hasOffset: offset != nil)
        let sql: String
        if let last, last.form == form {
            sql = last.sql
        } else {
            sql = SelectTexts.text(for: form)
            // Kept only when its columns were checked against columns read from the table: a table not found
            // then (its errors left to the server) may be created, without some of them, before the next call.
            lastFetch =
                tableColumnsCache[shape.table] != nil || (form.columns.isEmpty && ordering.isEmpty)
                ? PostgresFetchForm(form: form, sql: sql) : nil
        }
        let rows: PostgresRows
        do {
            rows = try query(sql, arguments)
        } catch let error as PostgresError where error.sqlState == .undefinedColumn {
            // Another session dropped or renamed a column since this connection read the table's: read again
            // before the next call, which then reports a key or ordering column the table lacks by name.
            tableColumnsCache[shape.table] = nil
            lastFetch = nil
            throw error
        }
        return try R.decodeAll(rows, shape: shape)
    }

    @_spi(RecordEngine)
    public func countRecords<R: Record>(_ type: R.Type, where conditions: [String: (any Encodable)?]) throws -> Int {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        let filter = try PostgresFilter(conditions, shape: shape, connection: self)
        let rows = try query(RecordSQL.count(from: shape.table, condition: filter.condition), filter.arguments)
        return Int(try rows[0].decode(Int64.self, at: 0))
    }

    @_spi(RecordEngine)
    public func deleteRecords<R: Record>(_ type: R.Type, where conditions: [String: (any Encodable)?]) throws -> Int {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        let filter = try PostgresFilter(conditions, shape: shape, connection: self)
        return try run(RecordSQL.delete(from: shape.table, condition: filter.condition), filter.arguments).affectedRows
    }

    @_spi(RecordEngine)
    public func changedColumns<R: Record>(of record: R, from original: R) throws -> [String] {
        let shape = try PostgresRecordShape.of(R.self, on: self)
        try shape.checkKey(record.id)
        // The values the server would be sent: a change the column cannot hold apart is no change.
        let current = try shape.values(of: record)
        let before = try shape.values(of: original)
        let keyColumns = Set(shape.key.columns)
        return shape.columns.indices.compactMap { index in
            let column = shape.columns[index]
            return current[index] != before[index] && !keyColumns.contains(column) ? column : nil
        }
    }

    @_spi(RecordEngine)
    public func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(nil, readOnly: false, body)
    }
}

/// The form and SQL text of the last `where:` fetch a connection ran (``PostgresConnection/lastFetch``): a loop
/// of fetches of one form (W4's) neither checks its columns again nor hashes its form for the text.
struct PostgresFetchForm {
    let form: SelectTexts.Form
    let sql: String
}
#endif
