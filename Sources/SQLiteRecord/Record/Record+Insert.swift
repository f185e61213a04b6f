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
        // The first insert of a type on a connection goes the collected way and prepares the plan that the
        // inserts after it bind straight into.
        let kind: RecordWritePlan.Kind = id == nil ? .insertWithoutID : .insertWithID
        if try !writeThroughPlan(kind, db: db) {
            try writeCollected(kind, db: db)
        }
        let rowID = id ?? db.lastInsertedRowID
        id = rowID
        didInsert(rowID: rowID)
    }

    /// Inserts the record through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``insert(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func insert() throws {
        try RecordStore.write(restoring: &self) { db, record in try record.insert(db) }
    }
}
