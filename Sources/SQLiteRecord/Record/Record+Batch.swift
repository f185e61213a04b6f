extension Record {
    /// Saves every record (insert when `id` is nil, update otherwise) in one transaction: all or nothing.
    /// When every record is a rowid record whose id is nil (all new), they are inserted as
    /// ``insertAll(_:_:)`` inserts them, in the engine's batch; otherwise each is saved in turn.
    ///
    /// When a save fails, every row is rolled back and `records` is put back as it was before the call (no
    /// id is left on a record whose insert was rolled back). Inside a caller's transaction the call runs in
    /// a savepoint and that guarantee covers the savepoint; a caller who later rolls back its own
    /// transaction owns the records it passed in.
    /// - Throws: the first error a save throws, after the rollback; `CancellationError` (or SQLite's
    ///   `SQLITE_INTERRUPT`) when the task of the async call was cancelled.
    public static func save(_ db: some DatabaseConnection, _ records: inout [Self]) throws {
        if keyIsRowID, !records.isEmpty, records.allSatisfy({ RowIDKey.rowID($0.id) == nil }) {
            return try insertAll(db, &records)
        }
        let original = records
        do {
            try db.inWriteTransaction {
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

    /// Inserts every record, in order, in one transaction (a savepoint inside the caller's), in the
    /// engine's batch: SQLite runs its prepared INSERT once a record; PostgreSQL sends every INSERT through
    /// libpq's pipeline mode before reading the first answer, so the batch costs about one round trip (see
    /// <https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>). A rowid record whose id is nil
    /// gets its row's id; any other is inserted with its key. ``Record/willSave(_:)`` runs for every record
    /// first, in order, inside the transaction; ``Record/didInsert(rowID:)`` for each afterwards, in order.
    ///
    /// All or nothing: when one row fails (a constraint), the transaction rolls back and every record keeps
    /// the values it came with (none gains an id); so too when the task of the async call it runs in was
    /// cancelled.
    /// - Throws: what a ``Record/willSave(_:)`` throws; the engine's error for the row that failed, with the
    ///   failed record's index in `records` as its `batchIndex` (``DatabaseError/batchIndex``; PostgreSQL's
    ///   error also names its SQLSTATE, constraint, table and column); `EncodingError` for a value the engine cannot
    ///   store; `CancellationError` (or SQLite's `SQLITE_INTERRUPT`) when the task was cancelled.
    public static func insertAll(_ db: some DatabaseConnection, _ records: inout [Self]) throws {
        guard !records.isEmpty else { return }
        var inserted = records
        let rowIDs = try db.inWriteTransaction {
            for record in records { try record.willSave(db) }
            let rowIDs = try db.insertRows(of: records)
            // A task cancelled while the batch ran: the transaction rolls back and no record gains an id.
            try db.checkCancellation()
            return rowIDs
        }
        if keyIsRowID {
            for index in inserted.indices where RowIDKey.rowID(inserted[index].id) != rowIDs[index] {
                inserted[index].setRowID(rowIDs[index])
            }
        }
        records = inserted
        for index in records.indices { records[index].didInsert(rowID: rowIDs[index]) }
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
    public static func delete(_ db: some DatabaseConnection, _ records: [Self]) throws -> Int {
        try db.inWriteTransaction {
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
