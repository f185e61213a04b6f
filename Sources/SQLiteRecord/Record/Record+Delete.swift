extension Record {
    /// Deletes the record's row. Calls ``willDelete(_:)`` first and ``didDelete(_:)`` after.
    /// - Returns: true when a row was deleted, false when no row had the id.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` when `id` is nil, what ``willDelete(_:)`` throws
    ///   (nothing is deleted), ``DatabaseError`` (a foreign key from another table still references the
    ///   row: `SQLITE_CONSTRAINT_FOREIGNKEY`), ``RecordError/rowNotDeleted(table:id:)`` when the row exists
    ///   but a trigger ignored the delete, or ``RecordError/viewNotWritable(table:)`` for a view (nothing is
    ///   deleted).
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        guard let id else { throw RecordError.recordNotSaved(table: Self.tableName) }
        try willDelete(db)
        try Self.checkWriteTarget(db, insertingWithoutID: false)
        let sql = RecordSQLCache.sql(
            Self.self, .delete, table: Self.tableName, primaryKey: Self.primaryKeyColumn
        ) {
            RecordSQL.delete(from: Self.tableName, primaryKey: Self.primaryKeyColumn)
        }
        try db.run(sql: sql, arguments: [id])
        let deleted = db.changesCount > 0
        if !deleted, try Self.exists(db, id: id) { throw RecordError.rowNotDeleted(table: Self.tableName, id: id) }
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
