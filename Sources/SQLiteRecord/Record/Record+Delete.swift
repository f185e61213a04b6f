extension Record {
    /// Deletes the record's row. Calls ``willDelete(_:)`` first and ``didDelete(_:)`` after.
    /// - Returns: true when a row was deleted, false when no row had the key.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` when a rowid `id` is nil,
    ///   ``RecordError/missingKey(table:column:)`` when another key is nil, what ``willDelete(_:)`` throws
    ///   (nothing is deleted), ``DatabaseError`` (a foreign key from another table still references the
    ///   row: `SQLITE_CONSTRAINT_FOREIGNKEY`), ``RecordError/rowNotDeleted(table:id:)`` when the row exists
    ///   but a trigger ignored the delete, or ``RecordError/viewNotWritable(table:)`` for a view and
    ///   ``RecordError/keyNotUnique(table:columns:)`` for key columns that are not unique (nothing is
    ///   deleted).
    @discardableResult
    public func delete(_ db: some DatabaseConnection) throws -> Bool {
        if Self.keyIsRowID && RowIDKey.rowID(id) == nil { throw RecordError.recordNotSaved(table: Self.tableName) }
        try willDelete(db)
        let deleted = try db.deleteRow(Self.self, id: id)
        didDelete(deleted)
        return deleted
    }

    /// Deletes the record's row through the default queue (``RecordStore``).
    /// - Returns: true when a row was deleted, false when no row had the key.
    /// - Throws: as ``delete(_:)-method``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func delete() throws -> Bool {
        try RecordStore.defaultQueue().write { db in try delete(db) }
    }

    /// Deletes the row whose key is `id`, without a record: no callback is called.
    /// - Returns: true when a row was deleted, false when none had the key (a nil rowid included).
    /// - Throws: as ``delete(_:)-method``.
    @discardableResult
    public static func delete(_ db: some DatabaseConnection, id: ID) throws -> Bool {
        if keyIsRowID && RowIDKey.rowID(id) == nil { return false }
        return try db.deleteRow(Self.self, id: id)
    }

    /// ``delete(_:id:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``delete(_:id:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func delete(id: ID) throws -> Bool {
        try RecordStore.defaultQueue().write { db in try delete(db, id: id) }
    }

    /// Runs the DELETE for the row with key `match`.
    static func deleteRow(_ db: Database, _ match: KeyMatch) throws -> Bool {
        try checkWriteTarget(db, insertingWithoutID: false)
        try checkKey(db, columns: match.columns)
        let sql = RecordConnectionCache.of(db).sql(Self.self, .delete, table: tableName, primaryKey: match.shape) {
            RecordSQL.delete(from: tableName, keyColumns: match.columns, counts: match.counts)
        }
        try db.run(sql: sql, arguments: match.arguments)
        if db.changesCount > 0 { return true }
        // A UUID another tool stored in another form.
        if match.hasAlternateForms { return try deleteRow(db, match.allForms) }
        if try countRows(db, match) > 0 {
            throw RecordError.rowNotDeleted(table: tableName, id: match.description)
        }
        return false
    }

    /// The number of rows with key `match` (in the written form first, then, for a UUID, in any form): 0
    /// or 1 once ``checkKey(_:columns:)`` passed.
    static func countRows(_ db: Database, _ match: KeyMatch) throws -> Int64 {
        let sql = RecordConnectionCache.of(db).sql(Self.self, .exists, table: tableName, primaryKey: match.shape) {
            RecordSQL.countOne(from: tableName, keyColumns: match.columns, counts: match.counts)
        }
        let count = try db.integerScalar(sql: sql, arguments: match.arguments) ?? 0
        if count == 0 && match.hasAlternateForms { return try countRows(db, match.allForms) }
        return count
    }
}
