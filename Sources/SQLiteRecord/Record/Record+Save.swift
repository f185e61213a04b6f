extension Record {
    /// Saves the record. For a rowid key (`id: Int64?`): inserts when `id` is nil (then sets `id` from the new
    /// rowid), updates its row otherwise. For a key the client chose (a UUID, a code, a composite key):
    /// inserts the row, or updates the one that has the key, in one statement (`INSERT ... ON CONFLICT DO
    /// UPDATE`; see <https://www.sqlite.org/lang_upsert.html>); a UUID key is matched in every form it may be
    /// stored in, so it is looked up first, then updated or inserted. Either way no second row is written.
    /// - Throws: as ``insert(_:)`` or ``update(_:)``: an update of a rowid record whose row is gone throws
    ///   ``RecordError/recordNotFound(table:id:)`` and never inserts; ``RecordError/keyNotUnique(table:columns:)``
    ///   when the key columns are not unique in the table.
    public mutating func save(_ db: some DatabaseConnection) throws {
        if Self.keyIsRowID {
            if RowIDKey.rowID(id) == nil {
                try insert(db)
            } else {
                try update(db)
            }
            return
        }
        try willSave(db)
        try db.saveRow(of: self)
    }

    /// SQLite's save of a record whose key is not the rowid, with no callback: one upsert, or, for a key
    /// stored in several forms, a lookup then an update or an insert.
    func saveRow(_ db: Database) throws {
        let match = try Self.keyMatch(id)
        try Self.checkKey(db, columns: match.columns)
        if match.hasAlternateForms {
            // Several stored forms: an upsert's conflict target sees only the one it writes.
            if try Self.exists(db, id: id) {
                try updateRow(db, kind: .update)
            } else if try db.insertRow(of: self, onConflict: .abort) == nil {
                throw RecordError.rowNotInserted(table: Self.tableName)
            }
            return
        }
        try write(.upsert, db: db)
        // No change: every column is a key column and the row was there (DO NOTHING), or a trigger ignored
        // the row (a BEFORE INSERT trigger's RAISE(IGNORE) skips the DO UPDATE too).
        if db.changesCount == 0 {
            let exists = try Self.exists(db, id: id)
            let keyColumns = Set(match.columns)
            let generated = GeneratedColumns.of(Self.tableName, db: db)
            let updatesColumns = try Self.recordEncoder.encode(self, tableName: Self.tableName).names
                .contains { !keyColumns.contains($0) && !generated.contains($0) }
            if !exists { throw RecordError.rowNotInserted(table: Self.tableName) }
            if updatesColumns { throw RecordError.rowNotUpdated(table: Self.tableName, id: match.description) }
        }
    }

    /// Saves the record through the default queue (``RecordStore``), in a transaction of its own. When it
    /// throws, the record is as it was (no id from an insert that was rolled back).
    /// - Throws: as ``save(_:)-method``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save() throws {
        try RecordStore.write(restoring: &self) { db, record in try record.save(db) }
    }
}

extension RecordStore {
    /// Runs `body` on `record` in a write transaction of the default queue; when anything throws (the body
    /// or the COMMIT), `record` is put back as it was before the call.
    static func write<R>(restoring record: inout R, _ body: (Database, inout R) throws -> Void) throws {
        let original = record
        do {
            try defaultQueue().write { db in try body(db, &record) }
        } catch {
            record = original
            throw error
        }
    }
}
