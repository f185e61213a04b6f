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
/// A partial update's plan (``Kind/Tag/updateColumns``) is made from a collected encoding that stopped once
/// it had the named columns and the key's (``EncodingStop``): it expects the coding keys up to there, and its
/// binding stops each later record at the same point. It checks the keys of the key columns and of the
/// columns it writes, not those of the columns it leaves alone (``StatementBinding/unchecked``).
///
/// The plan holds the statement, the binding and the encoder. The encoder holds the binding and keeps its
/// keyed container, which holds the encoder: that cycle is broken when the plan goes (`deinit`).
final class RecordWritePlan {
    /// Which statement a plan runs: a case (``Tag``) and, for the upserts that report their outcome and the
    /// partial updates, what their SQL depends on besides (``Clause``).
    ///
    /// A struct of a trivial enum and an optional reference rather than an enum with payloads: the inserts
    /// copy and compare a kind for every record, and an enum whose cases carry arrays made that an outlined
    /// copy, destroy and `==` per record (callgrind: about 90 instructions of W1's per row).
    struct Kind: Hashable, Sendable {
        /// The statement's case.
        enum Tag: UInt8, Hashable {
            /// INSERT of every column, the primary key's value included.
            case insertWithID
            /// INSERT without the primary key column, so that SQLite assigns the rowid.
            case insertWithoutID
            /// UPDATE of every column but the key's, `WHERE` the key: its values are the last parameters,
            /// bound from the record's `id`.
            case update
            /// INSERT of every column, `ON CONFLICT` with the key updating the others: `save()` for a key the
            /// client chose.
            case upsert
            /// `INSERT OR IGNORE` with the key's value.
            case insertOrIgnoreWithID
            /// `INSERT OR IGNORE` leaving the rowid to SQLite.
            case insertOrIgnoreWithoutID
            /// The upsert of ``Record/upsert(_:onConflict:updating:)-method``: see ``UpsertClause``.
            case upsertReporting
            /// UPDATE of the named columns only, `WHERE` the key, bound as ``update`` binds it.
            case updateColumns
            /// The columns of ``update``, in a statement that never runs: its binding only keeps the values a
            /// record encodes, for ``RecordChangeComparison``.
            case compareValues
        }

        /// What a kind's SQL depends on besides its tag; immutable, compared by value.
        final class Clause: Hashable, Sendable {
            let upsert: UpsertClause?
            let columns: [String]

            init(upsert: UpsertClause?, columns: [String]) {
                self.upsert = upsert
                self.columns = columns
            }

            static func == (lhs: Clause, rhs: Clause) -> Bool {
                lhs === rhs || (lhs.upsert == rhs.upsert && lhs.columns == rhs.columns)
            }

            func hash(into hasher: inout Hasher) {
                hasher.combine(upsert)
                hasher.combine(columns)
            }

            /// The clause of ``Record/upsert(_:onConflict:updating:)-method`` with its defaults, for a record
            /// that gives its key, and for one that leaves the rowid to SQLite.
            static let defaultUpsert = Clause(
                upsert: UpsertClause(conflictColumns: nil, namedColumns: nil, leavesOutRowID: false), columns: [])
            static let defaultUpsertLeavingOutRowID = Clause(
                upsert: UpsertClause(conflictColumns: nil, namedColumns: nil, leavesOutRowID: true), columns: [])
        }

        let tag: Tag
        let clause: Clause?

        static var insertWithID: Kind { Kind(tag: .insertWithID, clause: nil) }
        static var insertWithoutID: Kind { Kind(tag: .insertWithoutID, clause: nil) }
        static var update: Kind { Kind(tag: .update, clause: nil) }
        static var compareValues: Kind { Kind(tag: .compareValues, clause: nil) }
        static var upsert: Kind { Kind(tag: .upsert, clause: nil) }

        /// `INSERT OR IGNORE`, with the key's value or (`withoutID`) leaving the rowid to SQLite.
        static func insertOrIgnore(withoutID: Bool) -> Kind {
            Kind(tag: withoutID ? .insertOrIgnoreWithoutID : .insertOrIgnoreWithID, clause: nil)
        }

