extension Record {
    /// Inserts the record as a new row. For a rowid key (`id: Int64?`) that is nil, SQLite chooses the rowid
    /// and `id` is set to it; a record that arrives with its own key (a GeoNames id, a UUID made in the app)
    /// is inserted under that key.
    ///
    /// Calls ``willSave(_:)`` first and ``didInsert(rowID:)`` after.
    ///
    /// The id the record takes is the rowid of the row this insert wrote, never one left over from an
    /// earlier row: when the table ignores the insert (`ON CONFLICT IGNORE`, a trigger's `RAISE(IGNORE)`),
    /// the call throws and the record keeps its nil id.
    /// - Throws: what ``willSave(_:)`` throws (nothing is written); ``DatabaseError`` for a constraint the row
    ///   violates (`SQLITE_CONSTRAINT`: a key already taken, NOT NULL, a foreign key); `EncodingError` naming
    ///   the column whose value cannot be stored (text that the column's affinity would turn into a number,
    ///   such as '00120' into a column declared `STRING`); ``RecordError/rowNotInserted(table:)`` when the
    ///   table ignored the insert; ``RecordError/rowIDNotAssigned(table:column:declaration:)`` for a nil rowid
    ///   whose column is not the rowid, ``RecordError/missingKey(table:column:)`` for a nil key of another
    ///   kind, and ``RecordError/viewNotWritable(table:)`` for a view, these before anything is written. The
    ///   record is unchanged when it throws.
    public mutating func insert(_ db: Database) throws {
        try willSave(db)
        // The first insert of a type on a connection goes the collected way and prepares the plan that the
        // inserts after it bind straight into.
        // Read once: in code that is not specialized for the record type, each look at `ID` costs a witness
        // table lookup, and W1 inserts a record per call.
        let isRowID = Self.keyIsRowID
        let givenRowID = isRowID ? RowIDKey.rowID(id) : nil
        let kind: RecordWritePlan.Kind
        if isRowID {
            kind = givenRowID == nil ? .insertWithoutID : .insertWithID
        } else {
            // A key the client chose must be there: SQLite would take NULL in a rowid table's TEXT key.
            _ = try Self.keyMatch(id)
            kind = .insertWithID
        }
        if try !writeThroughPlan(kind, db: db) {
            try writeCollected(kind, db: db)
        }
        // `sqlite3_last_insert_rowid` still names an earlier row when the statement inserted none (a conflict
        // clause or a trigger ignored it); the changes count of the statement itself tells.
        guard db.changesCount > 0 else { throw RecordError.rowNotInserted(table: Self.tableName) }
        if isRowID {
            if let givenRowID {
                didInsert(rowID: givenRowID)
            } else {
                let rowID = db.lastInsertedRowID
                id = RowIDKey.key(rowID)
                didInsert(rowID: rowID)
            }
        } else {
            // A WITHOUT ROWID table has no rowid, and leaves sqlite3_last_insert_rowid as it was.
            didInsert(rowID: try db.tableShape(Self.tableName).hasRowID ? db.lastInsertedRowID : 0)
        }
    }

    /// Inserts the record through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``insert(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func insert() throws {
        try RecordStore.write(restoring: &self) { db, record in try record.insert(db) }
    }
}
