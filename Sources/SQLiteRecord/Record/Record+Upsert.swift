extension Record {
    /// Inserts the record, or, when a row already has the values of its conflict target, updates that row:
    /// one statement, `INSERT ... ON CONFLICT (target) DO UPDATE SET ...`. See
    /// <https://www.sqlite.org/lang_upsert.html>.
    ///
    /// The update writes `columns` (by default every column the insert writes but the conflict target's and
    /// the primary key's) and is skipped when the row already holds those values (`WHERE (...) IS NOT
    /// excluded...`): the row is not written and no update trigger fires. After the call a rowid record
    /// carries the rowid of the row it was written to (found by the conflict target when it is not the
    /// key). Calls ``willSave(_:)`` first, and ``didInsert(rowID:)`` when a row of a rowid table was
    /// inserted.
    ///
    /// How the outcome is told: in a rowid table the connection's last inserted rowid is set to a value no
    /// insert here can produce before the statement runs, so a rowid that moved means an insert; a WITHOUT
    /// ROWID table reports no rowid, so whether the row exists is read first (one more lookup, exact inside
    /// the write transaction). A key stored in several forms (a UUID, found in all three) is looked up first,
    /// then updated or inserted.
    /// - Parameters:
    ///   - db: the connection, inside the caller's transaction.
    ///   - conflictColumns: the columns of the PRIMARY KEY or UNIQUE constraint whose conflict updates the
    ///     row; nil for the primary key.
    ///   - columns: the columns a conflict updates; nil for all of them (see above), `[]` for none (`DO
    ///     NOTHING`).
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: before anything is written: ``RecordError/conflictTargetNotUnique(table:columns:)``,
    ///   ``RecordError/unknownColumn(table:column:columns:)`` for a named column the record does not write,
    ///   ``RecordError/missingKey(table:column:)``, ``RecordError/viewNotWritable(table:)``, what
    ///   ``willSave(_:)`` throws; ``DatabaseError`` for another constraint the row violates;
    ///   ``RecordError/rowNotInserted(table:)`` when a conflict clause or trigger skipped the insert. The record
    ///   is unchanged when it throws.
    @discardableResult
    public mutating func upsert(
        _ db: some DatabaseConnection, onConflict conflictColumns: [String]? = nil, updating columns: [String]? = nil
    ) throws -> UpsertOutcome {
        try willSave(db)
        let (outcome, rowID) = try db.upsertRow(of: &self, onConflict: conflictColumns, updating: columns)
        tookUpsertedRow(outcome, rowID: rowID)
        return outcome
    }

    /// What a record takes from its upsert: a rowid record the rowid of the row written, and
    /// ``didInsert(rowID:)`` when the row was inserted (with 0 for a row that has no rowid).
    mutating func tookUpsertedRow(_ outcome: UpsertOutcome, rowID: Int64?) {
        // Set only when it differs: most upserts write the rowid the record has, and setting one makes the
        // metadata of `ID?` in code not specialized for the type.
        if Self.keyIsRowID, let rowID, RowIDKey.rowID(id) != rowID { setRowID(rowID) }
        if outcome == .inserted { didInsert(rowID: rowID ?? 0) }
    }

    /// ``upsert(_:onConflict:updating:)-method`` through the default queue (``RecordStore``), in a transaction of
    /// its own.
    /// - Throws: as ``upsert(_:onConflict:updating:)-method``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func upsert(
        onConflict conflictColumns: [String]? = nil, updating columns: [String]? = nil
    ) throws
        -> UpsertOutcome
    {
        var outcome = UpsertOutcome.unchanged
        try RecordStore.write(restoring: &self) { db, record in
            outcome = try record.upsert(db, onConflict: conflictColumns, updating: columns)
        }
        return outcome
    }

    /// Upserts every record in one transaction: all or nothing, as ``save(_:_:)``.
    /// - Returns: each record's outcome, in order.
    /// - Throws: the first error an upsert throws, after the rollback; `records` is then as it was.
    @discardableResult
    public static func upsert(
        _ db: some DatabaseConnection, _ records: inout [Self], onConflict conflictColumns: [String]? = nil,
        updating columns: [String]? = nil
    ) throws -> [UpsertOutcome] {
        let original = records
        do {
            return try db.inWriteTransaction {
                var outcomes: [UpsertOutcome] = []
                outcomes.reserveCapacity(records.count)
                for index in records.indices {
                    try db.checkCancellation()
                    outcomes.append(try records[index].upsert(db, onConflict: conflictColumns, updating: columns))
                }
                return outcomes
            }
        } catch {
            records = original
            throw error
        }
    }

    /// ``upsert(_:_:onConflict:updating:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``upsert(_:_:onConflict:updating:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public static func upsert(
        _ records: inout [Self], onConflict conflictColumns: [String]? = nil, updating columns: [String]? = nil
    ) throws -> [UpsertOutcome] {
        var outcomes: [UpsertOutcome] = []
        try RecordStore.write(restoring: &records) { db, records in
            outcomes = try upsert(db, &records, onConflict: conflictColumns, updating: columns)
        }
        return outcomes
    }

    /// SQLite's upsert, with no callback, keeping the row the statement returns in `returned` (and taking
    /// its values) when it is given.
    /// - Returns: the outcome, and the rowid the record takes (see ``tookUpsertedRow(_:rowID:)``): the row's
    ///   when it was inserted, or found by a conflict target that is not the rowid; nil otherwise.
    mutating func upsertRow(
        _ db: Database, onConflict conflictColumns: [String]?, updating columns: [String]?, returned: ReturnedValues?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        // Read once: in this unspecialized code each read of `id` copies and destroys it through its value
        // witnesses, and each look at `ID` is a witness table lookup.
        let keyIsRowID = RowIDKey.isRowID(ID.self)
        let givenRowID = keyIsRowID ? RowIDKey.rowID(id) : nil
        let leavesOutRowID: Bool
        // The key's columns for a key the client chose; for a rowid key, the one column is named only where
        // it is needed.
        let clientKeyColumns: [String]
        if keyIsRowID {
            leavesOutRowID = givenRowID == nil
            clientKeyColumns = []
        } else {
            let match = try Self.keyMatch(id)
            if conflictColumns == nil, match.hasAlternateForms {
                // An upsert's conflict target sees only the form it writes.
                return try Self.explainingMissingTable {
                    try upsertByLookup(db, match: match, updating: columns, returned: returned)
                }
            }
            clientKeyColumns = match.columns
            leavesOutRowID = false
        }
        let kind: RecordWritePlan.Kind =
            conflictColumns == nil && columns == nil && !leavesOutRowID
            ? .defaultUpsertReporting
            : .upsertReporting(
                UpsertClause(conflictColumns: conflictColumns, namedColumns: columns, leavesOutRowID: leavesOutRowID))
        let cache = RecordConnectionCache.of(db)
        let plan = try Self.currentPlan(kind, db: db, in: cache)
        let hasRowID = try Self.tableHasRowID(db, plan: plan)
        var existed = false
        if !hasRowID {
            let target = Self.conflictTarget(conflictColumns, clientKeyColumns: clientKeyColumns)
            try Self.checkConflictTarget(db, columns: target)
            existed = try Self.rowExists(db, whereEqual: target, values: targetValues(target))
        }
        // No insert of this statement can produce the sentinel: a rowid SQLite picks is above the table's
        // largest or random and positive, never Int64.min; a rowid the record gives is the record's.
        let sentinel = givenRowID == Int64.min ? Int64.max : Int64.min
        db.setLastInsertedRowID(sentinel)
        if returned == nil {
            try write(kind, db: db, plan: plan, cache: cache)
        } else {
            try write(kind, db: db, returned: returned)
        }
        let changed = db.changesCount > 0
        let outcome: UpsertOutcome
        if hasRowID {
            let rowID = db.lastInsertedRowID
            if changed && rowID != sentinel {
                // A read back after AFTER triggers finds the row by the record's key: it takes the rowid first.
                if returned != nil, keyIsRowID, RowIDKey.rowID(id) != rowID { setRowID(rowID) }
                try take(returned, db: db)
                return (.inserted, rowID)
            }
            // Nothing written: the row held the values, or (only where the table may skip writes) the insert
            // itself was skipped.
            if !changed, try Self.tableMayIgnoreWrites(db, plan: plan) {
                let target = Self.conflictTarget(conflictColumns, clientKeyColumns: clientKeyColumns)
                if try !Self.rowExists(db, whereEqual: target, values: targetValues(target)) {
                    throw RecordError.rowNotInserted(table: Self.tableName)
                }
            }
            outcome = changed ? .updated : .unchanged
        } else {
            if !changed && !existed { throw RecordError.rowNotInserted(table: Self.tableName) }
            outcome = changed ? (existed ? .updated : .inserted) : .unchanged
        }
        var foundRowID: Int64?
        if keyIsRowID && (leavesOutRowID || (conflictColumns.map { $0 != [Self.primaryKeyColumn] } ?? false)) {
            // The row was found by another constraint: the record takes that row's rowid.
            let target = Self.conflictTarget(conflictColumns, clientKeyColumns: clientKeyColumns)
            let values = try targetValues(target)
            let sql = cache.sql(
                Self.self, .rowIDByColumns, table: Self.tableName, primaryKey: Self.primaryKeyColumn, columns: target
            ) {
                RecordSQL.select([Self.primaryKeyColumn], from: Self.tableName, whereEqual: target)
            }
            foundRowID = try db.integerScalar(sql: sql, arguments: StatementArguments(values))
        }
        if let returned, !returned.hasRow {
            let target = Self.conflictTarget(conflictColumns, clientKeyColumns: clientKeyColumns)
            try Self.readBack(db, into: returned, whereEqual: target, values: targetValues(target))
        }
        if returned != nil, let foundRowID, RowIDKey.rowID(id) != foundRowID { setRowID(foundRowID) }
        try take(returned, db: db)
        return (outcome, foundRowID)
    }

    /// The columns of an upsert's conflict target: the ones named, else the key's (`clientKeyColumns` for a
    /// key the client chose, the rowid column for a rowid key).
    private static func conflictTarget(_ conflictColumns: [String]?, clientKeyColumns: [String]) -> [String] {
        conflictColumns ?? (keyIsRowID ? [primaryKeyColumn] : clientKeyColumns)
    }

    /// Whether the type's table has a rowid: kept on `plan` (the connection's current plan for the upsert,
    /// nil before its first record), else read from the schema. Read before anything else of the table, so a
    /// missing table is explained here, as every record call explains it; a plan is current only while its
    /// table is there.
    /// - Throws: ``RecordError/viewNotWritable(table:)`` for a view; ``DatabaseError`` reading the schema.
    private static func tableHasRowID(_ db: Database, plan: RecordWritePlan?) throws -> Bool {
        if let known = plan?.tableHasRowID { return known }
        let shape = try explainingMissingTable { try db.tableShape(tableName) }
        if shape.isView { throw RecordError.viewNotWritable(table: tableName) }
        plan?.tableHasRowID = shape.hasRowID
        return shape.hasRowID
    }

    /// Whether the type's table may skip a write (see ``TableWriteTraits``): kept on `plan` as
    /// ``tableHasRowID(_:plan:)`` is.
    /// - Throws: ``DatabaseError`` reading the schema.
    private static func tableMayIgnoreWrites(_ db: Database, plan: RecordWritePlan?) throws -> Bool {
        if let known = plan?.tableMayIgnoreWrites { return known }
        let mayIgnoreWrites = try db.tableWriteTraits(tableName).mayIgnoreWrites
        plan?.tableMayIgnoreWrites = mayIgnoreWrites
        return mayIgnoreWrites
    }

    /// Takes `returned`'s row when there is one.
    private mutating func take(_ returned: ReturnedValues?, db: Database) throws {
        if let returned { try take(returned, db: db) }
    }

    /// The values the record writes to `columns`, in order.
    /// - Throws: encoding errors; ``RecordError/unknownColumn(table:column:columns:)`` for a column the record
    ///   does not encode.
    private func targetValues(_ columns: [String]) throws -> [SQLiteValue] {
        let encoded = try Self.recordEncoder.encode(self, tableName: Self.tableName)
        return try columns.map { column in
            guard let value = encoded.value(for: column) else {
                throw RecordError.unknownColumn(table: Self.tableName, column: column, columns: encoded.names)
            }
            return value
        }
    }

    /// True when a row of the table has `values` in `columns`.
    static func rowExists(_ db: Database, whereEqual columns: [String], values: [SQLiteValue]) throws -> Bool {
        let sql = RecordSQL.countOne(from: tableName, keyColumns: columns, counts: columns.map { _ in 1 })
        return try db.integerScalar(sql: sql, arguments: StatementArguments(values)) ?? 0 > 0
    }

    /// The upsert of a record whose key is stored in several forms: looked up in all of them, then updated
    /// (the columns named, or all) or inserted.
    private mutating func upsertByLookup(
        _ db: Database, match: KeyMatch, updating columns: [String]?, returned: ReturnedValues?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        try Self.checkKey(db, columns: match.columns)
        if try Self.countRows(db, match) == 0 {
            try write(.insertWithID, db: db, returned: returned)
            guard db.changesCount > 0 else { throw RecordError.rowNotInserted(table: Self.tableName) }
            try take(returned, db: db)
            return (.inserted, try db.tableShape(Self.tableName).hasRowID ? db.lastInsertedRowID : nil)
        }
        let kind: RecordWritePlan.Kind = columns.map { .updateColumns($0) } ?? .update
        guard try write(kind, db: db, key: .match(match), returned: returned) else { return (.unchanged, nil) }
        if db.changesCount == 0 && match.hasAlternateForms {
            // The row is stored in another form than the one written (uppercase text, a BLOB).
            guard try write(kind, db: db, key: .match(match.allForms), returned: returned) else {
                return (.unchanged, nil)
            }
        }
        guard db.changesCount > 0 else {
            throw RecordError.rowNotUpdated(table: Self.tableName, id: match.description)
        }
        try take(returned, db: db)
        return (.updated, nil)
    }
}