        /// The upsert that reports its outcome, with `clause`.
        static func upsertReporting(_ clause: UpsertClause) -> Kind {
            Kind(tag: .upsertReporting, clause: Clause(upsert: clause, columns: []))
        }

        /// The update of `columns` only.
        static func updateColumns(_ columns: [String]) -> Kind {
            Kind(tag: .updateColumns, clause: Clause(upsert: nil, columns: columns))
        }

        /// ``upsertReporting(_:)`` with a shared clause object for the default upsert (conflict on the key,
        /// every column updated), or the one `db` used last when it says the same: no allocation per record
        /// in a loop, and kinds compared by identity.
        static func upsertReporting(_ clause: UpsertClause, db: Database) -> Kind {
            if clause.conflictColumns == nil, clause.namedColumns == nil {
                return Kind(
                    tag: .upsertReporting,
                    clause: clause.leavesOutRowID ? Clause.defaultUpsertLeavingOutRowID : Clause.defaultUpsert)
            }
            return Kind(tag: .upsertReporting, clause: RecordWritePlans.of(db).clause(upsert: clause, columns: []))
        }

        /// ``updateColumns(_:)`` with the clause object `plans` (a connection's) used last when it names the
        /// same columns.
        static func updateColumns(_ columns: [String], in plans: RecordWritePlans) -> Kind {
            Kind(tag: .updateColumns, clause: plans.clause(upsert: nil, columns: columns))
        }

        /// The upsert's clause, for ``Tag/upsertReporting``.
        var upsertClause: UpsertClause? { clause?.upsert }

        /// The columns a partial update writes, for ``Tag/updateColumns``.
        var namedColumns: [String] { clause?.columns ?? [] }

        // Inlined: the plan lookup of every insert compares two kinds (callgrind: 23 instructions a row of W1
        // as a call).
        @inline(__always)
        static func == (lhs: Kind, rhs: Kind) -> Bool {
            guard lhs.tag == rhs.tag else { return false }
            // The plain kinds have no clause; the others share the connection's recent clause (see
            // ``RecordWritePlans/clause(upsert:columns:)``), so identity settles most comparisons.
            if lhs.clause === rhs.clause { return true }
            switch (lhs.clause, rhs.clause) {
            case (nil, nil): return true
            case (let left?, let right?): return left == right
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(tag)
            hasher.combine(clause)
        }

        /// True when the statement leaves some of the record's columns out of the columns it binds: the
        /// rowid of an insert that lets SQLite choose it, every key column of an update, the columns a
        /// partial update does not name.
        var leavesOutKey: Bool {
            switch tag {
            case .insertWithID, .upsert, .insertOrIgnoreWithID: return false
            case .insertWithoutID, .update, .updateColumns, .insertOrIgnoreWithoutID, .compareValues: return true
            case .upsertReporting: return upsertClause?.leavesOutRowID ?? false
            }
        }

        /// True for the kinds that bind the key's values after the record's columns: the updates.
        var bindsKeyAfterColumns: Bool { tag == .update || tag == .updateColumns }

        /// True for the inserts that leave the rowid to SQLite.
        var insertsWithoutID: Bool {
            switch tag {
            case .insertWithoutID, .insertOrIgnoreWithoutID: return true
            case .upsertReporting: return upsertClause?.leavesOutRowID ?? false
            default: return false
            }
        }

        /// The statement's entry in ``RecordSQLCache``.
        var operation: RecordSQLCache.Operation {
            switch tag {
            case .insertWithID: return .insertWithID
            case .insertWithoutID: return .insertWithoutID
            case .update, .compareValues: return .update
            case .upsert: return .upsert
            case .insertOrIgnoreWithID, .insertOrIgnoreWithoutID: return .insertOrIgnore
            case .upsertReporting:
                return .upsertReporting(
                    upsertClause ?? UpsertClause(conflictColumns: nil, namedColumns: nil, leavesOutRowID: false))
            case .updateColumns: return .updateColumns(namedColumns)
            }
        }

        /// The statement's SQL for `table`, binding `columns` (key columns left out when ``leavesOutKey``)
        /// in order, then, for an update, the key's values (`keyCounts` for each of `keyColumns`).
        func sql(table: String, columns: [String], keyColumns: [String], keyCounts: [Int]) -> String {
            switch tag {
            case .insertWithID, .insertWithoutID: return RecordSQL.insert(into: table, columns: columns)
            case .update, .updateColumns, .compareValues:
                return RecordSQL.update(table, columns: columns, keyColumns: keyColumns, counts: keyCounts)
            case .upsert: return RecordSQL.upsert(into: table, columns: columns, keyColumns: keyColumns)
            case .insertOrIgnoreWithID, .insertOrIgnoreWithoutID:
                return RecordSQL.insert(into: table, columns: columns, orIgnore: true)
            case .upsertReporting:
                let clause =
                    upsertClause ?? UpsertClause(conflictColumns: nil, namedColumns: nil, leavesOutRowID: false)
                return RecordSQL.upsert(
                    into: table, columns: columns, conflictColumns: clause.conflictColumns ?? keyColumns,
                    updating: clause.updatedColumns(bound: columns, keyColumns: keyColumns))
            }
        }

        /// The columns of `names` the statement leaves out: the rowid for an insert without id, every key
        /// column for an update, the columns a partial update does not name.
        func leavesOut(_ name: String, keyColumns: [String]) -> Bool {
            switch tag {
            case .insertWithoutID, .insertOrIgnoreWithoutID: return name == keyColumns.first
            case .update, .compareValues: return keyColumns.contains(name)
            case .updateColumns: return keyColumns.contains(name) || !namedColumns.contains(name)
            case .insertWithID, .upsert, .insertOrIgnoreWithID: return false
            case .upsertReporting: return (upsertClause?.leavesOutRowID ?? false) && name == keyColumns.first
            }
        }
    }

