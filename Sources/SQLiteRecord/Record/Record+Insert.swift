extension Record {
    /// Inserts the record as a new row. With a nil `id`, SQLite chooses the rowid and `id` is set to it;
    /// a record that arrives with its own id (a GeoNames id, say) is inserted under that id.
    ///
    /// Calls ``willSave(_:)`` first and ``didInsert(rowID:)`` after.
    /// The id the record takes is the rowid of the row this insert wrote, never one left over from an
    /// earlier row: when the table ignores the insert (`ON CONFLICT IGNORE`, a trigger's `RAISE(IGNORE)`),
    /// the call throws and the record keeps its nil id.
    /// - Throws: what ``willSave(_:)`` throws (nothing is written); ``DatabaseError`` for a constraint the row
    ///   violates (`SQLITE_CONSTRAINT`: an id already taken, NOT NULL, a foreign key); `EncodingError` naming
    ///   the column whose value cannot be stored (text that the column's affinity would turn into a number,
    ///   such as '00120' into a column declared `STRING`); ``RecordError/rowNotInserted(table:)`` when the
    ///   table ignored the insert; ``RecordError/rowIDNotAssigned(table:column:declaration:)`` for a nil id
    ///   whose column is not the rowid, and ``RecordError/viewNotWritable(table:)`` for a view, both before
    ///   anything is written. The record is unchanged when it throws.
    public mutating func insert(_ db: Database) throws {
        try willSave(db)
        // The first insert of a type on a connection goes the collected way and prepares the plan that the
        // inserts after it bind straight into.
        let kind: RecordWritePlan.Kind = id == nil ? .insertWithoutID : .insertWithID
        if try !writeThroughPlan(kind, db: db) {
            try writeCollected(kind, db: db)
        }
        // `sqlite3_last_insert_rowid` still names an earlier row when the statement inserted none (a conflict
        // clause or a trigger ignored it); the changes count of the statement itself tells.
        guard db.changesCount > 0 else { throw RecordError.rowNotInserted(table: Self.tableName) }
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
