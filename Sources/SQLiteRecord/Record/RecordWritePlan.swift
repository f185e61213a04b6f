import Foundation

/// The prepared INSERT or UPDATE that one record type runs on one connection, with an encoder that binds a
/// record's values straight into it: no ``EncodedColumns`` arrays, no ``StatementArguments``, no SQL looked
/// up per record.
///
/// A plan is made from the columns of a record written the collected way (encoded into ``EncodedColumns``,
/// then run through the statement cache), and used for the records of that type after it. It is made anew
/// when the schema may have changed (see ``SchemaCache``) or the type's `tableName` or `primaryKeyColumn`
/// changed. A record whose coding keys differ from the plan's (a custom `encode(to:)` that leaves a key
/// out), or that did not bind every parameter (its `encode(to:)` caught an error and went on), is written
/// the collected way, and the plan is kept.
///
/// The plan holds the statement, the binding and the encoder. The encoder holds the binding and keeps its
/// keyed container, which holds the encoder: that cycle is broken when the plan goes (`deinit`).
final class RecordWritePlan {
    /// Which statement a plan runs.
    enum Kind: Hashable {
        /// INSERT of every column, the primary key's value included.
        case insertWithID
        /// INSERT without the primary key column, so that SQLite assigns the rowid.
        case insertWithoutID
        /// UPDATE of every column but the primary key, `WHERE` the primary key: its value is the last
        /// parameter, bound from the record's `id`.
        case update

        /// True when the statement leaves the primary key column out of the columns it binds.
        var leavesOutPrimaryKey: Bool { self != .insertWithID }

        /// The statement's entry in ``RecordSQLCache``.
        var operation: RecordSQLCache.Operation {
            switch self {
            case .insertWithID: return .insertWithID
            case .insertWithoutID: return .insertWithoutID
            case .update: return .update
            }
        }

        /// The statement's SQL for `table`, binding `columns` (the primary key left out when
        /// ``leavesOutPrimaryKey``) in order.
        func sql(table: String, columns: [String], primaryKey: String) -> String {
            switch self {
            case .insertWithID, .insertWithoutID: return RecordSQL.insert(into: table, columns: columns)
            case .update: return RecordSQL.update(table, columns: columns, primaryKey: primaryKey)
            }
        }
    }

    let encoder: ColumnsEncoder
    /// The prepared statement; not in the connection's statement cache, so nothing else binds it.
    let statement: Statement
    let binding: StatementBinding
    /// The table and primary key names the SQL was made for.
    let tableName: String
    let primaryKey: String
    /// The schema cache generation the plan was made under: the plan is stale once it moves.
    let schemaGeneration: Int
    /// For each coding key whose text is kept, the column whose affinity it is checked against.
    let numericColumns: [TextAffinityGuard.NumericColumn?]
    /// The parameter the record's `id` binds for an update; 0 for inserts.
    let idParameter: Int32
    /// True while a record is written through the plan: a write that starts then (from a callback) goes the
    /// collected way rather than rebinding the statement under the first.
    @exclusivity(unchecked) var isInUse = false

    /// Makes the plan for the columns `names`, encoded from coding keys `keys` (same order, the primary key
    /// column among them).
    /// - Throws: ``DatabaseError`` when the statement cannot be prepared or the table's columns read.
    init(
        _ kind: Kind, keys: [String], names: [String], primaryKey: String, tableName: String, options: RecordEncoder,
        db: Database
    ) throws {
        let keyPosition = names.firstIndex(of: primaryKey)
        let generated = GeneratedColumns.of(tableName, db: db)
        var boundNames: [String] = []
        var parameters: [Int32] = []
        for (position, name) in names.enumerated() {
            if (position == keyPosition && kind.leavesOutPrimaryKey) || generated.contains(name) {
                parameters.append(0)
            } else {
                boundNames.append(name)
                parameters.append(Int32(boundNames.count))
            }
        }
        let sql = kind.sql(table: tableName, columns: boundNames, primaryKey: primaryKey)
        idParameter = kind == .update ? Int32(boundNames.count + 1) : 0
        numericColumns = try TextAffinityGuard.numericColumns(names, table: tableName, db: db)
        // Not `makeStatement`: that one marks the schema cache for a check, as a statement of the caller's
        // own may change the schema.
        statement = try db.prepareStatement(sql: sql)
        binding = StatementBinding(
            statement: statement, keys: keys, parameters: parameters, keepsText: numericColumns.map { $0 != nil })
        encoder = ColumnsEncoder(tableName: tableName, options: options, binding: binding)
        schemaGeneration = try db.currentSchemaGeneration()
        self.tableName = tableName
        self.primaryKey = primaryKey
    }

