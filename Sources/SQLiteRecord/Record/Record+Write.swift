/// The one write path of every record operation: insert, insert or ignore, save, update, partial update,
/// upsert, and the writes that read back (RETURNING). Every record is written through a plan
/// (``RecordWritePlan``).
///
/// ``Record/write(_:db:key:returned:)`` finds the connection's kept plan for the statement and binds the
/// record straight into it. When there is no current plan, the plan is in use (a write started from a
/// callback of another), the record does not fit it (other coding keys, a key of another shape, a parameter
/// left unbound), or the write reads back, a plan is made from this record: encoded once for its coding
/// keys, column names and values, checked (case twins, the key, the write target, the columns a call names),
/// and written through the new plan with the values of that encoding. The new plan is kept when the
/// connection has none for the type and kind, for the records after this one; otherwise it is used for
/// this record only. Either way the record's whole encoding is converted, the columns the statement writes
/// are bound, text is checked against its column's affinity, and the statement runs: a kept plan and a new
/// one accept and refuse the same records, and write the same values.
extension Record {
    /// Writes this record with the statement of `kind`; `key` is bound after the columns for an update.
    /// - Returns: true when the statement ran; false for an update with nothing to write but the key, which
    ///   only checks that the row exists.
    /// - Throws: encoding errors (a value that cannot be stored, in any column the record encodes),
    ///   ``RecordError/missingPrimaryKey(table:column:)``, the affinity guard's `EncodingError`,
    ///   ``RecordError/recordNotFound(table:id:)`` for an update with nothing to write whose row is missing,
    ///   the checks of the columns a call names (``checkNamedColumns(_:encoded:keyColumns:generated:_:)``),
    ///   and ``DatabaseError`` from running the statement, with the bound arguments.
    ///
    /// With `returned`, the statement ends in a RETURNING clause and its row is kept in `returned`; an
    /// insert then leaves out the NULLs whose columns have a default (see
    /// ``RecordWritePlan/nullsWithDefaults(_:_:)``). Such a plan depends on the record's values, and is
    /// never kept.
    @discardableResult
    func write(
        _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey = .none, returned: ReturnedValues? = nil
    ) throws -> Bool {
        let cache = RecordConnectionCache.of(db)
        if returned == nil, let plan = try Self.currentPlan(kind, db: db, in: cache),
            try write(through: plan, kind, db: db, key: key, cache: cache)
        {
            return true
        }
        return try writeThroughNewPlan(kind, db: db, key: key, returned: returned, cache: cache)
    }

    /// ``write(_:db:key:returned:)`` for an insert or upsert (no key bound after the columns, no `returned`),
    /// through `plan`, which the caller found with ``currentPlan(_:db:in:)`` for `kind` in `cache` (`db`'s);
    /// through a plan made from this record when `plan` is nil or the record does not fit it.
    @discardableResult
    func write(
        _ kind: RecordWritePlan.Kind, db: Database, plan: RecordWritePlan?, cache: RecordConnectionCache
    ) throws -> Bool {
        if let plan, try write(through: plan, kind, db: db, key: .none, cache: cache) { return true }
        return try writeThroughNewPlan(kind, db: db, key: .none, returned: nil, cache: cache)
    }

    /// The connection's plan for `kind` when it is current (same table, key column and schema generation;
    /// a stale one is dropped) and not in use; nil otherwise.
    /// - Throws: ``DatabaseError`` when the schema version cannot be read.
    static func currentPlan(
        _ kind: RecordWritePlan.Kind, db: Database, in cache: RecordConnectionCache
    ) throws -> RecordWritePlan? {
        let type = ObjectIdentifier(Self.self)
        // The plan used last, found by comparing its key in place: a loop of one operation on one type.
        guard
            let plan = cache.writePlans.recentValue(where: { $0.type == type && $0.kind == kind })
                ?? cache.writePlans[RecordConnectionCache.WritePlanKey(type: type, kind: kind)],
            !plan.isInUse
        else { return nil }
        guard plan.isFor(tableName: Self.tableName, primaryKeyColumn: Self.primaryKeyColumn),
            plan.schemaGeneration == (try db.currentSchemaGeneration())
        else {
            cache.writePlans[RecordConnectionCache.WritePlanKey(type: type, kind: kind)] = nil
            return nil
        }
        return plan
    }

