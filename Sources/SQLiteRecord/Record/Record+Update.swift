extension Record {
    /// Writes every column of the record to the row with its `id`. Calls ``willSave(_:)`` first.
    /// - Throws: ``RecordError/recordNotFound(table:id:)`` when no row has the id (nothing is inserted in its
    ///   place), ``RecordError/recordNotSaved(table:)`` when `id` is nil, what ``willSave(_:)`` throws,
    ///   ``DatabaseError`` for a violated constraint, or `EncodingError` naming the column whose value cannot
    ///   be stored (text that the column's affinity would turn into a number).
    public func update(_ db: Database) throws {
        guard let id else { throw RecordError.recordNotSaved(table: Self.tableName) }
        try willSave(db)
        var columns = try encodedColumns()
        if let keyIndex = columns.names.firstIndex(of: Self.primaryKeyColumn) {
            columns.names.remove(at: keyIndex)
            columns.values.remove(at: keyIndex)
        }
        guard !columns.names.isEmpty else {
            // Nothing to write but the key: the update only has to find its row.
            guard try Self.exists(db, id: id) else { throw RecordError.recordNotFound(table: Self.tableName, id: id) }
            return
        }
        try TextAffinityGuard.check(columns, table: Self.tableName, db: db)
        let sql = RecordSQLCache.sql(Self.self, .update, columns: columns.names) {
            RecordSQL.update(Self.tableName, columns: columns.names, primaryKey: Self.primaryKeyColumn)
        }
        try db.run(sql: sql, arguments: StatementArguments(columns.values + [.integer(id)]))
        guard db.changesCount > 0 else { throw RecordError.recordNotFound(table: Self.tableName, id: id) }
    }

    /// Updates the record through the default queue (``RecordStore``).
    /// - Throws: as ``update(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func update() throws {
        try RecordStore.defaultQueue().write { db in try update(db) }
    }
}
