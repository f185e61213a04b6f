extension Record {
    /// Inserts the record as a new row. With a nil `id`, SQLite chooses the rowid and `id` is set to it;
    /// a record that arrives with its own id (a GeoNames id, say) is inserted under that id.
    ///
    /// Calls ``willSave(_:)`` first and ``didInsert(rowID:)`` after.
    /// - Throws: what ``willSave(_:)`` throws (nothing is written); ``DatabaseError`` for a constraint the row
    ///   violates (`SQLITE_CONSTRAINT`: an id already taken, NOT NULL, a foreign key); `EncodingError` naming
    ///   the column whose value cannot be stored (text that the column's affinity would turn into a number,
    ///   such as '00120' into a column declared `STRING`). The record is unchanged when it throws.
    public mutating func insert(_ db: Database) throws {
        try willSave(db)
        var columns = try encodedColumns()
        if id == nil, let keyIndex = columns.names.firstIndex(of: Self.primaryKeyColumn) {
            // Leaving the key out lets SQLite assign the rowid.
            columns.names.remove(at: keyIndex)
            columns.values.remove(at: keyIndex)
        }
        try TextAffinityGuard.check(columns, table: Self.tableName, db: db)
        let sql = RecordSQLCache.sql(Self.self, id == nil ? .insertWithoutID : .insertWithID, columns: columns.names) {
            RecordSQL.insert(into: Self.tableName, columns: columns.names)
        }
        try db.run(sql: sql, arguments: StatementArguments(columns.values))
        let rowID = id ?? db.lastInsertedRowID
        id = rowID
        didInsert(rowID: rowID)
    }

    /// Inserts the record through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``insert(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func insert() throws {
        try RecordStore.write(restoring: &self) { db, record in try record.insert(db) }
    }

    /// The record's columns, checked to hold the primary key column.
    func encodedColumns() throws -> EncodedColumns {
        let columns = try Self.recordEncoder.encode(self, tableName: Self.tableName)
        guard columns.names.contains(Self.primaryKeyColumn) else {
            throw RecordError.missingPrimaryKey(table: Self.tableName, column: Self.primaryKeyColumn)
        }
        return columns
    }
}
