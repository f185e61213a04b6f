/// Writes that read back what the database set: the statement ends in a RETURNING clause, and the record
/// takes the values of the row as written (defaults such as `DEFAULT CURRENT_TIMESTAMP`, values a trigger
/// set, generated columns). See <https://www.sqlite.org/lang_returning.html> (SQLite 3.35 or later).
///
/// `columns` names the columns read back; nil reads every column. The record's other properties keep their
/// values. These writes run the statement built for them, not the prepared plan the plain calls bind into
/// (see ``write(_:db:key:returned:)``).
extension Record {
    /// ``insert(_:)``, then the record takes the values the database set in the new row.
    /// - Parameters:
    ///   - db: the connection, inside the caller's transaction.
    ///   - columns: the columns to read back; nil for all.
    /// - Throws: as ``insert(_:)``; ``RecordError/unknownColumn(table:column:columns:)`` for a column the table
    ///   does not have, before anything is written; `DecodingError` when the record cannot hold a value read
    ///   back (the row is written then, and the caller's transaction decides whether it stays).
    public mutating func insertAndFetch(_ db: some DatabaseConnection, columns: [String]? = nil) throws {
        try willSave(db)
        let rowID = try db.insertRowAndFetch(of: &self, columns: columns)
        didInsert(rowID: rowID)
    }

    /// ``upsert(_:onConflict:updating:)-method``, then the record takes the values of the row as the upsert
    /// left it (read back by the conflict target when the row was unchanged, which RETURNING does not report).
    /// - Parameters:
    ///   - db: the connection, inside the caller's transaction.
    ///   - conflictColumns: as for ``upsert(_:onConflict:updating:)-method``.
    ///   - updatedColumns: as `columns` for ``upsert(_:onConflict:updating:)-method``.
    ///   - columns: the columns to read back; nil for all.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsert(_:onConflict:updating:)-method`` and ``insertAndFetch(_:columns:)``.
    @discardableResult
    public mutating func upsertAndFetch(
        _ db: some DatabaseConnection, onConflict conflictColumns: [String]? = nil,
        updating updatedColumns: [String]? = nil, columns: [String]? = nil
    ) throws -> UpsertOutcome {
        try willSave(db)
        let (outcome, rowID) = try db.upsertRowAndFetch(
            of: &self, onConflict: conflictColumns, updating: updatedColumns, returning: columns)
        tookUpsertedRow(outcome, rowID: rowID)
        return outcome
    }

    /// ``update(_:)``, then the record takes the values of the row as written (a trigger's, a generated
    /// column's).
    /// - Parameters:
    ///   - db: the connection, inside the caller's transaction.
    ///   - columns: the columns to read back; nil for all.
    /// - Throws: as ``update(_:)`` and ``insertAndFetch(_:columns:)``.
    public mutating func updateAndFetch(_ db: some DatabaseConnection, columns: [String]? = nil) throws {
        try willSave(db)
        try db.updateRowAndFetch(of: &self, columns: columns)
    }

    /// SQLite's insert with RETURNING, with no callback: ``DatabaseConnection/insertRowAndFetch(of:columns:)``.
    mutating func insertRowAndFetch(_ db: Database, columns: [String]?) throws -> Int64 {
        try Self.checkReturnedColumns(db, columns)
        let withoutID: Bool
        if Self.keyIsRowID {
            withoutID = RowIDKey.rowID(id) == nil
        } else {
            _ = try Self.keyMatch(id)
            withoutID = false
        }
        let returned = ReturnedValues(columns)
        let original = self
        try write(withoutID ? .insertWithoutID : .insertWithID, db: db, returned: returned)
        guard db.changesCount > 0 else { throw RecordError.rowNotInserted(table: Self.tableName) }
        let rowID = db.lastInsertedRowID
        do {
            if withoutID { setRowID(rowID) }
            try take(returned, db: db)
        } catch {
            self = original
            throw error
        }
        return Self.keyIsRowID ? (RowIDKey.rowID(id) ?? rowID) : rowID
    }

    /// SQLite's upsert with RETURNING, with no callback: ``DatabaseConnection/upsertRowAndFetch(of:onConflict:updating:returning:)``.
    mutating func upsertRowAndFetch(
        _ db: Database, onConflict conflictColumns: [String]?, updating updatedColumns: [String]?,
        returning columns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        try Self.checkReturnedColumns(db, columns)
        let original = self
        do {
            return try Self.explainingMissingTable {
                try upsertRow(db, onConflict: conflictColumns, updating: updatedColumns, returned: ReturnedValues(columns))
            }
        } catch {
            self = original
            throw error
        }
    }

    /// SQLite's update with RETURNING, with no callback: ``DatabaseConnection/updateRowAndFetch(of:columns:)``.
    mutating func updateRowAndFetch(_ db: Database, columns: [String]?) throws {
        try Self.checkReturnedColumns(db, columns)
        let match = try Self.keyMatch(id)
        let key: WriteKey = Self.keyIsRowID ? .rowID(RowIDKey.rowID(id) ?? 0) : .match(match)
        try Self.checkKey(db, columns: match.columns)
        let returned = ReturnedValues(columns)
        if try write(.update, db: db, key: key, returned: returned) {
            guard db.changesCount > 0 else {
                if try Self.exists(db, id: id) {
                    throw RecordError.rowNotUpdated(table: Self.tableName, id: match.description)
                }
                throw RecordError.recordNotFound(table: Self.tableName, id: match.description)
            }
        } else {
            // Nothing to write but the key: the row is read as it is.
            let sql = RecordSQL.selectOne(from: Self.tableName, keyColumns: match.columns, counts: match.counts)
            try db.withStatement(sql: sql, arguments: match.arguments) { statement in
                if try statement.step() { returned.keep(statement) }
            }
        }
        try take(returned, db: db)
    }

    /// ``insertAndFetch(_:columns:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``insertAndFetch(_:columns:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public mutating func insertAndFetch(columns: [String]? = nil) throws {
        try RecordStore.write(restoring: &self) { db, record in try record.insertAndFetch(db, columns: columns) }
    }

    /// ``upsertAndFetch(_:onConflict:updating:columns:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``upsertAndFetch(_:onConflict:updating:columns:)``, and ``RecordError/noDefaultStore``
    ///   before ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func upsertAndFetch(
        onConflict conflictColumns: [String]? = nil, updating updatedColumns: [String]? = nil,
        columns: [String]? = nil
    ) throws -> UpsertOutcome {
        var outcome = UpsertOutcome.unchanged
        try RecordStore.write(restoring: &self) { db, record in
            outcome = try record.upsertAndFetch(
                db, onConflict: conflictColumns, updating: updatedColumns, columns: columns)
        }
        return outcome
    }

    /// ``updateAndFetch(_:columns:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``updateAndFetch(_:columns:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public mutating func updateAndFetch(columns: [String]? = nil) throws {
        try RecordStore.write(restoring: &self) { db, record in try record.updateAndFetch(db, columns: columns) }
    }
}