    /// Binds this record into `plan`'s statement, a kept plan's, through its encoder, and runs it.
    /// - Returns: true when the record was written; false when nothing ran (its key has another shape than
    ///   the plan's, or its coding keys differ from the plan's), and the caller writes it through a plan made
    ///   from it.
    /// - Throws: what a plan made from the same record throws: encoding errors, the affinity guard's, and
    ///   ``DatabaseError`` with the bound arguments.
    private func write(
        through plan: RecordWritePlan, _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey,
        cache: RecordConnectionCache
    ) throws -> Bool {
        if case .match(let match) = key, match.shape != plan.keyShape { return false }
        plan.isInUse = true
        let binding = plan.binding
        let encoder = plan.encoder
        defer {
            plan.isInUse = false
            if binding.holdsLargeValue { binding.releaseValues() }
            plan.replaceEncoderIfKept()
        }
        do {
            guard try encoder.encode(self) else { return false }
            switch key {
            case .none: break
            case .rowID(let rowID): try plan.statement.bind(integer: rowID, at: plan.keyParameter)
            case .match(let match):
                var parameter = plan.keyParameter
                for value in match.values.joined() {
                    try plan.statement.bind(value, at: parameter)
                    parameter += 1
                }
            }
        } catch let error as DatabaseError where error.sql == plan.statement.sql && error.arguments == nil {
            // A bind failed (text over SQLite's length limit, say). A new plan reports the arguments of every
            // column it binds; so does this, the record encoded again with the plan's encoder. Errors the
            // record's own encode(to:) throws pass on unchanged.
            throw error.carrying(encodedArguments(of: plan, key: key, options: encoder.options))
        }
        if !binding.keptTexts.isEmpty {
            for (position, text) in binding.keptTexts {
                if let column = plan.numericColumns[position] {
                    try TextAffinityGuard.check(text, in: column, table: Self.tableName)
                }
            }
        }
        do {
            if case .none = key {
                // Inserts and upserts bind no key after the columns: this closure captures no copy of `key`,
                // which every write would otherwise make and destroy.
                try plan.statement.runToEnd(boundArguments: { binding.boundArguments })
            } else {
                try plan.statement.runToEnd(boundArguments: {
                    var arguments = binding.boundArguments
                    arguments.values += key.values
                    return arguments
                })
            }
        } catch let error as DatabaseError where error.resultCode == .constraintForeignKey {
            // SQLite's message names no column: the lookup that finds it runs only on this failure.
            throw explainingForeignKeyFailure(error, db: db)
        }
        cache.countWrite()
        return true
    }

    /// Makes a plan for `kind` from this record and writes the record through it (see the type's comment):
    /// the plan is kept in `cache` when the write does not read back and `cache` has no plan for the type
    /// and kind. Returns and throws as ``write(_:db:key:returned:)``.
    private func writeThroughNewPlan(
        _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey, returned: ReturnedValues?,
        cache: RecordConnectionCache
    ) throws -> Bool {
        let options = Self.recordEncoder
        // SQLite computes generated columns and refuses writes that name them.
        let generated = GeneratedColumns.of(Self.tableName, db: db)
        let (encoded, keys) = try options.encodeWithKeys(self, tableName: Self.tableName)
        let layout = try Self.keyLayout(of: id, key)
        try Self.checkNoCaseTwins(encoded.names)
        for column in layout.columns where !encoded.names.contains(column) {
            throw RecordError.missingPrimaryKey(table: Self.tableName, column: column)
        }
        // Checked here, where every plan is made: a kept plan is dropped when the schema changes, so the
        // records written through it meet the same table, and an update's key is unique in it.
        try Self.explainingMissingTable { try Self.checkWriteTarget(db, insertingWithoutID: kind.insertsWithoutID) }
        if kind.bindsKeyAfterColumns { try Self.checkKey(db, columns: layout.columns) }
        try Self.checkNamedColumns(kind, encoded: encoded.names, keyColumns: layout.columns, generated: generated, db)
        var leavingOut: Set<Int> = []
        if returned != nil, !kind.bindsKeyAfterColumns {
            leavingOut = RecordWritePlan.nullsWithDefaults(encoded, try db.columns(in: Self.tableName))
        }
        let columns = RecordWritePlan.Columns(
            kind, names: encoded.names, key: layout, generated: generated, leavingOut: leavingOut)
        if kind.bindsKeyAfterColumns, columns.bound.isEmpty {
            // Nothing to write but the key: the update only has to find its row.
            guard try Self.exists(db, id: id) else {
                throw RecordError.recordNotFound(table: Self.tableName, id: key.description)
            }
            return false
        }
        let sql = cache.sql(
            Self.self, kind.operation, table: Self.tableName, primaryKey: layout.shape, columns: columns.bound
        ) {
            kind.sql(table: Self.tableName, columns: columns.bound, keyColumns: layout.columns, keyCounts: layout.counts)
        }
        let planKey = RecordConnectionCache.WritePlanKey(type: ObjectIdentifier(Self.self), kind: kind)
        let keeps = returned == nil && cache.writePlans[planKey] == nil
        let plan = try Self.explainingMissingTable {
            try RecordWritePlan(
                kind, keys: keys, names: encoded.names, columns: columns, key: layout,
                primaryKeyColumn: Self.primaryKeyColumn, tableName: Self.tableName, options: options, sql: sql,
                returning: returned, ownStatement: keeps, db: db)
        }
        if keeps { cache.writePlans[planKey] = plan }
        return try write(encoded.values, through: plan, db: db, key: key, returned: returned)
    }

