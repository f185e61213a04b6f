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
        _ db: Database, onConflict conflictColumns: [String]? = nil, updating columns: [String]? = nil
    )
        throws -> UpsertOutcome
    {
        try Self.explainingMissingTable { try upsert(db, onConflict: conflictColumns, updating: columns, returned: nil) }
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
        _ db: Database, _ records: inout [Self], onConflict conflictColumns: [String]? = nil,
        updating columns: [String]? = nil
    ) throws -> [UpsertOutcome] {
        let original = records
        do {
            return try db.transaction(.immediate) {
                var outcomes: [UpsertOutcome] = []
                outcomes.reserveCapacity(records.count)
                for index in records.indices {
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

    /// The upsert, keeping the row the statement returns in `returned` when it is given.
    mutating func upsert(
        _ db: Database, onConflict conflictColumns: [String]?, updating columns: [String]?, returned: ReturnedValues?
    ) throws -> UpsertOutcome {
        try willSave(db)
        if conflictColumns == nil, columns == nil, returned == nil, Self.keyIsRowID,
            let outcome = try upsertThroughPlan(db)
        {
            return outcome
        }
        // The key's columns for a key the client chose; a rowid key's one column is made only when needed.
        // Constants, so that `target()` captures no box allocated per call.
        let clientKeyColumns: [String]
        let leavesOutRowID: Bool
        // Read once: each read of `id` in this unspecialized code copies and destroys it through its value
        // witnesses.
        let givenRowID = Self.keyIsRowID ? RowIDKey.rowID(id) : nil
        if Self.keyIsRowID {
            leavesOutRowID = givenRowID == nil
            clientKeyColumns = []
        } else {
            let match = try Self.keyMatch(id)
            if conflictColumns == nil, match.hasAlternateForms {
                // An upsert's conflict target sees only the form it writes.
                return try upsertByLookup(db, match: match, updating: columns, returned: returned)
            }
            clientKeyColumns = match.columns
            leavesOutRowID = false
        }
        func target() -> [String] { conflictColumns ?? (Self.keyIsRowID ? [Self.primaryKeyColumn] : clientKeyColumns) }
        let kind = RecordWritePlan.Kind.upsertReporting(
            UpsertClause(conflictColumns: conflictColumns, namedColumns: columns, leavesOutRowID: leavesOutRowID),
            db: db)
        // The plan, when there is a current one, knows the table's shape; otherwise the schema cache does.
        let plans = RecordWritePlans.of(db)
        let plan = returned == nil ? try Self.currentPlan(kind, db: db, in: plans) : nil
        let hasRowID: Bool
        let mayIgnoreWrites: Bool
        if let plan {
            hasRowID = plan.tableHasRowID
            mayIgnoreWrites = plan.tableMayIgnoreWrites
        } else {
            let shape = try db.tableShape(Self.tableName)
            if shape.isView { throw RecordError.viewNotWritable(table: Self.tableName) }
            hasRowID = shape.hasRowID
            mayIgnoreWrites = try db.tableWriteTraits(Self.tableName).mayIgnoreWrites
        }
        var existed = false
        if !hasRowID {
            try Self.checkConflictTarget(db, columns: target())
            existed = try Self.rowExists(db, whereEqual: target(), values: targetValues(target()))
        }
        // No insert of this statement can produce the sentinel: a rowid SQLite picks is above the table's
        // largest or random and positive, never Int64.min; a rowid the record gives is the record's.
        let sentinel = givenRowID == Int64.min ? Int64.max : Int64.min
        db.setLastInsertedRowID(sentinel)
        if let returned {
            try writeCollected(kind, db: db, returned: returned)
        } else if let plan, try write(through: plan, kind, db: db, key: .none, plans: plans) {
            // Written through the plan.
        } else {
            try writeCollected(kind, db: db)
        }
        let changed = db.changesCount > 0
        let outcome: UpsertOutcome
        if hasRowID {
            let rowID = db.lastInsertedRowID
            if changed && rowID != sentinel {
                if leavesOutRowID { setRowID(rowID) }
                try take(returned, db: db)
                didInsert(rowID: rowID)
                return .inserted
            }
            // Nothing written: the row held the values, or (only where the table may skip writes) the insert
            // itself was skipped.
            if !changed, mayIgnoreWrites,
                try !Self.rowExists(db, whereEqual: target(), values: targetValues(target()))
            {
                throw RecordError.rowNotInserted(table: Self.tableName)
            }
            outcome = changed ? .updated : .unchanged
        } else {
            if !changed && !existed { throw RecordError.rowNotInserted(table: Self.tableName) }
            outcome = changed ? (existed ? .updated : .inserted) : .unchanged
        }
        if Self.keyIsRowID && (leavesOutRowID || (conflictColumns.map { $0 != [Self.primaryKeyColumn] } ?? false)) {
            // The row was found by another constraint: the record takes that row's rowid.
            let target = target()
            let values = try targetValues(target)
            let sql = RecordSQLCache.sql(
                Self.self, .rowIDByColumns, table: Self.tableName, primaryKey: Self.primaryKeyColumn, columns: target
            ) {
                RecordSQL.select([Self.primaryKeyColumn], from: Self.tableName, whereEqual: target)
            }
            if let rowID = try db.integerScalar(sql: sql, arguments: StatementArguments(values)) {
                setRowID(rowID)
            }
        }
        if let returned, !returned.hasRow {
            try Self.readBack(db, into: returned, whereEqual: target(), values: targetValues(target()))
        }
        try take(returned, db: db)
        return outcome
    }

    /// The upsert with its defaults (conflict on the key, every column updated, nothing read back) of a rowid
    /// record that gives its rowid, through the connection's current plan: what a loop of upserts runs for
    /// every record after the first, without the general path's optional arrays and closures (callgrind:
    /// about 500 instructions a record). Told apart as the general path tells them, in a rowid table.
    /// - Returns: the outcome; nil when nothing ran (no current plan, a table that may skip writes, a
    ///   record whose rowid is nil or whose coding keys differ from the plan's), and the general path upserts.
    /// - Throws: as ``upsert(_:onConflict:updating:)-method``.
    private mutating func upsertThroughPlan(_ db: Database) throws -> UpsertOutcome? {
        guard let givenRowID = RowIDKey.rowID(id) else { return nil }
        let kind = RecordWritePlan.Kind(tag: .upsertReporting, clause: RecordWritePlan.Kind.Clause.defaultUpsert)
        let plans = RecordWritePlans.of(db)
        guard let plan = try Self.currentPlan(kind, db: db, in: plans), plan.tableHasRowID, !plan.tableMayIgnoreWrites
        else {
            return nil
        }
        // As on the general path: no insert can produce the sentinel.
        let sentinel = givenRowID == Int64.min ? Int64.max : Int64.min
        db.setLastInsertedRowID(sentinel)
        guard try write(through: plan, kind, db: db, key: .none, plans: plans) else { return nil }
        guard db.changesCount > 0 else { return .unchanged }
        let rowID = db.lastInsertedRowID
        guard rowID != sentinel else { return .updated }
        didInsert(rowID: rowID)
        return .inserted
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
    ) throws -> UpsertOutcome {
        try Self.checkKey(db, columns: match.columns)
        if try Self.countRows(db, match) == 0 {
            let kind = RecordWritePlan.Kind.insertWithID
            try writeCollected(kind, db: db, returned: returned)
            guard db.changesCount > 0 else { throw RecordError.rowNotInserted(table: Self.tableName) }
            try take(returned, db: db)
            return .inserted
        }
        let kind: RecordWritePlan.Kind = columns.map { .updateColumns($0) } ?? .update
        guard try writeCollected(kind, db: db, key: .match(match), returned: returned) else { return .unchanged }
        if db.changesCount == 0 && match.hasAlternateForms {
            // The row is stored in another form than the one written (uppercase text, a BLOB).
            guard try writeCollected(kind, db: db, key: .match(match.allForms), returned: returned) else {
                return .unchanged
            }
        }
        guard db.changesCount > 0 else {
            throw RecordError.rowNotUpdated(table: Self.tableName, id: match.description)
        }
        try take(returned, db: db)
        return .updated
    }
}
