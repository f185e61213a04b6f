extension Record {
    /// Inserts the record as a new row. With a nil `id`, SQLite chooses the rowid and `id` is set to it;
    /// a record that arrives with its own id (a GeoNames id, say) is inserted under that id.
    /// - Throws: ``DatabaseError`` for a constraint the row violates (`SQLITE_CONSTRAINT`: an id already
    ///   taken, NOT NULL, a foreign key), or `EncodingError` naming the column whose value cannot be stored (text that the column's
    ///   affinity would turn into a number, such as '00120' into a column declared `STRING`).
    ///   The record is unchanged when it throws.
    public mutating func insert(_ db: Database) throws {
        var columns = try Self.recordEncoder.encode(self, tableName: Self.tableName)
        guard let keyIndex = columns.names.firstIndex(of: Self.primaryKeyColumn) else {
            throw RecordError.missingPrimaryKey(table: Self.tableName)
        }
        if id == nil {
            // Leaving the column out lets SQLite assign the rowid.
            columns.names.remove(at: keyIndex)
            columns.values.remove(at: keyIndex)
        }
        try TextAffinityGuard.check(columns, table: Self.tableName, db: db)
        let sql = RecordSQL.insert(into: Self.tableName, columns: columns.names)
        try db.run(sql: sql, arguments: StatementArguments(columns.values))
        if id == nil { id = db.lastInsertedRowID }
    }

    /// Inserts the record through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``insert(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func insert() throws {
        try RecordStore.write(restoring: &self) { db, record in try record.insert(db) }
    }
}
