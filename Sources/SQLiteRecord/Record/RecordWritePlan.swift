/// The prepared INSERT or UPDATE that one record type runs on one connection, with an encoder that binds a
/// record's values straight into it: no ``EncodedColumns`` arrays, no ``StatementArguments``, no SQL looked
/// up per record.
///
/// A plan is made from the columns of a record written the collected way (encoded into ``EncodedColumns``,
/// then run through the statement cache), and used for the records of that type after it (see
/// ``Record/write(_:db:key:returned:)``, the one write path). It is made anew when the schema may have
/// changed (see ``SchemaCache``) or the type's `tableName` or `primaryKeyColumn` changed. A record whose
/// coding keys differ from the plan's (a custom `encode(to:)` that leaves a key out), or that did not bind
/// every parameter (its `encode(to:)` caught an error and went on), is written the collected way, and the
/// plan is kept.
///
/// Every value a record encodes is converted, the ones the statement leaves out too (the key columns of an
/// update, the columns a partial update does not name), so a record the collected way refuses (a NaN) is
/// refused through the plan as well.
///
/// The plan holds the statement, the binding and the encoder. The encoder holds the binding and keeps its
/// keyed container, which holds the encoder: that cycle is broken when the plan goes (`deinit`).
final class RecordWritePlan {
    /// The encoder that binds records into ``statement``; replaced by ``replaceEncoderIfKept()`` when user
    /// code kept its keyed container.
    private(set) var encoder: ColumnsEncoder
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
    /// For each coding key whose text is kept, the column whose affinity it is checked against.
    let numericColumns: [TextAffinityGuard.NumericColumn?]
    /// The first parameter the record's key binds for an update; 0 for inserts.
    let keyParameter: Int32
    /// The column each parameter binds, in order (index 0 for parameter 1).
    let boundColumns: [String]
    /// True while a record is written through the plan: a write that starts then (from a callback) goes the
    /// collected way rather than rebinding the statement under the first.
    var isInUse = false
    /// What an upsert through the plan needs of its table (see ``Record/upsert(_:onConflict:updating:)-method``):
    /// whether it has a rowid, and whether it may skip a write (a trigger, an `OR IGNORE` constraint; see
    /// ``TableWriteTraits``). Each is nil until the first upsert through the plan reads it from the schema,
    /// and is then valid as long as the plan is: it depends only on ``tableName`` and the schema, under
    /// ``schemaGeneration``, which the plan is checked against before each record.
    var tableHasRowID: Bool?
    var tableMayIgnoreWrites: Bool?

    /// Makes the plan for the columns `names`, encoded from coding keys `keys` (same order, the key
    /// columns among them; `key` says which, and how many values each binds in an update).
    /// - Throws: ``DatabaseError`` when the statement cannot be prepared or the table's columns read.
    init(
        _ kind: Kind, keys: [String], names: [String], key: KeyMatch, primaryKeyColumn: String, tableName: String,
        options: RecordEncoder, db: Database
    ) throws {
        let generated = GeneratedColumns.of(tableName, db: db)
        var boundNames: [String] = []
        var parameters: [Int32] = []
        for name in names {
            if kind.leavesOut(name, keyColumns: key.columns) || generated.contains(name) {
                parameters.append(StatementBinding.leftOut)
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
            bindsValues: kind.tag != .compareValues)
        boundColumns = boundNames
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
