/// The one write path of every record operation: insert, insert or ignore, save, update, partial update,
/// upsert, and the writes that read back (RETURNING).
///
/// ``Record/write(_:db:key:returned:)`` finds the connection's plan for the statement (``RecordWritePlan``)
/// and binds the record straight into it; when there is no current plan, the plan is in use (a write
/// started from a callback of another), or the record does not fit it (other coding keys, a parameter left
/// unbound), the record is written the collected way (encoded into ``EncodedColumns`` and run through the
/// statement cache), which also makes the plan for the records after it. Both ways encode the whole record
/// and convert every value it encodes, and bind the columns the statement writes: they accept and refuse
/// the same records, and write the same values.
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
    /// With `returned`, the statement ends in a RETURNING clause, its row is kept in `returned`, and it runs
    /// the collected way (a plan's statement has no RETURNING clause).
    @discardableResult
    func write(
        _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey = .none, returned: ReturnedValues? = nil
    ) throws -> Bool {
        if returned == nil {
            let cache = RecordConnectionCache.of(db)
            if let plan = try Self.currentPlan(kind, db: db, in: cache),
                try write(through: plan, kind, db: db, key: key, cache: cache)
            {
                return true
            }
        }
        return try writeCollected(kind, db: db, key: key, returned: returned)
    }

    /// ``write(_:db:key:returned:)`` for an insert or upsert (no key bound after the columns, no `returned`),
    /// through `plan`, which the caller found with ``currentPlan(_:db:in:)`` for `kind` in `cache` (`db`'s);
    /// the collected way when `plan` is nil or the record does not fit it.
    @discardableResult
    func write(
        _ kind: RecordWritePlan.Kind, db: Database, plan: RecordWritePlan?, cache: RecordConnectionCache
    ) throws -> Bool {
        if let plan, try write(through: plan, kind, db: db, key: .none, cache: cache) { return true }
        return try writeCollected(kind, db: db, key: .none, returned: nil)
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

    /// Binds this record into `plan`'s statement and runs it.
    /// - Returns: true when the record was written; false when nothing ran (its key has another shape than
    ///   the plan's, or its coding keys differ from the plan's), and the caller writes it the collected way.
    /// - Throws: what the collected way throws for the same record: encoding errors, the affinity guard's,
    ///   and ``DatabaseError`` with the bound arguments.
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
            // A bind failed (text over SQLite's length limit, say). The collected way reports every value
            // the record encodes; so does this, encoded again with the plan's encoder. Errors the record's
            // own encode(to:) throws pass on unchanged, as on the collected way.
            throw error.carrying(collectedArguments(kind, key: key, options: encoder.options))
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

    /// Writes this record the collected way: encoded into ``EncodedColumns``, checked by the affinity guard,
    /// and run through the statement cache; then makes the connection's plan for `kind` when it has none,
    /// so the records after this one are written through it. Returns and throws as
    /// ``write(_:db:key:returned:)``.
    private func writeCollected(
        _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey, returned: ReturnedValues?
    ) throws -> Bool {
        let options = Self.recordEncoder
        // SQLite computes generated columns and refuses writes that name them.
        let generated = GeneratedColumns.of(Self.tableName, db: db)
        let (columns, keys) = try options.encodeWithKeys(self, tableName: Self.tableName)
        let layout = try Self.keyLayout(of: id, key)
        try Self.checkNoCaseTwins(columns.names)
        for column in layout.columns where !columns.names.contains(column) {
            throw RecordError.missingPrimaryKey(table: Self.tableName, column: column)
        }
        // Checked here, where every plan is first made: a plan is dropped when the schema changes, so the
        // records written through it meet the same table, and an update's key is unique in it.
        try Self.explainingMissingTable { try Self.checkWriteTarget(db, insertingWithoutID: kind.insertsWithoutID) }
        if kind.bindsKeyAfterColumns { try Self.checkKey(db, columns: layout.columns) }
        try Self.checkNamedColumns(kind, encoded: columns.names, keyColumns: layout.columns, generated: generated, db)
        var bound = Self.boundColumns(columns, kind, keyColumns: layout.columns).leavingOut(generated)
        if returned != nil, !kind.bindsKeyAfterColumns {
            // An insert that reads back lets the database fill in the defaults of the columns the record has
            // no value for (see ``EncodedColumns/leavingOutNullsWithDefaults(_:)``).
            bound = bound.leavingOutNullsWithDefaults(try db.columns(in: Self.tableName))
        }
        var arguments = StatementArguments(bound.values)
        if kind.bindsKeyAfterColumns {
            guard !bound.names.isEmpty else {
                // Nothing to write but the key: the update only has to find its row.
                guard try Self.exists(db, id: id) else {
                    throw RecordError.recordNotFound(table: Self.tableName, id: key.description)
                }
                return false
            }
            arguments.values += key.values
        }
        try Self.explainingMissingTable { try TextAffinityGuard.check(bound, table: Self.tableName, db: db) }
        let cache = RecordConnectionCache.of(db)
        let sql = cache.sql(
            Self.self, kind.operation, table: Self.tableName, primaryKey: layout.shape, columns: bound.names
        ) {
            kind.sql(table: Self.tableName, columns: bound.names, keyColumns: layout.columns, keyCounts: layout.counts)
        }
        if let returned {
            try Self.explainingMissingTable {
                try db.withStatement(sql: sql + RecordSQL.returning(returned.columns), arguments: arguments) {
                    statement in
                    while try statement.step() {
                        if !returned.hasRow { returned.keep(statement) }
                    }
                }
            }
            return true
        }
        do {
            try Self.explainingMissingTable { try db.run(sql: sql, arguments: arguments) }
        } catch let error as DatabaseError where error.resultCode == .constraintForeignKey {
            throw explainingForeignKeyFailure(error, db: db)
        }
        let planKey = RecordConnectionCache.WritePlanKey(type: ObjectIdentifier(Self.self), kind: kind)
        if cache.writePlans[planKey] == nil {
            // The record is written; a plan that cannot be made only leaves the next record the collected way.
            cache.writePlans[planKey] = try? RecordWritePlan(
                kind, keys: keys, names: columns.names, key: layout, primaryKeyColumn: Self.primaryKeyColumn,
                tableName: Self.tableName, options: options, db: db)
        }
        return true
    }

    /// Throws when two of `names` differ only in ASCII case: SQLite takes them for one column, so one value
    /// would be lost (the first on an insert, the last on an update), and the decoder refuses the type.
    /// Checked on the collected way, where every plan is made.
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

    /// `columns` without the key columns the statement of `kind` leaves out. A column the record encodes
    /// twice stays twice: an UPDATE's `SET` then names it twice, and SQLite keeps the rightmost assignment,
    /// the value encoded last, for a full update and a partial one alike.
    private static func boundColumns(
        _ columns: EncodedColumns, _ kind: RecordWritePlan.Kind, keyColumns: [String]
    ) -> EncodedColumns {
        guard kind.leavesOutKey else { return columns }
        var bound = EncodedColumns()
        for (name, value) in zip(columns.names, columns.values) where !kind.leavesOut(name, keyColumns: keyColumns) {
            bound.names.append(name)
            bound.values.append(value)
        }
        return bound
    }

    /// The arguments the collected way binds for this record, encoded with `options` (the plan's encoder),
    /// for a bind error on the plan path; nil when the record no longer encodes.
    private func collectedArguments(
        _ kind: RecordWritePlan.Kind, key: WriteKey, options: RecordEncoder
    ) -> StatementArguments? {
        guard let columns = try? options.encode(self, tableName: Self.tableName),
            let layout = try? Self.keyLayout(of: id, key)
        else { return nil }
        let bound = Self.boundColumns(columns, kind, keyColumns: layout.columns)
        return StatementArguments(bound.values + (kind.bindsKeyAfterColumns ? key.values : []))
    }
}