    /// The encoder that binds records into ``statement``; replaced by ``replaceEncoderIfKept()`` when user
    /// code kept its keyed container. Unchecked: a plan is used by one write at a time.
    @exclusivity(unchecked) private(set) var encoder: ColumnsEncoder
    /// The prepared statement; not in the connection's statement cache, so nothing else binds it.
    let statement: Statement
    let binding: StatementBinding
    /// The table the SQL was made for, the type's ``Record/primaryKeyColumn`` then, and the key's shape
    /// (columns and values bound for each, see ``KeyMatch/shape``).
    let tableName: String
    let primaryKeyColumn: String
    let keyShape: String
    /// The schema cache generation the plan was made under: the plan is stale once it moves.
    let schemaGeneration: Int
    /// True when the record type's key columns were found unique (``Record/checkKey(_:columns:)``) under
    /// ``schemaGeneration``: while the plan is current, an update through it need not ask again.
    let keyIsChecked: Bool
    /// What an upsert needs of the table's shape under that generation (see ``TableShape``), read here
    /// rather than from the schema cache per record.
    let tableHasRowID: Bool
    let tableMayIgnoreWrites: Bool
    /// For each coding key whose text is kept, the column whose affinity it is checked against.
    let numericColumns: [TextAffinityGuard.NumericColumn?]
    /// The first parameter the record's key binds for an update; 0 for inserts.
    let keyParameter: Int32
    /// The column each parameter binds, in order (index 0 for parameter 1).
    let boundColumns: [String]
    /// True while a record is written through the plan: a write that starts then (from a callback) goes the
    /// collected way rather than rebinding the statement under the first.
    @exclusivity(unchecked) var isInUse = false

