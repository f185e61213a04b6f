extension Record {
    /// Deletes the record's row. Calls ``willDelete(_:)`` first and ``didDelete(_:)`` after.
    /// - Returns: true when a row was deleted, false when no row had the id.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` when `id` is nil, what ``willDelete(_:)`` throws
    ///   (nothing is deleted), or ``DatabaseError`` (a foreign key from another table still references the
    ///   row: `SQLITE_CONSTRAINT_FOREIGNKEY`).
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        guard let id else { throw RecordError.recordNotSaved(table: Self.tableName) }
        try willDelete(db)
        let sql = RecordSQLCache.sql(
            Self.self, .delete, table: Self.tableName, primaryKey: Self.primaryKeyColumn
        ) {
            RecordSQL.delete(from: Self.tableName, primaryKey: Self.primaryKeyColumn)
        }
        try Self.explainingMissingTable { try db.run(sql: sql, arguments: [id]) }
        let deleted = db.changesCount > 0
        didDelete(deleted)
        return deleted
    }

    /// Deletes the record's row through the default queue (``RecordStore``).
    /// - Returns: true when a row was deleted, false when no row had the id.
    /// - Throws: as ``delete(_:)-method``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func delete() throws -> Bool {
        try RecordStore.defaultQueue().write { db in try delete(db) }
    }
}
