extension Record {
    /// Writes every column of the record to the row with its key (every column but the key's). Calls
    /// ``willSave(_:)`` first.
    /// - Throws: ``RecordError/recordNotFound(table:id:)`` when no row has the key (nothing is inserted in its
    ///   place), ``RecordError/recordNotSaved(table:)`` when a rowid `id` is nil,
    ///   ``RecordError/missingKey(table:column:)`` when another key is nil, what ``willSave(_:)`` throws,
    ///   ``DatabaseError`` for a violated constraint, or `EncodingError` naming the column whose value cannot
    ///   be stored (text that the column's affinity would turn into a number);
    ///   ``RecordError/rowNotUpdated(table:id:)`` when the row exists but a conflict clause or a trigger
    ///   ignored the update; ``RecordError/viewNotWritable(table:)`` for a view and
    ///   ``RecordError/keyNotUnique(table:columns:)`` for key columns that are not unique in the table,
    ///   before anything is written.
    public func update(_ db: some DatabaseConnection) throws {
        try update(db, writing: nil)
    }

    /// The update of every column (`columns` nil) or of the named ones, after ``willSave(_:)``.
    func update(_ db: some DatabaseConnection, writing columns: [String]?) throws {
        if Self.keyIsRowID && RowIDKey.rowID(id) == nil { throw RecordError.recordNotSaved(table: Self.tableName) }
        try willSave(db)
        try db.updateRow(of: self, columns: columns)
    }

    /// SQLite's update of every column (`.update`) or of the named ones (`.updateColumns`), with no callback.
    func updateRow(_ db: Database, kind: RecordWritePlan.Kind) throws {
        let key: WriteKey
        if RowIDKey.isRowID(ID.self) {
            guard let rowID = RowIDKey.rowID(id) else { throw RecordError.recordNotSaved(table: Self.tableName) }
            key = .rowID(rowID)
        } else {
            key = .match(try Self.keyMatch(id))
        }
        // The key is checked unique where the update's plan is made (see ``write(_:db:key:returned:)``).
        // False: nothing to write but the key, and the row was found.
        guard try write(kind, db: db, key: key) else { return }
        var changed = db.changesCount > 0
        if !changed, case .match(let match) = key, match.hasAlternateForms {
            // A UUID another tool stored in another form: the same columns, by every form of the key.
            guard try write(kind, db: db, key: .match(match.allForms)) else { return }
            changed = db.changesCount > 0
        }
        guard changed else {
            // No row changed: either none has the key, or the table ignored the update.
            let description = key.description
            if try Self.exists(db, id: id) {
                throw RecordError.rowNotUpdated(table: Self.tableName, id: description)
            }
            throw RecordError.recordNotFound(table: Self.tableName, id: description)
        }
    }

    /// Updates the record through the default queue (``RecordStore``).
    /// - Throws: as ``update(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func update() throws {
        try RecordStore.defaultQueue().write { db in try update(db) }
    }
}
