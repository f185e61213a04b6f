/// SQLite's side of the Record calls: each requirement runs the statements of one call, with no callback
/// (the Record layer calls ``Record/willSave(_:)``, ``Record/didInsert(rowID:)`` and the others around it).
extension Database: DatabaseConnection {
    @_spi(RecordEngine)
    public func insertRow<R: Record>(of record: R, onConflict conflict: ConflictResolution) throws -> Int64? {
        // Read once: in code that is not specialized for the record type, each look at `ID` costs a witness
        // table lookup, and a loop of inserts makes one call per record.
        let isRowID = R.keyIsRowID
        let givenRowID = isRowID ? RowIDKey.rowID(record.id) : nil
        let withoutID: Bool
        if isRowID {
            withoutID = givenRowID == nil
        } else {
            // A key the client chose must be there: SQLite would take NULL in a rowid table's TEXT key.
            _ = try R.keyMatch(record.id)
            withoutID = false
        }
        let kind: RecordWritePlan.Kind =
            conflict == .ignore
            ? .insertOrIgnore(withoutID: withoutID) : (withoutID ? .insertWithoutID : .insertWithID)
        try record.write(kind, db: self)
        // `sqlite3_last_insert_rowid` still names an earlier row when the statement inserted none (a conflict
        // clause or a trigger ignored it); the changes count of the statement itself tells.
        guard changesCount > 0 else { return nil }
        if let givenRowID { return givenRowID }
        if isRowID { return lastInsertedRowID }
        // A WITHOUT ROWID table has no rowid, and leaves sqlite3_last_insert_rowid as it was.
        return try tableShape(R.tableName).hasRowID ? lastInsertedRowID : 0
    }

    @_spi(RecordEngine)
    public func updateRow<R: Record>(of record: R, columns: [String]?) throws {
        try record.updateRow(self, kind: columns.map { .updateColumns($0) } ?? .update)
    }

    @_spi(RecordEngine)
    public func saveRow<R: Record>(of record: R) throws {
        try record.saveRow(self)
    }

    @_spi(RecordEngine)
    public func upsertRow<R: Record>(
        of record: inout R, onConflict conflictColumns: [String]?, updating columns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        try record.upsertRow(self, onConflict: conflictColumns, updating: columns, returned: nil)
    }

    @_spi(RecordEngine)
    public func deleteRow<R: Record>(_ type: R.Type, id: R.ID) throws -> Bool {
        try R.explainingMissingTable { try R.deleteRow(self, R.keyMatch(id)) }
    }

    @_spi(RecordEngine)
    public func fetchRecord<R: Record>(_ type: R.Type, id: R.ID) throws -> R? {
        try R.fetchRecord(self, id: id)
    }

    @_spi(RecordEngine)
    public func recordExists<R: Record>(_ type: R.Type, id: R.ID) throws -> Bool {
        try R.recordExists(self, id: id)
    }

    @_spi(RecordEngine)
    public func fetchRecords<R: Record>(
        _ type: R.Type, where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering], limit: Int?,
        offset: Int?
    ) throws -> [R] {
        try R.fetch(self, equalities: R.filterValues(conditions), orderBy: ordering, limit: limit, offset: offset)
    }

    @_spi(RecordEngine)
    public func countRecords<R: Record>(_ type: R.Type, where conditions: [String: (any Encodable)?]) throws -> Int {
        try R.request(equalities: R.filterValues(conditions)).count(self)
    }

    @_spi(RecordEngine)
    public func deleteRecords<R: Record>(_ type: R.Type, where conditions: [String: (any Encodable)?]) throws -> Int {
        try R.request(equalities: R.filterValues(conditions)).deleteAll(self)
    }

    @_spi(RecordEngine)
    public func changedColumns<R: Record>(of record: R, from original: R) throws -> [String] {
        try record.changedColumns(from: original, db: self)
    }

    @_spi(RecordEngine)
    public func insertRowAndFetch<R: Record>(of record: inout R, columns: [String]?) throws -> Int64 {
        try record.insertRowAndFetch(self, columns: columns)
    }

    @_spi(RecordEngine)
    public func updateRowAndFetch<R: Record>(of record: inout R, columns: [String]?) throws {
        try record.updateRowAndFetch(self, columns: columns)
    }

    @_spi(RecordEngine)
    public func upsertRowAndFetch<R: Record>(
        of record: inout R, onConflict conflictColumns: [String]?, updating columns: [String]?,
        returning returnedColumns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        try record.upsertRowAndFetch(self, onConflict: conflictColumns, updating: columns, returning: returnedColumns)
    }

    @_spi(RecordEngine)
    public func insertRows<R: Record>(of records: [R]) throws -> [Int64] {
        var rowIDs: [Int64] = []
        rowIDs.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            try checkCancellation()
            do {
                // An `.abort` insert returns a rowid or throws: nil is `.ignore`'s alone.
                rowIDs.append(try insertRow(of: record, onConflict: .abort) ?? 0)
            } catch let error as DatabaseError {
                throw error.with(batchIndex: index)
            }
        }
        return rowIDs
    }

    @_spi(RecordEngine)
    public func foreignKeySetter<Parent: Record, Child: Record>(
        _ childType: Child.Type, setting foreignKeys: [String], to parentKeys: [String], of parent: Parent,
        association: String
    ) throws -> (Child) throws -> Child {
        let key = try parent.parentKeyValues(parentKeys, association: association)
        return { child in try child.bound(foreignKeys, to: key, association: association, in: self) }
    }

    @_spi(RecordEngine)
    public func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(.immediate, body)
    }
}
