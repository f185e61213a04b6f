extension Record {
    /// Writes every column of the record to the row with its `id`. Calls ``willSave(_:)`` first.
    /// - Throws: ``RecordError/recordNotFound(table:id:)`` when no row has the id (nothing is inserted in its
    ///   place), ``RecordError/recordNotSaved(table:)`` when `id` is nil, what ``willSave(_:)`` throws,
    ///   ``DatabaseError`` for a violated constraint, or `EncodingError` naming the column whose value cannot
    ///   be stored (text that the column's affinity would turn into a number);
    ///   ``RecordError/rowNotUpdated(table:id:)`` when the row exists but a conflict clause or a trigger
    ///   ignored the update; ``RecordError/viewNotWritable(table:)`` for a view, before anything is written.
    public func update(_ db: Database) throws {
        guard let id else { throw RecordError.recordNotSaved(table: Self.tableName) }
        try willSave(db)
        // False from the collected way: nothing to write but the key, and the row was found.
        guard try writeThroughPlan(.update, db: db) || writeCollected(.update, db: db) else { return }
        guard db.changesCount > 0 else {
            // No row changed: either none has the id, or the table ignored the update.
            if try Self.exists(db, id: id) { throw RecordError.rowNotUpdated(table: Self.tableName, id: id) }
            throw RecordError.recordNotFound(table: Self.tableName, id: id)
        }
    }

    /// Updates the record through the default queue (``RecordStore``).
    /// - Throws: as ``update(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func update() throws {
        try RecordStore.defaultQueue().write { db in try update(db) }
    }
}