    /// Makes the plan for the columns `names`, encoded from coding keys `keys` (same order, the key
    /// columns among them; `key` says which, and how many values each binds in an update).
    /// `keyCheckedGeneration` is the schema generation the record type's key was last found unique under.
    /// - Throws: ``DatabaseError`` when the statement cannot be prepared or the table's columns read.
    init(
        _ kind: Kind, keys: [String], names: [String], key: KeyMatch, primaryKeyColumn: String, tableName: String,
        options: RecordEncoder, db: Database, keyCheckedGeneration: Int? = nil
    ) throws {
        let generated = GeneratedColumns.of(tableName, db: db)
        var boundNames: [String] = []
        var parameters: [Int32] = []
        for name in names {
            if kind.leavesOut(name, keyColumns: key.columns) || generated.contains(name) {
                // A partial update checks the keys of the key columns only (see `StatementBinding.unchecked`).
                let checksKey = kind.tag != .updateColumns || key.columns.contains(name)
                parameters.append(checksKey ? 0 : StatementBinding.unchecked)
            } else {
                boundNames.append(name)
                parameters.append(Int32(boundNames.count))
            }
        }
        let sql = kind.sql(table: tableName, columns: boundNames, keyColumns: key.columns, keyCounts: key.counts)
        keyParameter = kind.bindsKeyAfterColumns ? Int32(boundNames.count + 1) : 0
        numericColumns = try TextAffinityGuard.numericColumns(names, table: tableName, db: db)
        // Not `makeStatement`: that one marks the schema cache for a check, as a statement of the caller's
        // own may change the schema.
        statement = try db.prepareStatement(sql: sql)
        binding = StatementBinding(
            statement: statement, keys: keys, parameters: parameters, keepsText: numericColumns.map { $0 != nil },
            bindsValues: kind.tag != .compareValues, stopsPastLastKey: kind.tag == .updateColumns)
        boundColumns = boundNames
        encoder = ColumnsEncoder(tableName: tableName, options: options, binding: binding)
        schemaGeneration = try db.currentSchemaGeneration()
        keyIsChecked = keyCheckedGeneration == schemaGeneration
        tableHasRowID = try db.tableShape(tableName).hasRowID
        // Read only for the upserts that need it: the inserts' first write does not pay its two queries.
        if kind.tag == .upsertReporting {
            tableMayIgnoreWrites = try db.tableWriteTraits(tableName).mayIgnoreWrites
        } else {
            tableMayIgnoreWrites = false
        }
        self.tableName = tableName
        self.primaryKeyColumn = primaryKeyColumn
        self.keyShape = key.shape
    }

    /// True when the plan was made for `tableName` and `primaryKeyColumn`, the record type's names now.
    /// Apart and not generic, so that the write paths, which are not specialized for the record type,
    /// compare the names without retaining the plan's (callgrind: about 60 instructions a record inline).
    @inline(never)
    func isFor(tableName: String, primaryKeyColumn: String) -> Bool {
        self.tableName == tableName && self.primaryKeyColumn == primaryKeyColumn
    }

    deinit {
        // The encoder's kept container refers back to it.
        encoder.dropContainer()
    }

    /// Retires the encoder, and goes on with a new one, when user code kept the keyed container of the record
    /// just written (a type that stores it, or that encodes into the previous record's container from the
    /// next record's `encode(to:)`): the kept container then throws for every value rather than bind it into
    /// this plan's statement under a later write. Called when each write through the plan ends.
    @inline(__always)
    func replaceEncoderIfKept() {
        if encoder.isHeldByUserCode { replaceEncoder() }
    }

