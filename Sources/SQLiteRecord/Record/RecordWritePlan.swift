/// The prepared INSERT or UPDATE that one record type runs on one connection, with an encoder that binds a
/// record's values straight into it: no ``EncodedColumns`` arrays, no ``StatementArguments``, no SQL looked
/// up per record.
///
/// Every record write runs through a plan (see ``Record/write(_:db:key:returned:)``, the one write path). A
/// plan is made from one record: encoded once into ``EncodedColumns`` for its coding keys, column names and
/// values, checked (the checks of a write target, a key and named columns run here, where every plan is
/// made), and that record is written through it, its values bound from that encoding. The plan is then
/// kept in the connection's ``RecordConnectionCache`` when there is none for its type and kind, and the
/// records after it bind through its encoder. A record whose coding keys differ from the kept plan's (a
/// custom `encode(to:)` that leaves a key out), that did not bind every parameter (its `encode(to:)` caught
/// an error and went on), whose key has another shape, that is written while the kept plan is in use (from
/// a callback of another write), or that reads back (RETURNING) gets a plan of its own, made the same way and
/// not kept, and the kept plan stays.
///
/// Every value a record encodes is converted, the ones the statement leaves out too (the key columns of an
/// update, the columns a partial update does not name), so a record a plan refuses (a NaN) is refused
/// whether its plan is new or kept.
///
/// The plan holds the statement, the binding and the encoder. The encoder holds the binding and keeps its
/// keyed container, which holds the encoder: that cycle is broken when the plan goes (`deinit`).
final class RecordWritePlan {
    /// The encoder that binds records into ``statement``; replaced by ``replaceEncoderIfKept()`` when user
    /// code kept its keyed container.
    private(set) var encoder: ColumnsEncoder
    /// The prepared statement. A kept plan's is its own, not in the connection's statement cache, so nothing
    /// else binds it; a plan made for one record takes it from the statement cache, checked out while the
    /// record is written (see ``takesCachedStatement``).
    let statement: Statement
    /// True when ``statement`` came from the connection's statement cache (a plan that is not kept).
    let takesCachedStatement: Bool
    /// True when the statement ends in a RETURNING clause: its row is read into ``ReturnedValues``.
    let readsBack: Bool
    /// The parameter each coding key binds (1-based), ``StatementBinding/leftOut`` for a value the statement
    /// leaves out; in the order of the keys the plan was made from.
    let parameters: [Int32]
    let binding: StatementBinding
    /// The table the SQL was made for, the type's ``Record/primaryKeyColumn`` then, and the key's shape
    /// (columns and values bound for each, see ``KeyMatch/shape``).
    let tableName: String
    let primaryKeyColumn: String
    let keyShape: String
    /// The schema cache generation the plan was made under: the plan is stale once it moves.
    let schemaGeneration: Int
    /// For each coding key whose text is kept, the column whose affinity it is checked against.
    let numericColumns: [TextAffinityGuard.NumericColumn?]
    /// The first parameter the record's key binds for an update; 0 for inserts.
    let keyParameter: Int32
    /// The column each parameter binds, in order (index 0 for parameter 1).
    let boundColumns: [String]
    /// True while a record is written through the plan: a write that starts then (from a callback) gets a
    /// plan of its own rather than rebinding the statement under the first.
    var isInUse = false
    /// What an upsert through the plan needs of its table (see ``Record/upsert(_:onConflict:updating:)-method``):
    /// whether it has a rowid, and whether it may skip a write (a trigger, an `OR IGNORE` constraint; see
    /// ``TableWriteTraits``). Each is nil until the first upsert through the plan reads it from the schema,
    /// and is then valid as long as the plan is: it depends only on ``tableName`` and the schema, under
    /// ``schemaGeneration``, which the plan is checked against before each record.
    var tableHasRowID: Bool?
    var tableMayIgnoreWrites: Bool?

    /// Which of a record's columns a statement binds, in order, and the parameter of each.
    struct Columns {
        /// The parameter each column of the record binds, ``StatementBinding/leftOut`` when the statement
        /// leaves it out.
        let parameters: [Int32]
        /// The columns bound, in parameter order.
        let bound: [String]

        /// The columns of `names` (a record's, in encoding order) that the statement of `kind` binds: all
        /// but the key columns `kind` leaves out (`key` says which), the `generated` ones, and the positions
        /// in `leavingOut` (the NULLs with defaults an insert that reads back leaves to the database).
        init(_ kind: Kind, names: [String], key: KeyMatch, generated: GeneratedColumns, leavingOut: Set<Int> = []) {
            var bound: [String] = []
            var parameters: [Int32] = []
            for (position, name) in names.enumerated() {
                if kind.leavesOut(name, keyColumns: key.columns) || generated.contains(name)
                    || leavingOut.contains(position)
                {
                    parameters.append(StatementBinding.leftOut)
                } else {
                    bound.append(name)
                    parameters.append(Int32(bound.count))
                }
            }
            self.bound = bound
            self.parameters = parameters
        }
    }

    /// Makes the plan for the columns `names`, encoded from coding keys `keys` (same order, the key
    /// columns among them; `key` says which, and how many values each binds in an update), binding
    /// `columns` with the statement `sql` (built from `kind` when nil). With `returning`, the statement ends
    /// in a RETURNING clause of those columns (nil: every column). With `ownStatement` the plan prepares a
    /// statement of its own, to be kept; otherwise it takes one from the connection's statement cache.
    /// - Throws: ``DatabaseError`` when the statement cannot be prepared or the table's columns read.
    init(
        _ kind: Kind, keys: [String], names: [String], columns: Columns, key: KeyMatch, primaryKeyColumn: String,
        tableName: String, options: RecordEncoder, sql: String? = nil, returning: ReturnedValues? = nil,
        ownStatement: Bool = true, db: Database
    ) throws {
        var sql =
            sql ?? kind.sql(table: tableName, columns: columns.bound, keyColumns: key.columns, keyCounts: key.counts)
        if let returning { sql += RecordSQL.returning(returning.columns) }
        keyParameter = kind.bindsKeyAfterColumns ? Int32(columns.bound.count + 1) : 0
        numericColumns = try TextAffinityGuard.numericColumns(names, table: tableName, db: db)
        // Not `makeStatement`: that one marks the schema cache for a check, as a statement of the caller's
        // own may change the schema.
        statement = try ownStatement ? db.prepareStatement(sql: sql) : db.statementFromCache(sql: sql)
        takesCachedStatement = !ownStatement
        readsBack = returning != nil
        parameters = columns.parameters
        binding = StatementBinding(
            statement: statement, keys: keys, parameters: columns.parameters,
            keepsText: numericColumns.map { $0 != nil }, bindsValues: kind.tag != .compareValues)
        boundColumns = columns.bound
        encoder = ColumnsEncoder(tableName: tableName, options: options, binding: binding)
        schemaGeneration = try db.currentSchemaGeneration()
        self.tableName = tableName
        self.primaryKeyColumn = primaryKeyColumn
        self.keyShape = key.shape
    }

    /// True when the plan was made for `tableName` and `primaryKeyColumn`, the record type's names now.
    /// Apart and not generic, so that the write paths, which are not specialized for the record type,
    /// compare the names without retaining the plan's.
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
