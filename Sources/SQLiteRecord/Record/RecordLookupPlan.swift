import Foundation

/// The prepared `SELECT * FROM "table" WHERE "key" = ?` that `fetchOne(_:id:)` runs for one record type on
/// one connection, with the decoding context its rows share: a lookup by key then costs what a hand-written
/// loop over one prepared statement costs (bind, step, read the row, reset), plus the row's decoding.
///
/// What a lookup would otherwise repeat for every call: finding its SQL, hashing it in the statement cache,
/// boxing the key into ``StatementArguments``, reading the type's ``Record/rowDecoder`` (a new JSON decoder
/// each time, for the default) and making a decoding context.
///
/// A plan is made once the key's columns were found unique (``Record/checkKey(_:columns:)``), under the
/// schema cache's generation of that moment, and made anew when the generation moves (the schema changed
/// or may have: see ``SchemaCache``), or the type's `tableName`, `primaryKeyColumn` or key columns are not
/// the ones it was made for (computed properties may change). Its statement is not in the connection's
/// statement cache, so nothing else binds it; a lookup that starts while the plan runs (from a type's own
/// decoding) runs through a plan of its own, made for that lookup and not kept.
///
/// The rows are decoded as every fetch decodes them: the type's row initializer when it has one, else
/// `init(from:)` through the context, which keeps its keyed container from call to call and retires it
/// when user code kept it (see ``RowDecodingStateStorage``), exactly as it does from row to row in one
/// fetch.
final class RecordLookupPlan {
    /// The prepared SELECT, which binds one value per key column (the form the encoder writes), and the
    /// context that decodes its rows as the type's table-backed fetches do.
    private let decoding: DecodingStatement
    var statement: Statement { decoding.statement }
    /// The record type the plan decodes.
    let typeIdentifier: ObjectIdentifier
    /// The table, the type's ``Record/primaryKeyColumn`` and the key's columns the SQL was made for.
    let tableName: String
    let primaryKeyColumn: String
    let keyColumns: [String]
    /// True when the key is the one column ``primaryKeyColumn``: a rowid, a UUID, any single value.
    let isKeyedByPrimaryKeyColumn: Bool
    /// The schema cache generation the key was checked and the statement prepared under.
    let schemaGeneration: Int
    /// How the type's encoder writes a UUID: the form a UUID key is looked up in first.
    let uuidEncodingStrategy: RecordEncoder.UUIDEncodingStrategy
    /// True while a lookup runs through the plan.
    var isInUse = false

    /// Prepares the SELECT for `keyColumns` of `tableName`; the caller has checked the key.
    /// - Throws: ``DatabaseError`` when the statement cannot be prepared (a missing table or column).
    init(
        type: ObjectIdentifier, tableName: String, primaryKeyColumn: String, keyColumns: [String],
        schemaGeneration: Int,
        decoder: RowDecoder, encoder: RecordEncoder, db: Database
    ) throws {
        let sql = RecordSQL.selectOne(
            from: tableName, keyColumns: keyColumns, counts: Array(repeating: 1, count: keyColumns.count))
        // Not `makeStatement`: that one marks the schema cache for a check, as a statement of the caller's
        // own may change the schema.
        decoding = DecodingStatement(
            statement: try db.prepareStatement(sql: sql, notesUse: false), tableName: tableName,
            missingOptionalColumnIsNil: false,
            decoder: decoder)
        typeIdentifier = type
        self.tableName = tableName
        self.primaryKeyColumn = primaryKeyColumn
        self.keyColumns = keyColumns
        isKeyedByPrimaryKeyColumn = keyColumns == [primaryKeyColumn]
        self.schemaGeneration = schemaGeneration
        uuidEncodingStrategy = encoder.uuidEncodingStrategy
    }

    /// The form the type's encoder writes `uuid` in.
    func writtenForm(_ uuid: UUID) -> SQLiteValue { KeyMatch.writtenForm(uuid, strategy: uuidEncodingStrategy) }

    /// The row whose key is `rowID`, decoded as `T`; nil when there is none.
    /// - Throws: ``DatabaseError`` from stepping, or `DecodingError` naming the row.
    func fetchRow<T: Record>(_ type: T.Type, rowID: Int64, db: Database) throws -> T? {
        try statement.bind(integer: rowID, at: 1)
        if db.changeTracker.isRecordingReads {
            try db.noteRowRead(of: tableName, keyColumn: primaryKeyColumn, rowIDs: [rowID])
        }
        return try run(type, db: db, clearsBindings: false) { [.integer(rowID)] }
    }

    /// The row whose key columns hold `values` (one per column, in ``keyColumns`` order), decoded as `T`;
    /// nil when there is none.
    /// - Throws: ``DatabaseError`` from binding or stepping, or `DecodingError` naming the row.
    func fetchRow<T: Record>(_ type: T.Type, values: [SQLiteValue], db: Database) throws -> T? {
        for (offset, value) in values.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        return try run(type, db: db, clearsBindings: true) { values }
    }