    @inline(never)
    private func replaceEncoder() {
        let options = encoder.options
        encoder.retire()
        encoder = ColumnsEncoder(tableName: tableName, options: options, binding: binding)
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
    /// The SQL of the request shapes run on this connection.
    let requestSQL = RequestSQLCache()
    /// The `fetchOne(_:id:)` statements of this connection, by record type (see ``RecordLookupPlan``), and
    /// the one used last: a loop of lookups of one type finds it with one comparison.
    @exclusivity(unchecked) var lookupPlans: [ObjectIdentifier: RecordLookupPlan] = [:]
    @exclusivity(unchecked) var lastLookupPlan: RecordLookupPlan?
    /// How many records were written through a plan on this connection (tests check the plans are used).
    @exclusivity(unchecked) private(set) var writes = 0
    /// The plan found last: a loop that saves records of one type finds it without hashing.
    @exclusivity(unchecked) private var lastKey: Key? {
        didSet {
            lastType = lastKey?.type
            lastTag = lastKey?.kind.tag
            lastClause = lastKey?.kind.clause.map(ObjectIdentifier.init)
        }
    }
    /// ``lastKey``'s parts, as plain values: its type, tag, and the identity of its clause (which `lastKey`
    /// keeps alive, so no other clause can take that identity while it is the last key).
    @exclusivity(unchecked) private var lastType: ObjectIdentifier?
    @exclusivity(unchecked) private var lastTag: RecordWritePlan.Kind.Tag?
    @exclusivity(unchecked) private var lastClause: ObjectIdentifier?
    @exclusivity(unchecked) private var lastPlan: RecordWritePlan?

    /// The plans of `db`, made on first use. Inlined into the write path, which calls it for every record.
    @inline(__always)
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

    /// The clause of the last upsert or partial update on this connection: a loop of them makes one object.
    @exclusivity(unchecked) private var recentClause: RecordWritePlan.Kind.Clause?

    /// A clause saying `upsert` and `columns`: the recent one when it says the same, else a new one.
    func clause(upsert: UpsertClause?, columns: [String]) -> RecordWritePlan.Kind.Clause {
        if let recent = recentClause, recent.upsert == upsert,
            Self.sharesStorage(recent.columns, columns) || recent.columns == columns
        {
            return recent
        }
        let clause = RecordWritePlan.Kind.Clause(upsert: upsert, columns: columns)
        recentClause = clause
        return clause
    }

    /// True when `left` and `right` have the same count and one element storage, so the same elements: a loop
    /// that passes one array (or one array literal, which the compiler makes once) for every record. Asked
    /// before `==`, a call that costs a partial update about 25 instructions when they are the same array.
    @inline(__always)
    private static func sharesStorage(_ left: [String], _ right: [String]) -> Bool {
        left.count == right.count
            && left.withUnsafeBufferPointer { left in
                right.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
            }
    }

    /// Counts a record written through a plan.
    func countWrite() { writes &+= 1 }

    /// The change comparisons of ``Record/updateChanges(_:from:)``, by record type; the last one used is
    /// kept apart, for loops over one type.
    @exclusivity(unchecked) private var comparisons: [ObjectIdentifier: RecordChangeComparison] = [:]
    @exclusivity(unchecked) private var lastComparisonType: ObjectIdentifier?
    @exclusivity(unchecked) private var lastComparison: RecordChangeComparison?

    /// The change comparison of `type`, current or not; nil when there is none.
    func comparison(_ type: ObjectIdentifier) -> RecordChangeComparison? {
        if lastComparisonType != type, let found = comparisons[type] { setLastComparison(found, for: type) }
        return lastComparisonType == type ? lastComparison : nil
    }

    private func setLastComparison(_ comparison: RecordChangeComparison?, for type: ObjectIdentifier) {
        lastComparisonType = comparison == nil ? nil : type
        lastComparison = comparison
    }

    /// Keeps `comparison` for `type`, or drops it (nil).
    func setComparison(_ comparison: RecordChangeComparison?, for type: ObjectIdentifier) {
        comparisons[type] = comparison
        setLastComparison(comparison, for: type)
    }

    /// For each record type whose key columns were found unique, the schema generation they were checked
    /// under (see ``Record/checkKey(_:_:)``); the last one checked is kept apart, for loops over one type.
    @exclusivity(unchecked) private var keyChecks: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) private var lastKeyCheck: (type: ObjectIdentifier, generation: Int)?

    /// The schema generation under which `type`'s key was last found unique; nil when it never was.
    func keyCheckedGeneration(_ type: ObjectIdentifier) -> Int? {
        if let last = lastKeyCheck, last.type == type { return last.generation }
        return keyChecks[type]
    }

    /// Notes that `type`'s key was found unique under `generation`.
    func noteKeyChecked(_ type: ObjectIdentifier, generation: Int) {
        keyChecks[type] = generation
        lastKeyCheck = (type, generation)
    }

