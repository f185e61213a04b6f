/// Setting one column of a record in memory, by the type's own coding rules: how a parent's save sets each
/// child's foreign key from a declared association.
extension Record {
    /// The value this record stores in `column`, as its ``Record/recordEncoder`` encodes it.
    /// - Throws: `EncodingError` when the record does not encode, or
    ///   ``RecordError/unknownColumn(table:column:columns:)`` when it encodes no such column.
    func storedValue(of column: String) throws -> SQLiteValue {
        let columns = try Self.recordEncoder.encode(self)
        return columns.values[try Self.index(of: column, in: columns)]
    }

    /// The index of `column` in `columns`, its name compared as SQLite compares names (A-Z in either case):
    /// a declaration may spell `"COUNTRY_ID"` the column a coding key spells `"country_id"`.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` when there is no such column.
    private static func index(of column: String, in columns: EncodedColumns) throws -> Int {
        guard let index = index(of: column, inNames: columns.names) else {
            throw RecordError.unknownColumn(table: tableName, column: column, columns: columns.names)
        }
        return index
    }

    /// The index of `column` in `names`, an exact match first, then as SQLite compares names (A-Z in either
    /// case); nil when there is none.
    package static func index(of column: String, inNames names: [String]) -> Int? {
        if let index = names.firstIndex(of: column) { return index }
        let folded = RowLayout.asciiLowercased(column)
        return names.firstIndex { RowLayout.asciiLowercased($0) == folded }
    }

    /// This record with `column` set to `value`: the record is encoded with its ``Record/recordEncoder``, the
    /// column's value replaced, and the columns decoded back with its ``Record/rowDecoder``, so the value
    /// reaches the property as a fetch would put it there (a key strategy, a `CodingKeys` rename, a date or
    /// UUID strategy all apply).
    ///
    /// The decoder reads SQLite's own column values, so the columns are read back from a one-row `SELECT` of
    /// bound values (`SELECT ? AS "id", ? AS "country_id", ...`) on `db`, which reads and writes no table.
    /// Every other property comes back as a fetch of its stored value would give it (a `Date` to the
    /// precision its stored form keeps, a property that is no column as `init(from:)` sets it); an optional
    /// the record reads but does not encode (a column the table fills by default) comes back nil.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` when the record encodes no such column,
    ///   `EncodingError` when it does not encode, or the `DecodingError` of a value its type does not read
    ///   back (naming the column and the table).
    func settingColumn(_ column: String, to value: SQLiteValue, in db: Database) throws -> Self {
        try settingColumns([column], to: [value], in: db)
    }

    /// This record with each of `columns` set to the value at the same place in `values`, in one encoding
    /// and one decoding: ``settingColumn(_:to:in:)`` for several columns (the foreign key of a composite
    /// parent key).
    /// - Throws: as ``settingColumn(_:to:in:)``, for the first column the record does not encode.
    func settingColumns(_ names: [String], to newValues: [SQLiteValue], in db: Database) throws -> Self {
        let columns = try Self.recordEncoder.encode(self)
        var values = columns.values
        for (column, value) in zip(names, newValues) { values[try Self.index(of: column, in: columns)] = value }
        let sql = RecordSQL.selectParameters(named: columns.names)
        return try db.withStatement(sql: sql, arguments: StatementArguments(values)) { statement in
            _ = try statement.step()
            // The SELECT has the encoded columns only: one read but never written is missing from it.
            let context = RowDecodingContext(
                statement: statement, tableName: Self.tableName, missingOptionalColumnIsNil: true,
                decoder: Self.rowDecoder)
            return try context.decodeRow(Self.self)
        }
    }
}