    deinit {
        // The encoder's kept container refers back to it.
        encoder.dropContainer()
    }
}

/// The write plans of one connection, kept in its ``Database/recordCache`` slot, by record type and kind.
final class RecordWritePlans {
    struct Key: Hashable {
        let type: ObjectIdentifier
        let kind: RecordWritePlan.Kind
    }

    // Unchecked: a connection is used on one thread at a time.
    @exclusivity(unchecked) private var plans: [Key: RecordWritePlan] = [:]
    /// How many records were written through a plan on this connection (tests check the plans are used).
    @exclusivity(unchecked) private(set) var writes = 0
    /// The plan found last: a loop that saves records of one type finds it without hashing.
    @exclusivity(unchecked) private var lastKey: Key?
    @exclusivity(unchecked) private var lastPlan: RecordWritePlan?

    /// The plans of `db`, made on first use.
    static func of(_ db: Database) -> RecordWritePlans {
        // The slot holds nothing else, so its class is compared by identity: a dynamic cast per record costs
        // more.
        if let cache = db.recordCache, ObjectIdentifier(type(of: cache)) == ObjectIdentifier(RecordWritePlans.self) {
            return unsafeDowncast(cache, to: RecordWritePlans.self)
        }
        let plans = RecordWritePlans()
        db.recordCache = plans
        return plans
    }

    /// Counts a record written through a plan.
    func countWrite() { writes &+= 1 }

    subscript(key: Key) -> RecordWritePlan? {
        get {
            if key == lastKey { return lastPlan }
            let plan = plans[key]
            if plan != nil {
                lastKey = key
                lastPlan = plan
            }
            return plan
        }
        set {
            plans[key] = newValue
            lastKey = key
            lastPlan = newValue
        }
    }
}

extension Record {
    /// Writes this record through the connection's plan for `kind`, when there is a current one and the
    /// record's coding keys are the plan's.
    /// - Returns: true when the record was written; false when nothing ran, and the caller writes the record
    ///   the collected way (``writeCollected(_:db:)``).
    /// - Throws: what the collected way throws for the same record: encoding errors, the affinity guard's,
    ///   and ``DatabaseError`` with the bound arguments.
    func writeThroughPlan(_ kind: RecordWritePlan.Kind, db: Database) throws -> Bool {
        let key = RecordWritePlans.Key(type: ObjectIdentifier(Self.self), kind: kind)
        let plans = RecordWritePlans.of(db)
        guard let plan = plans[key], !plan.isInUse else { return false }
        guard plan.tableName == Self.tableName, plan.primaryKey == Self.primaryKeyColumn,
            plan.schemaGeneration == (try db.currentSchemaGeneration())
        else {
            plans[key] = nil
            return false
        }
        plan.isInUse = true
        let binding = plan.binding
        defer {
            plan.isInUse = false
            if binding.holdsLargeValue { binding.releaseValues() }
        }
        do {
            guard try plan.encoder.encode(self) else { return false }
            if plan.idParameter != 0, let id { try plan.statement.bind(integer: id, at: plan.idParameter) }
        } catch let error as DatabaseError where error.sql == plan.statement.sql && error.arguments == nil {
            // A bind failed (text over SQLite's length limit, say). The collected way reports every value
            // the record encodes; so does this, encoded again with the plan's encoder. Errors the record's
            // own encode(to:) throws pass on unchanged, as on the collected way.
            throw error.carrying(collectedArguments(kind, options: plan.encoder.options))
        }
        for (position, text) in binding.keptTexts {
            if let column = plan.numericColumns[position] {
                try TextAffinityGuard.check(text, in: column, table: Self.tableName)
            }
        }
        try plan.statement.runToEnd(boundArguments: {
            var arguments = binding.boundArguments
            if plan.idParameter != 0, let id { arguments.values.append(.integer(id)) }
            return arguments
        })
        plans.countWrite()
        return true
    }