    /// The row whose one key column holds `uuid` in the form the type's encoder writes, decoded as `T`; nil
    /// when there is none. The text form is bound from the stack, with no string made.
    /// - Throws: as ``fetchRow(_:values:db:)``.
    func fetchRow<T: Record>(_ type: T.Type, uuid: UUID, db: Database) throws -> T? {
        switch uuidEncodingStrategy {
        case .lowercaseText: try UUIDText.withLowercaseUTF8(uuid) { try statement.bind(utf8: $0, at: 1) }
        case .blob: try statement.bind(writtenForm(uuid), at: 1)
        }
        return try run(type, db: db, clearsBindings: true) { [writtenForm(uuid)] }
    }

    /// The row whose one key column holds `value`, decoded as `T`; nil when there is none.
    /// - Throws: as ``fetchRow(_:values:db:)``.
    func fetchRow<T: Record>(_ type: T.Type, value: SQLiteValue, db: Database) throws -> T? {
        try statement.bind(value, at: 1)
        return try run(type, db: db, clearsBindings: true) { [value] }
    }

    /// Steps the bound statement and decodes its row, then resets the statement, so that it holds no lock,
    /// and when `clearsBindings` clears its bindings, so that it keeps no copy of a text or blob key (an
    /// integer rowid, overwritten by the next lookup, is left). `arguments` gives the bound values to an
    /// error.
    private func run<T: Record>(
        _ type: T.Type, db: Database, clearsBindings: Bool, arguments: () -> [SQLiteValue]
    ) throws -> T? {
        isInUse = true
        defer {
            if clearsBindings { statement.resetAndClearBindings() } else { statement.reset() }
            isInUse = false
        }
        // What an observed read depends on (see ``ChangeTracker``), as the statement cache notes it.
        db.changeTracker.noteUse(of: statement)
        guard try statement.step(boundArguments: { StatementArguments(arguments()) }), let context = decoding.context
        else {
            return nil
        }
        do {
            return try context.decodeRow(T.self)
        } catch let error as DecodingError {
            throw T.locatingRow(error, of: statement)
        }
    }
}

extension Record {
    /// The lookup plan of this type for a key of the one column ``primaryKeyColumn`` (a rowid, a UUID, any
    /// single value), current for `db`'s schema: the kept one, or a new one.
    /// - Throws: as ``checkKey(_:columns:)``, or ``DatabaseError`` when the SELECT cannot be prepared.
    static func lookupPlan(_ db: Database) throws -> RecordLookupPlan {
        let column = primaryKeyColumn
        if let plan = try keptLookupPlan(db, primaryKeyColumn: column), plan.isKeyedByPrimaryKeyColumn {
            return plan
        }
        return try makeLookupPlan(db, keyColumns: [column])
    }

    /// The lookup plan of this type for a key of `keyColumns`, current for `db`'s schema.
    /// - Throws: as ``lookupPlan(_:)``.
    static func lookupPlan(_ db: Database, keyColumns: [String]) throws -> RecordLookupPlan {
        if let plan = try keptLookupPlan(db, primaryKeyColumn: primaryKeyColumn), plan.keyColumns == keyColumns {
            return plan
        }
        return try makeLookupPlan(db, keyColumns: keyColumns)
    }

    /// The plan kept for this type on `db` when it was made under the current schema generation for this
    /// table and `primaryKeyColumn` (the type's, read once by the caller), and is not running a lookup now.
    @inline(__always)
    private static func keptLookupPlan(_ db: Database, primaryKeyColumn: String) throws -> RecordLookupPlan? {
        let generation = try db.currentSchemaGeneration()
        guard let plan = RecordConnectionCache.of(db).lookupPlans[ObjectIdentifier(Self.self)], !plan.isInUse,
            plan.schemaGeneration == generation, plan.primaryKeyColumn == primaryKeyColumn,
            plan.tableName == tableName
        else { return nil }
        return plan
    }

    /// Checks the key and makes a plan for it; the plan is kept unless the kept one is running a lookup
    /// (this lookup started inside it), which it is left to finish.
    @inline(never)
    private static func makeLookupPlan(_ db: Database, keyColumns: [String]) throws -> RecordLookupPlan {
        try checkKey(db, columns: keyColumns)
        let lookupPlans = RecordConnectionCache.of(db).lookupPlans
        let type = ObjectIdentifier(Self.self)
        let plan = try RecordLookupPlan(
            type: type, tableName: tableName, primaryKeyColumn: primaryKeyColumn, keyColumns: keyColumns,
            schemaGeneration: try db.currentSchemaGeneration(), decoder: rowDecoder,
            encoder: cachedRecordEncoder(), db: db)
        if lookupPlans[type]?.isInUse != true { lookupPlans[type] = plan }
        return plan
    }
}
