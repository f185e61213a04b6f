/// The row a statement's RETURNING clause gave back (or, when it gave none, the row read after it), kept as
/// names and values until the record takes them.
final class ReturnedValues {
    /// The columns asked for; nil for every column (`RETURNING *`).
    let columns: [String]?
    /// The row's column names and values, in the statement's order.
    private(set) var names: [String] = []
    private(set) var values: [SQLiteValue] = []
    /// True once a row was kept.
    private(set) var hasRow = false

    init(_ columns: [String]?) {
        self.columns = columns
    }

    /// Keeps the current row of `statement`, which has stepped to a row: the values are copied out of it.
    func keep(_ statement: Statement) {
        names = statement.columnNames
        values = (0..<statement.columnCount).map { statement.value(at: $0) }
        hasRow = true
    }
}

extension Record {
    /// Sets the columns of `returned` in the record (read again by the record's key when the table has
    /// triggers, whose AFTER changes RETURNING does not see), matched as SQLite matches names, ASCII
    /// case-insensitively; its other columns as they were: the record's columns with the returned ones laid
    /// over them are decoded back into the record, by the type's ``rowDecoder``, from a one-row SELECT of
    /// the bound values, so they are read exactly as a fetch reads them.
    /// - Throws: `EncodingError` or `DecodingError` when the record cannot take the values (a NULL default in a
    ///   non-optional property, say); ``DatabaseError``.
    mutating func take(_ returned: ReturnedValues, db: Database) throws {
        guard returned.hasRow else { return }
        if try db.tableWriteTraits(Self.tableName).hasTriggers {
            // RETURNING reports the row before AFTER triggers ran: read it again, by the record's key.
            let match = try Self.keyMatch(id)
            let sql = RecordSQL.select(
                returned.columns, from: Self.tableName, keyColumns: match.columns, counts: match.counts)
            try db.withStatement(sql: sql, arguments: match.arguments) { statement in
                if try statement.step() { returned.keep(statement) }
            }
        }
        var merged = try Self.recordEncoder.encode(self, tableName: Self.tableName)
        let wanted = returned.columns.map { Set($0.map(RowLayout.asciiLowercased)) }
        for (name, value) in zip(returned.names, returned.values) {
            let folded = RowLayout.asciiLowercased(name)
            if let wanted, !wanted.contains(folded) { continue }
            if let index = merged.names.firstIndex(where: { RowLayout.asciiLowercased($0) == folded }) {
                merged.values[index] = value
            } else {
                merged.names.append(name)
                merged.values.append(value)
            }
        }
        let current = self
        self = try db.withStatement(
            sql: RecordSQL.selectValues(named: merged.names), arguments: StatementArguments(merged.values)
        ) { statement in
            guard try statement.step() else { return current }
            return try Self.rowDecoder.decode(Self.self, from: statement)
        }
    }

    /// Reads into `returned` the row whose `columns` hold `values` (the columns `returned` asks for, or all):
    /// the row an upsert left unchanged, which its RETURNING clause does not give back.
    /// - Throws: ``DatabaseError``.
    static func readBack(
        _ db: Database, into returned: ReturnedValues, whereEqual columns: [String], values: [SQLiteValue]
    )
        throws
    {
        let sql = RecordSQL.select(returned.columns, from: tableName, whereEqual: columns)
        try db.withStatement(sql: sql, arguments: StatementArguments(values)) { statement in
            if try statement.step() { returned.keep(statement) }
        }
    }
}

extension RecordWritePlan {
    /// The positions in `encoded` whose value is NULL and whose column declares a DEFAULT: what the inserts
    /// that read back (``Record/insertAndFetch(_:columns:)``, ``Record/upsertAndFetch(_:onConflict:updating:columns:)``)
    /// leave out of their statement, so that a nil `createdAt` over `DEFAULT CURRENT_TIMESTAMP` gets the
    /// database's value and reads it back, where a plain insert stores the NULL the record holds.
    static func nullsWithDefaults(_ encoded: EncodedColumns, _ tableColumns: [ColumnInfo]) -> Set<Int> {
        let defaulted = Set(
            tableColumns.filter { $0.defaultValueSQL != nil }.map { RowLayout.asciiLowercased($0.name) })
        guard !defaulted.isEmpty else { return [] }
        var positions: Set<Int> = []
        for (position, (name, value)) in zip(encoded.names, encoded.values).enumerated()
        where value == .null && defaulted.contains(RowLayout.asciiLowercased(name)) {
            positions.insert(position)
        }
        return positions
    }
}
