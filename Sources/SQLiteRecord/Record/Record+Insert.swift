extension Record {
    /// Inserts the record as a new row. For a rowid key (`id: Int64?`) that is nil, the database chooses the
    /// id (SQLite's rowid; PostgreSQL's identity column, read from `RETURNING`) and `id` is set to it; a record that arrives with its own key (a GeoNames id, a UUID made in the app)
    /// is inserted under that key.
    ///
    /// Calls ``willSave(_:)`` first and ``didInsert(rowID:)`` after.
    ///
    /// The id the record takes is the rowid of the row this insert wrote, never one left over from an
    /// earlier row: when the table ignores the insert (`ON CONFLICT IGNORE`, a trigger's `RAISE(IGNORE)`),
    /// the call throws and the record keeps its nil id.
    /// - Throws: what ``willSave(_:)`` throws (nothing is written); the engine's error for a constraint the
    ///   row violates (``DatabaseError`` with `SQLITE_CONSTRAINT`, or `PostgresError` with SQLSTATE class 23:
    ///   a key already taken, NOT NULL, a foreign key); `EncodingError` naming
    ///   the column whose value cannot be stored (text that the column's affinity would turn into a number,
    ///   such as '00120' into a column declared `STRING`); ``RecordError/rowNotInserted(table:)`` when the
    ///   table ignored the insert; ``RecordError/rowIDNotAssigned(table:column:declaration:)`` for a nil rowid
    ///   whose column is not the rowid, ``RecordError/missingKey(table:column:)`` for a nil key of another
    ///   kind, and ``RecordError/viewNotWritable(table:)`` for a view, these before anything is written. The
    ///   record is unchanged when it throws.
    public mutating func insert(_ db: some DatabaseConnection) throws {
        try insert(db, onConflict: .abort)
    }

    /// Inserts the record, or, with `.ignore`, skips it when it would violate a UNIQUE, PRIMARY KEY, NOT NULL
    /// or CHECK constraint (SQLite's `INSERT OR IGNORE`, see <https://www.sqlite.org/lang_conflict.html>;
    /// PostgreSQL's `ON CONFLICT DO NOTHING`, which skips only a uniqueness conflict, see
    /// <https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT>).
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
    public mutating func insert(_ db: some DatabaseConnection, onConflict conflict: ConflictResolution) throws -> Bool {
        try willSave(db)
        guard let rowID = try db.insertRow(of: self, onConflict: conflict) else {
            if conflict == .ignore { return false }
            throw RecordError.rowNotInserted(table: Self.tableName)
        }
        if Self.keyIsRowID && RowIDKey.rowID(id) == nil { setRowID(rowID) }
        didInsert(rowID: rowID)
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
