extension Record {
    /// Saves every record (insert when `id` is nil, update otherwise) in one transaction: all or nothing.
    ///
    /// When a save fails, every row is rolled back and `records` is put back as it was before the call (no
    /// id is left on a record whose insert was rolled back). Inside a caller's transaction the call runs in
    /// a savepoint and that guarantee covers the savepoint; a caller who later rolls back its own
    /// transaction owns the records it passed in.
    /// - Throws: the first error a save throws, after the rollback.
    public static func save(_ db: Database, _ records: inout [Self]) throws {
        let original = records
        do {
            try db.transaction(.immediate) {
                for index in records.indices {
                    try db.checkCancellation()
                    try records[index].save(db)
                }
            }
        } catch {
            records = original
            throw error
        }
    }

    /// ``save(_:_:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``save(_:_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func save(_ records: inout [Self]) throws {
        try RecordStore.write(restoring: &records) { db, records in try save(db, &records) }
    }

    /// Deletes every record's row in one transaction: all or nothing.
    /// - Returns: how many rows were deleted (records whose row was already gone count 0).
    /// - Throws: ``RecordError/recordNotSaved(table:)`` for a record with no id, what ``willDelete(_:)``
    ///   throws, or ``DatabaseError``; nothing is deleted then.
    @discardableResult
    public static func delete(_ db: Database, _ records: [Self]) throws -> Int {
        try db.transaction(.immediate) {
            var deleted = 0
            for record in records {
                try db.checkCancellation()
                if try record.delete(db) { deleted += 1 }
            }
            return deleted
        }
    }

    /// ``delete(_:_:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``delete(_:_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func delete(_ records: [Self]) throws -> Int {
        try RecordStore.defaultQueue().write { db in try delete(db, records) }
    }

    /// Deletes every row whose columns equal the given values (nil matches NULL); with no conditions, every
    /// row of the table. Callbacks are not called: no record is decoded.
    /// - Returns: how many rows were deleted.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key that is not a column (nothing
    ///   is deleted), ``RecordError/viewNotWritable(table:)`` for a view (SQLite would report 0 whatever its
    ///   triggers deleted), or ``DatabaseError`` (a foreign key still references a row).
    @discardableResult
    public static func deleteAll(
        _ db: Database, where conditions: [String: (any SQLiteValueConvertible)?] = [:]
    )
        throws -> Int
    {
        try request(where: conditions).deleteAll(db)
    }

    /// Deletes every row a SQL condition of your own selects: `deleteAll(db, where: "population < ?", arguments: [500])`.
    /// - Returns: how many rows were deleted.
    /// - Throws: ``DatabaseError`` for SQL that SQLite rejects or a foreign key that still references a row;
    ///   ``RecordError/viewNotWritable(table:)`` for a view.
    @discardableResult
    public static func deleteAll(_ db: Database, where sql: String, arguments: StatementArguments = []) throws -> Int {
        try request(sql: sql, arguments: arguments).deleteAll(db)
    }

    /// ``deleteAll(_:where:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``deleteAll(_:where:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func deleteAll(where conditions: [String: (any SQLiteValueConvertible)?] = [:]) throws -> Int {
        try RecordStore.defaultQueue().write { db in try deleteAll(db, where: conditions) }
    }

    /// ``deleteAll(_:where:arguments:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``deleteAll(_:where:arguments:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public static func deleteAll(where sql: String, arguments: StatementArguments = []) throws -> Int {
        try RecordStore.defaultQueue().write { db in try deleteAll(db, where: sql, arguments: arguments) }
    }
}
