extension Record {
    /// Inserts the record when `id` is nil (then sets `id` from the new rowid), updates its row otherwise.
    /// - Throws: as ``insert(_:)`` or ``update(_:)``: an update whose row is gone throws
    ///   ``RecordError/recordNotFound(table:id:)`` and never inserts.
    public mutating func save(_ db: Database) throws {
        if id == nil {
            try insert(db)
        } else {
            try update(db)
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
