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
        // Read once: in code that is not specialized for the record type, each look at `ID` costs a witness
        // table lookup, and a loop of inserts makes one call per record.
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
        try write(kind, db: db)
        // `sqlite3_last_insert_rowid` still names an earlier row when the statement inserted none (a conflict
        // clause or a trigger ignored it); the changes count of the statement itself tells.
        guard db.changesCount > 0 else { throw RecordError.rowNotInserted(table: Self.tableName) }
        if isRowID {
            if let givenRowID {
                didInsert(rowID: givenRowID)
            } else {
                let rowID = db.lastInsertedRowID
                setRowID(rowID)
                didInsert(rowID: rowID)
            }
        } else {
            // A WITHOUT ROWID table has no rowid, and leaves sqlite3_last_insert_rowid as it was.
            didInsert(rowID: try db.tableShape(Self.tableName).hasRowID ? db.lastInsertedRowID : 0)
        }
    }

    /// Inserts the record, or, with `.ignore`, skips it when it would violate a UNIQUE, PRIMARY KEY, NOT NULL
    /// or CHECK constraint (`INSERT OR IGNORE`; see <https://www.sqlite.org/lang_conflict.html>).
    ///
    /// When the row is inserted the record takes its rowid as ``insert(_:)`` does and ``didInsert(rowID:)`` is
    /// called; when it is skipped the record keeps the id it had (nil for a new rowid record): the call
    /// never reports a rowid left over from an earlier insert.
    /// - Parameters:
    ///   - db: the connection, inside the caller's transaction.
    ///   - conflict: `.abort` is ``insert(_:)``; `.ignore` skips the row.
    /// - Returns: true when a row was inserted, false when the insert was skipped.
    /// - Throws: as ``insert(_:)``, but a skipped row is `false`, not ``RecordError/rowNotInserted(table:)``.
    @discardableResult
    public mutating func insert(_ db: Database, onConflict conflict: ConflictResolution) throws -> Bool {
        guard conflict == .ignore else {
            try insert(db)
            return true
        }
        try willSave(db)
        let withoutID: Bool
        if Self.keyIsRowID {
            withoutID = RowIDKey.rowID(id) == nil
        } else {
            _ = try Self.keyMatch(id)
            withoutID = false
        }
        let kind = RecordWritePlan.Kind.insertOrIgnore(withoutID: withoutID)
        try write(kind, db: db)
        // The changes count of this statement, never `sqlite3_last_insert_rowid`, says whether it inserted.
        guard db.changesCount > 0 else { return false }
        let rowID = db.lastInsertedRowID
        if withoutID { setRowID(rowID) }
        didInsert(rowID: Self.keyIsRowID ? (RowIDKey.rowID(id) ?? rowID) : rowID)
        return true
    }

    /// ``insert(_:onConflict:)`` through the default queue (``RecordStore``), in a transaction of its own.
    /// - Returns: true when a row was inserted, false when the insert was skipped.
    /// - Throws: as ``insert(_:onConflict:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func insert(onConflict conflict: ConflictResolution) throws -> Bool {
        var inserted = false
        try RecordStore.write(restoring: &self) { db, record in inserted = try record.insert(db, onConflict: conflict) }
        return inserted
    }

    /// Inserts the record through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``insert(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func insert() throws {
        try RecordStore.write(restoring: &self) { db, record in try record.insert(db) }
    }
}