    /// Binds `values`, the encoding `plan` was made from (one per coding key, in order), into `plan`'s
    /// statement and runs it, keeping the row it returns in `returned`. The checks and errors of
    /// ``write(through:_:db:key:cache:)``: the affinity guard on the text bound to a numeric column, a
    /// ``DatabaseError`` from a bind or a step with the bound arguments, a foreign key failure explained.
    /// - Returns: true.
    private func write(
        _ values: [SQLiteValue], through plan: RecordWritePlan, db: Database, key: WriteKey,
        returned: ReturnedValues?
    ) throws -> Bool {
        var bound: [SQLiteValue] = []
        bound.reserveCapacity(plan.boundColumns.count + 1)
        for (position, value) in values.enumerated() where plan.parameters[position] != StatementBinding.leftOut {
            if case .text(let text) = value, let column = plan.numericColumns[position] {
                try TextAffinityGuard.check(text, in: column, table: Self.tableName)
            }
            bound.append(value)
        }
        if plan.keyParameter > 0 { bound += key.values }
        let arguments = StatementArguments(bound)
        let statement = plan.statement
        statement.isCheckedOut = true
        plan.isInUse = true
        defer {
            plan.isInUse = false
            statement.resetAndClearBindings()
            statement.isCheckedOut = false
        }
        if let returned {
            try Self.explainingMissingTable {
                try statement.bind(arguments)
                while try statement.step() {
                    if !returned.hasRow { returned.keep(statement) }
                }
            }
            return true
        }
        do {
            try Self.explainingMissingTable {
                try statement.bind(arguments)
                try statement.runToEnd(boundArguments: { arguments })
            }
        } catch let error as DatabaseError where error.resultCode == .constraintForeignKey {
            throw explainingForeignKeyFailure(error, db: db)
        }
        return true
    }

    /// Throws when two of `names` differ only in ASCII case: SQLite takes them for one column, so one value
    /// would be lost (the first on an insert, the last on an update), and the decoder refuses the type.
    /// Checked where every plan is made.
    /// - Throws: `EncodingError.invalidValue` naming both.
    static func checkNoCaseTwins(_ names: [String]) throws {
        var seen: [String: String] = [:]
        for name in names {
            let folded = RowLayout.asciiLowercased(name)
            if let other = seen[folded], other != name {
                throw EncodingError.invalidValue(
                    name,
                    .init(
                        codingPath: [],
                        debugDescription: "Coding keys \"\(other)\" and \"\(name)\" of \(Self.self) name one column of "
                            + "table \"\(tableName)\" (SQLite compares names ASCII-case-insensitively); rename one"))
            }
            seen[folded] = name
        }
    }

    /// The arguments `plan` binds for this record, encoded again with `options` (the plan's encoder), for a
    /// bind error on a kept plan; nil when the record no longer encodes or no longer fits the plan.
    private func encodedArguments(
        of plan: RecordWritePlan, key: WriteKey, options: RecordEncoder
    ) -> StatementArguments? {
        guard let columns = try? options.encode(self, tableName: Self.tableName),
            columns.values.count == plan.parameters.count
        else { return nil }
        var bound: [SQLiteValue] = []
        for (position, value) in columns.values.enumerated() where plan.parameters[position] != StatementBinding.leftOut {
            bound.append(value)
        }
        return StatementArguments(bound + (plan.keyParameter > 0 ? key.values : []))
    }
}
