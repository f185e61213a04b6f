/// Setting one column of a record in memory, by the type's own coding rules: how a parent's save sets each
/// child's foreign key from a declared association.
extension Record {
    /// The value this record stores in `column`, as its ``Record/recordEncoder`` encodes it.
    /// - Throws: `EncodingError` when the record does not encode, or
    ///   ``RecordError/unknownColumn(table:column:columns:)`` when it encodes no such column.
    func storedValue(of column: String) throws -> SQLiteValue {
        let columns = try Self.recordEncoder.encode(self)
        guard let value = columns.value(for: column) else {
            throw RecordError.unknownColumn(table: Self.tableName, column: column, columns: columns.names)
        }
        return value
    }

    /// This record with `column` set to `value`: the record is encoded with its ``Record/recordEncoder``, the
    /// column's value replaced, and the columns decoded back with its ``Record/rowDecoder``, so the value
    /// reaches the property as a fetch would put it there (a key strategy, a `CodingKeys` rename, a date or
    /// UUID strategy all apply).
    ///
    /// The decoder reads SQLite's own column values, so the columns are read back from a one-row `SELECT` of
    /// bound values (`SELECT ? AS "id", ? AS "country_id", ...`) on `db`, which reads and writes no table.
    /// Every other property comes back as a fetch of its stored value would give it (a `Date` to the
    /// precision its stored form keeps).
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` when the record encodes no such column,
    ///   `EncodingError` when it does not encode, or the `DecodingError` of a value its type does not read
    ///   back (naming the column and the table).
    func settingColumn(_ column: String, to value: SQLiteValue, in db: Database) throws -> Self {
        let columns = try Self.recordEncoder.encode(self)
        guard let index = columns.names.firstIndex(of: column) else {
            throw RecordError.unknownColumn(table: Self.tableName, column: column, columns: columns.names)
        }
        var values = columns.values
        values[index] = value
        let sql = "SELECT " + columns.names.map { "? AS " + SQLIdentifier.quoted($0) }.joined(separator: ", ")
        return try db.withStatement(sql: sql, arguments: StatementArguments(values)) { statement in
            _ = try statement.step()
            let context = RowDecodingContext(
                statement: statement, tableName: Self.tableName, missingOptionalColumnIsNil: false,
                decoder: Self.rowDecoder)
            return try context.decodeRow(Self.self)
        }
    }
}