    /// The plan of record type `type` for `kind`: ``lastPlan`` when they are ``lastKey``'s, compared as plain
    /// values without making a ``Key`` (which retains and releases the kind's clause), else through the
    /// subscript. Inlined into the write paths, which ask it for every record.
    @inline(__always)
    func plan(for type: ObjectIdentifier, _ kind: RecordWritePlan.Kind) -> RecordWritePlan? {
        if lastType == type, lastTag == kind.tag, lastClause == kind.clause.map(ObjectIdentifier.init) {
            return lastPlan
        }
        return self[Key(type: type, kind: kind)]
    }

    subscript(key: Key) -> RecordWritePlan? {
        get {
            // Compared first by plain values, the clause by identity: comparing whole keys copies them, a retain
            // and release of the clause (callgrind: about 80 instructions an upsert).
            if lastType == key.type, lastTag == key.kind.tag,
                lastClause == key.kind.clause.map(ObjectIdentifier.init)
            {
                return lastPlan
            }
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

/// The key an update binds after the record's columns: a rowid without any array, or the values of any
/// other key.
enum WriteKey {
    /// An insert or upsert: the key is among the record's columns.
    case none
    /// The rowid of a record whose key is `Int64?`.
    case rowID(Int64)
    /// Any other key.
    case match(KeyMatch)

    /// The key for messages.
    var description: String {
        switch self {
        case .none: return ""
        case .rowID(let rowID): return String(rowID)
        case .match(let match): return match.description
        }
    }

    /// The values bound after the record's columns.
    var values: [SQLiteValue] {
        switch self {
        case .none: return []
        case .rowID(let rowID): return [.integer(rowID)]
        case .match(let match): return match.values.flatMap { $0 }
        }
    }
}

extension Record {
    /// The key's columns as the plans need them (values are placeholders for a rowid): `id`'s for any key,
    /// which must be set.
    /// - Throws: as ``keyMatch(_:)``, but a nil rowid is fine.
    static func keyLayout(of id: ID, _ key: WriteKey) throws -> KeyMatch {
        if case .match(let match) = key { return match }
        if keyIsRowID { return KeyMatch(columns: [primaryKeyColumn], values: [[.integer(0)]]) }
        return try keyMatch(id)
    }

    /// Writes this record through the connection's plan for `kind`, when there is a current one and the
    /// record's coding keys are the plan's; `key` is bound after the columns for an update.
    /// - Returns: true when the record was written; false when nothing ran, and the caller writes the record
    ///   the collected way (``writeCollected(_:db:key:)``).
    /// - Throws: what the collected way throws for the same record: encoding errors, the affinity guard's,
    ///   and ``DatabaseError`` with the bound arguments.
    func writeThroughPlan(_ kind: RecordWritePlan.Kind, db: Database, key: WriteKey = .none) throws -> Bool {
        let plans = RecordWritePlans.of(db)
        guard let plan = try Self.currentPlan(kind, db: db, in: plans) else { return false }
        return try write(through: plan, kind, db: db, key: key, plans: plans)
    }

    /// The connection's plan for `kind` when it is current (same table, key column and schema generation;
    /// a stale one is dropped) and not in use; nil otherwise. `plans` is `RecordWritePlans.of(db)`, which
    /// the write paths look up once a record and pass on: each lookup retains and releases it.
    /// - Throws: ``DatabaseError`` when the schema version cannot be read.
    @inline(__always)
    static func currentPlan(
        _ kind: RecordWritePlan.Kind, db: Database, in plans: RecordWritePlans
    ) throws -> RecordWritePlan? {
        guard let plan = plans.plan(for: ObjectIdentifier(Self.self), kind), !plan.isInUse else { return nil }
        guard plan.isFor(tableName: Self.tableName, primaryKeyColumn: Self.primaryKeyColumn),
            plan.schemaGeneration == (try db.currentSchemaGeneration())
        else {
            plans[RecordWritePlans.Key(type: ObjectIdentifier(Self.self), kind: kind)] = nil
            return nil
        }
        return plan
    }

    /// ``writeThroughPlan(_:db:key:)`` with `plan`, which ``currentPlan(_:db:in:)`` returned for `kind` from
    /// `plans` (which counts the write). Inlined
    /// into ``writeThroughPlan(_:db:key:)``, so that the inserts' path is one function as it was before the
    /// split (callgrind: a call here costs W1 about 45 instructions a row).
    @inline(__always)
    func write(
        through plan: RecordWritePlan, _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey,
        plans: RecordWritePlans
    ) throws -> Bool {
        if case .match(let match) = key, match.shape != plan.keyShape { return false }
        plan.isInUse = true
        let binding = plan.binding
        defer {
            plan.isInUse = false
            if binding.holdsLargeValue { binding.releaseValues() }
            plan.replaceEncoderIfKept()
        }
        do {
            guard try plan.encoder.encode(self) else { return false }
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
            throw error.carrying(collectedArguments(kind, key: key, options: plan.encoder.options))
        }
        if !binding.keptTexts.isEmpty {
            for (position, text) in binding.keptTexts {
                if let column = plan.numericColumns[position] {
                    try TextAffinityGuard.check(text, in: column, table: Self.tableName)
                }
            }
        }
        do {
            try plan.statement.runToEnd(boundArguments: {
                var arguments = binding.boundArguments
                arguments.values += key.values
                return arguments
            })
        } catch let error as DatabaseError where error.resultCode == .constraintForeignKey {
            // SQLite's message names no column: the lookup that finds it runs only on this failure.
            throw explainingForeignKeyFailure(error, db: db)
        }
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
    ///
    /// With `returned`, the statement ends in a RETURNING clause, its row is kept in `returned`, and no plan
    /// is made.
    @discardableResult
    func writeCollected(
        _ kind: RecordWritePlan.Kind, db: Database, key: WriteKey = .none, returned: ReturnedValues? = nil
    ) throws -> Bool {
        let options = Self.recordEncoder
        // SQLite computes generated columns and refuses writes that name them.
        let generated = GeneratedColumns.of(Self.tableName, db: db)
        let columns: EncodedColumns
        let keys: [String]
        let layout: KeyMatch
        if kind.tag == .updateColumns {
            // The key first: the encoding stops once it has the named columns and the key's (`EncodingStop`),
            // unless one of them cannot be written, which is refused below naming every column that can.
            layout = try Self.keyLayout(of: id, key)
            let named = kind.namedColumns
            let refused = named.contains { layout.columns.contains($0) || generated.contains($0) }
            (columns, keys) = try options.encodeWithKeys(
                self, tableName: Self.tableName, writtenColumns: refused ? nil : named, keyColumns: layout.columns)
        } else {
            (columns, keys) = try options.encodeWithKeys(self, tableName: Self.tableName)
            layout = try Self.keyLayout(of: id, key)
        }
        try Self.checkNoCaseTwins(columns.names)
        for column in layout.columns where !columns.names.contains(column) {
            throw RecordError.missingPrimaryKey(table: Self.tableName, column: column)
        }
        // Checked here, where every plan is first made: a plan is dropped when the schema changes, so the
        // records written through it meet the same table.
        try Self.explainingMissingTable { try Self.checkWriteTarget(db, insertingWithoutID: kind.insertsWithoutID) }
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
        let sql = RecordSQLCache.sql(
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
        let planKey = RecordWritePlans.Key(type: ObjectIdentifier(Self.self), kind: kind)
        let plans = RecordWritePlans.of(db)
        if plans[planKey] == nil {
            // The record is written; a plan that cannot be made only leaves the next record the collected way.
            plans[planKey] = try? RecordWritePlan(
                kind, keys: keys, names: columns.names, key: layout, primaryKeyColumn: Self.primaryKeyColumn,
                tableName: Self.tableName, options: options, db: db,
                keyCheckedGeneration: plans.keyCheckedGeneration(ObjectIdentifier(Self.self)))
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

    /// `columns` without the key columns the statement of `kind` leaves out.
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