    /// Writes this record the collected way: encoded into ``EncodedColumns``, checked by the affinity guard,
    /// and run through the statement cache; then makes the connection's plan for `kind` when it has none,
    /// so the records after this one are written through it.
    /// - Returns: true when the statement ran; false for an update with nothing to write but the key, which
    ///   only checks that the row exists.
    /// - Throws: encoding errors, ``RecordError/missingPrimaryKey(table:column:)``, the affinity guard's,
    ///   ``RecordError/recordNotFound(table:id:)`` for an update with nothing to write whose row is missing,
    ///   and ``DatabaseError`` from running the statement.
    @discardableResult
    func writeCollected(_ kind: RecordWritePlan.Kind, db: Database) throws -> Bool {
        let options = Self.recordEncoder
        let (columns, keys) = try options.encodeWithKeys(self, tableName: Self.tableName)
        guard columns.names.contains(Self.primaryKeyColumn) else {
            throw RecordError.missingPrimaryKey(table: Self.tableName, column: Self.primaryKeyColumn)
        }
        // SQLite computes generated columns and refuses writes that name them.
        let bound = Self.boundColumns(columns, kind).leavingOut(GeneratedColumns.of(Self.tableName, db: db))
        var arguments = StatementArguments(bound.values)
        if kind == .update {
            guard let id else { throw RecordError.recordNotSaved(table: Self.tableName) }
            guard !bound.names.isEmpty else {
                // Nothing to write but the key: the update only has to find its row.
                guard try Self.exists(db, id: id) else {
                    throw RecordError.recordNotFound(table: Self.tableName, id: id)
                }
                return false
            }
            arguments.values.append(.integer(id))
        }
        try Self.explainingMissingTable { try TextAffinityGuard.check(bound, table: Self.tableName, db: db) }
        let sql = RecordSQLCache.sql(
            Self.self, kind.operation, table: Self.tableName, primaryKey: Self.primaryKeyColumn, columns: bound.names
        ) {
            kind.sql(table: Self.tableName, columns: bound.names, primaryKey: Self.primaryKeyColumn)
        }
        try Self.explainingMissingTable { try db.run(sql: sql, arguments: arguments) }
        let key = RecordWritePlans.Key(type: ObjectIdentifier(Self.self), kind: kind)
        let plans = RecordWritePlans.of(db)
        if plans[key] == nil {
            // The record is written; a plan that cannot be made only leaves the next record the collected way.
            plans[key] = try? RecordWritePlan(
                kind, keys: keys, names: columns.names, primaryKey: Self.primaryKeyColumn, tableName: Self.tableName,
                options: options, db: db)
        }
        return true
    }

    /// `columns` without the primary key column, for the kinds whose statement leaves it out.
    private static func boundColumns(_ columns: EncodedColumns, _ kind: RecordWritePlan.Kind) -> EncodedColumns {
        guard kind.leavesOutPrimaryKey, let keyIndex = columns.names.firstIndex(of: primaryKeyColumn) else {
            return columns
        }
        var bound = columns
        bound.names.remove(at: keyIndex)
        bound.values.remove(at: keyIndex)
        return bound
    }

    /// The arguments the collected way binds for this record, encoded with `options` (the plan's encoder),
    /// for a bind error on the plan path; nil when the record no longer encodes.
    private func collectedArguments(_ kind: RecordWritePlan.Kind, options: RecordEncoder) -> StatementArguments? {
        guard let columns = try? options.encode(self, tableName: Self.tableName) else { return nil }
        let bound = Self.boundColumns(columns, kind)
        if kind == .update, let id { return StatementArguments(bound.values + [.integer(id)]) }
        return StatementArguments(bound.values)
    }
}
