/// One connection to a database of any engine the library runs on: SQLite's ``Database``, or PostgreSQL's
/// `PostgresConnection` (the `PostgresRecord` module). Every Record call that runs in the caller's
/// transaction takes one (`try city.save(db)`), and the callbacks ``Record/willSave(_:)`` and
/// ``Record/willDelete(_:)`` receive the one the call runs on, so a record type is written once for both
/// engines.
///
/// ```swift
/// struct City: Record {
///     var id: Int64?
///     var name: String
///     var countryId: Int64
///
///     func willSave(_ db: some DatabaseConnection) throws {
///         guard try Country.exists(db, id: countryId) else { throw CityError.unknownCountry(countryId) }
///     }
/// }
///
/// try queue.write { db in try city.save(db) }            // SQLite
/// try await pool.write { connection in try city.save(connection) }  // PostgreSQL
/// ```
///
/// The Record calls behave the same on every engine; the few differences that the engines' natures leave
/// are listed in the PostgreSQL article's "What differs" table. For what only one engine has, cast:
/// `if let db = db as? Database { ... }`.
///
/// The library's engines are its only conformers: the requirements an engine implements are not part of the
/// public interface, and a type outside the library cannot conform.
public protocol DatabaseConnection: AnyObject, SendableMetatype {
    /// Inserts `record`'s row as the statements of this engine write it, with no callback: the Record layer
    /// calls ``Record/willSave(_:)`` before and ``Record/didInsert(rowID:)`` after.
    /// - Parameters:
    ///   - record: the record; a rowid record (`Int64?` key) whose id is nil has its row's id chosen by the
    ///     database, any other is inserted with its key.
    ///   - conflict: `.ignore` skips a row that would violate a uniqueness or NOT NULL constraint.
    /// - Returns: the inserted row's rowid (the record's own rowid when it gave one; 0 for a row that has
    ///   none), or nil when `.ignore` skipped the row.
    /// - Throws: ``RecordError/rowNotInserted(table:)`` when the table ignored an `.abort` insert (a trigger,
    ///   a conflict clause), ``RecordError/missingKey(table:column:)`` for a nil key that is not a rowid, the
    ///   engine's error for a violated constraint, `EncodingError` for a value the engine cannot store.
    @_spi(RecordEngine)
    func insertRow<R: Record>(of record: R, onConflict conflict: ConflictResolution) throws -> Int64?

    /// Writes `record`'s columns (all of them but the key's, or only `columns`) to the row with its key,
    /// with no callback.
    /// - Throws: ``RecordError/recordNotFound(table:id:)`` when no row has the key (nothing is inserted),
    ///   ``RecordError/rowNotUpdated(table:id:)`` when the row exists but the table ignored the update,
    ///   ``RecordError/unknownColumn(table:column:columns:)`` for a named column the record cannot write,
    ///   ``RecordError/missingKey(table:column:)`` for a nil key, the engine's error for a constraint.
    @_spi(RecordEngine)
    func updateRow<R: Record>(of record: R, columns: [String]?) throws

    /// Saves a record whose key is not a rowid, with no callback: inserts its row, or writes every column of
    /// the row that has its key (an upsert on the key).
    /// - Throws: as ``insertRow(of:onConflict:)`` and ``updateRow(of:columns:)``;
    ///   ``RecordError/keyNotUnique(table:columns:)`` when no uniqueness constraint covers the key columns.
    @_spi(RecordEngine)
    func saveRow<R: Record>(of record: R) throws

    /// Inserts `record`, or updates the row that has its conflict target's values, in one statement, with no
    /// callback. `record` is not changed by this call; it is `inout` so that no copy of it is made.
    /// - Parameters:
    ///   - conflictColumns: the conflict target; nil for the key.
    ///   - columns: the columns a conflict updates; nil for every column but the target's and the key's, `[]`
    ///     for none.
    /// - Returns: the outcome, and the rowid the record takes (a rowid record: the row inserted or found by
    ///   the conflict target), nil when it keeps its own.
    /// - Throws: as ``insertRow(of:onConflict:)``; ``RecordError/conflictTargetNotUnique(table:columns:)``
    ///   when no uniqueness constraint covers the target.
    @_spi(RecordEngine)
    func upsertRow<R: Record>(
        of record: inout R, onConflict conflictColumns: [String]?, updating columns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?)

    /// Deletes the row whose key is `id`, with no callback.
    /// - Returns: true when a row was deleted, false when none had the key.
    /// - Throws: ``RecordError/rowNotDeleted(table:id:)`` when the row exists but the table ignored the
    ///   delete; ``RecordError/missingKey(table:column:)``; the engine's error for a foreign key.
    @_spi(RecordEngine)
    func deleteRow<R: Record>(_ type: R.Type, id: R.ID) throws -> Bool

    /// The record whose key is `id`, or nil.
    /// - Throws: the engine's error; `DecodingError` naming the column whose value does not fit.
    @_spi(RecordEngine)
    func fetchRecord<R: Record>(_ type: R.Type, id: R.ID) throws -> R?

    /// True when a row has `id` as its key.
    /// - Throws: the engine's error.
    @_spi(RecordEngine)
    func recordExists<R: Record>(_ type: R.Type, id: R.ID) throws -> Bool

    /// The records whose columns equal `conditions`' values (nil: `IS NULL`), sorted and paged as asked.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a `where:` or `orderBy:` column the
    ///   table does not have (nothing runs), ``RecordError/invalidQueryValue(table:column:type:reason:)`` for
    ///   a value no column can hold; the engine's error; `DecodingError`.
    @_spi(RecordEngine)
    func fetchRecords<R: Record>(
        _ type: R.Type, where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering], limit: Int?,
        offset: Int?
    ) throws -> [R]

    /// The number of rows whose columns equal `conditions`' values.
    /// - Throws: as ``fetchRecords(_:where:orderBy:limit:offset:)``.
    @_spi(RecordEngine)
    func countRecords<R: Record>(_ type: R.Type, where conditions: [String: (any Encodable)?]) throws -> Int

    /// Deletes the rows whose columns equal `conditions`' values (every row for none), with no callback.
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``fetchRecords(_:where:orderBy:limit:offset:)``; nothing is deleted then.
    @_spi(RecordEngine)
    func deleteRecords<R: Record>(_ type: R.Type, where conditions: [String: (any Encodable)?]) throws -> Int

    /// The columns whose stored values differ between `record` and `original`, in the record's column order,
    /// without the key's and the generated ones: what ``Record/updateChanges(_:from:)`` writes.
    /// - Throws: `EncodingError`; ``RecordError/missingKey(table:column:)`` for a nil key.
    @_spi(RecordEngine)
    func changedColumns<R: Record>(of record: R, from original: R) throws -> [String]

    /// ``insertRow(of:onConflict:)`` (`.abort`), then `record` takes the values of `columns` (every column
    /// for nil) as the new row holds them: defaults, a trigger's values, generated columns; a rowid record
    /// whose id was nil takes its row's id.
    /// - Returns: the row's rowid, as ``insertRow(of:onConflict:)`` returns it.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column the table does not have,
    ///   before anything is written; as ``insertRow(of:onConflict:)``; `DecodingError` for a value read back
    ///   that the record cannot hold (the row stays written, the record as it came).
    @_spi(RecordEngine)
    func insertRowAndFetch<R: Record>(of record: inout R, columns: [String]?) throws -> Int64

    /// ``updateRow(of:columns:)`` of every column, then `record` takes the values of `columns` (every column
    /// for nil) as the row holds them.
    /// - Throws: as ``insertRowAndFetch(of:columns:)`` and ``updateRow(of:columns:)``.
    @_spi(RecordEngine)
    func updateRowAndFetch<R: Record>(of record: inout R, columns: [String]?) throws

    /// ``upsertRow(of:onConflict:updating:)``, then `record` takes the values of `returnedColumns` (every
    /// column for nil) as the row holds them afterwards, the row found by its key (a rowid record first takes
    /// the rowid the upsert answered).
    /// - Throws: as ``insertRowAndFetch(of:columns:)`` and ``upsertRow(of:onConflict:updating:)``.
    @_spi(RecordEngine)
    func upsertRowAndFetch<R: Record>(
        of record: inout R, onConflict conflictColumns: [String]?, updating columns: [String]?,
        returning returnedColumns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?)

    /// Inserts every record's row, in order, in the caller's transaction, with no callback: the engine's batch
    /// (SQLite: the prepared INSERT run once a record; PostgreSQL: one pipelined batch, one round trip).
    /// - Returns: each row's rowid, as ``insertRow(of:onConflict:)`` returns it.
    /// - Throws: as ``insertRow(of:onConflict:)``, for the first record whose row fails, the engine's error
    ///   giving that record's index in `records` as its `batchIndex`; `CancellationError` when the task was
    ///   cancelled.
    @_spi(RecordEngine)
    func insertRows<R: Record>(of records: [R]) throws -> [Int64]

    /// What `save(_:children:)` sets each child's foreign key with: a function that returns the child with
    /// its `foreignKeys` columns set to `parent`'s values of `parentKeys` (pair by pair), encoded and read
    /// back as the engine stores them, so that the values reach the properties as a fetch would put them.
    /// - Parameter association: how the link reads, for errors.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when `parent` encodes no such key
    ///   column (or, from the function, the child no such foreign key column); `EncodingError`.
    @_spi(RecordEngine)
    func foreignKeySetter<Parent: Record, Child: Record>(
        _ childType: Child.Type, setting foreignKeys: [String], to parentKeys: [String], of parent: Parent,
        association: String
    ) throws -> (Child) throws -> Child

    /// The records `request` selects, compiled in this engine's dialect, its columns checked against the table
    /// before anything runs.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)``,
    ///   ``RecordError/invalidQueryValue(table:column:type:reason:)``, ``RecordError/invalidQuery(table:reason:)``
    ///   before anything runs; the engine's error; `DecodingError` naming the column whose value does not fit.
    @_spi(RecordEngine)
    func fetchRecords<Base: Record>(_ request: QueryInterfaceRequest<Base>) throws -> [Base]

    /// The selected columns of every row `request` selects decoded as `type`; with `first`, the first row
    /// alone (none for a single NULL value).
    /// - Throws: as ``fetchRecords(_:)``.
    @_spi(RecordEngine)
    func fetchValues<Base: Record, T: Decodable>(_ request: QueryInterfaceRequest<Base>, as type: T.Type, first: Bool)
        throws -> [T]

    /// The number of rows `request` selects, or (`exists`) 1 when it selects any and 0 when none.
    /// - Throws: as ``fetchRecords(_:)``, except decoding.
    @_spi(RecordEngine)
    func countRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, exists: Bool) throws -> Int

    /// Deletes the rows `request` selects (`assignments` nil), or sets `assignments` in them, with no callback.
    /// - Returns: how many rows were deleted or updated.
    /// - Throws: as ``fetchRecords(_:)``; ``RecordError/invalidQuery(table:reason:)`` for a grouped request;
    ///   the engine's error for a constraint. Nothing is written then.
    @_spi(RecordEngine)
    func writeRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, assignments: [ColumnAssignment]?) throws -> Int

    /// The records `request` selects, each with its joined record (nil only for an optional association
    /// that has none), in one query that joins the other table.
    /// - Throws: ``RecordError/missingParent(table:column:value:parentTable:)`` for a required parent that no
    ///   row holds; ``RecordError/invalidAssociation(association:reason:)`` or
    ///   ``RecordError/unknownColumn(table:column:columns:)`` when a table lacks the foreign key or key
    ///   column; as ``fetchRecords(_:)``.
    @_spi(RecordEngine)
    func fetchJoinedPairs<Base: Record, Associated: Record>(_ request: JoinedRequest<Base, Associated>) throws
        -> [(Base, Associated?)]

    /// The parents `request` selects with their children by its association, in two queries.
    /// - Throws: as ``fetchJoinedPairs(_:)``.
    @_spi(RecordEngine)
    func fetchGroups<Base: Record, Child: Record>(_ request: IncludingAllRequest<Base, Child>) throws
        -> [(Base, [Child])]

    /// The parents `request` selects with the children of every association it includes, each as a value of
    /// `type`: one more query per association.
    /// - Throws: as ``fetchJoinedPairs(_:)``; ``RecordError/invalidAssociation(association:reason:)`` when two
    ///   associations have one key or `type`'s keys are not the ones the request provides.
    @_spi(RecordEngine)
    func fetchNested<Base: Record, Child: Record, T: Decodable>(
        _ request: IncludingAllRequest<Base, Child>, as type: T.Type
    ) throws -> [T]

    /// Compares `type` with its table and throws one error listing every mismatch: what
    /// ``Record/validateSchema(in:)`` runs.
    /// - Throws: `SchemaValidationError`; `SchemaProbeError`; the engine's error reading its catalog.
    @_spi(RecordEngine)
    func validateTable<R: Record>(of type: R.Type) throws

    /// Reads every row of `type`'s table as its fetches read them, through `init(row:)` and through
    /// `init(from:)`: what ``FetchableRecord/checkRowInitializer(_:)`` runs.
    /// - Returns: the number of rows checked.
    /// - Throws: ``RowInitializerMismatch`` at the first row read differently; the engine's error for SQL
    ///   it rejects.
    @_spi(RecordEngine)
    func checkRowInitializer<R: Record & FetchableRecord & Equatable>(of type: R.Type) throws -> Int

    /// Runs `body` in a write transaction, or in a savepoint inside the caller's: committed (released)
    /// when it returns, rolled back when it throws.
    /// - Throws: what `body` throws; the engine's error from BEGIN, COMMIT or SAVEPOINT.
    @_spi(RecordEngine)
    func inWriteTransaction<T>(_ body: () throws -> T) throws -> T

    // MARK: Schema

    /// Runs `sql`, one statement or several separated by semicolons, with no arguments: a migration's DDL,
    /// written once for both engines (`try db.execute(sql: "CREATE INDEX ...")`).
    /// - Throws: the engine's error naming the statement: SQLite's ``DatabaseError``, PostgreSQL's
    ///   `PostgresError` (with its SQLSTATE).
    func execute(sql: String) throws

    /// Creates `type`'s table, as ``Record/createTable(in:ifNotExists:)`` documents, in this engine's types.
    /// - Throws: as ``Record/createTable(in:ifNotExists:)``.
    @_spi(RecordEngine)
    func createTable<R: Record>(for type: R.Type, ifNotExists: Bool) throws

    /// Creates `type`'s full-text index in this engine's form (SQLite: an FTS5 table and its triggers;
    /// PostgreSQL: a generated `tsvector` column and its GIN index).
    /// - Throws: as ``FullTextSearchable/createFullTextIndex(in:)``.
    @_spi(RecordEngine)
    func createFullTextIndex<T: FullTextSearchable>(for type: T.Type) throws

    /// Drops what ``createFullTextIndex(for:)`` created; the table's rows stay.
    /// - Throws: the engine's error.
    @_spi(RecordEngine)
    func dropFullTextIndex<T: FullTextSearchable>(for type: T.Type) throws

    /// The rows `request` selects with an excerpt of each, ranked as the engine ranks matches.
    /// - Throws: as ``QueryInterfaceRequest/fetchMatches(_:excerpt:)``.
    @_spi(RecordEngine)
    func fetchFullTextMatches<Base: FullTextSearchable>(_ request: QueryInterfaceRequest<Base>, excerpt: FullTextExcerpt)
        throws -> [FullTextMatch<Base>]

    /// `type`'s schema change plan, in this engine's SQL: what ``Record/schemaChanges(in:options:)`` returns.
    /// - Throws: as ``Record/schemaChanges(in:options:)``.
    @_spi(RecordEngine)
    func schemaChanges<R: Record>(for type: R.Type, options: SchemaChangeOptions) throws -> SchemaChangePlan

    /// Applies `plan`, made on this engine: what ``SchemaChangePlan/apply(_:)`` runs.
    /// - Throws: as ``SchemaChangePlan/apply(_:)``.
    @_spi(RecordEngine)
    func applySchemaChanges(_ plan: SchemaChangePlan) throws

    /// The foreign-key mode a migration of ``DatabaseMigrator/registerSchemaChanges(_:for:options:)`` runs in:
    /// ``MigrationForeignKeyChecks/deferred`` where the engine's plan may rebuild a table (SQLite),
    /// ``MigrationForeignKeyChecks/immediate`` where it changes the table in place (PostgreSQL).
    @_spi(RecordEngine)
    static var schemaChangesForeignKeyChecks: MigrationForeignKeyChecks { get }

    // MARK: Migrations

    /// Where the database is, for messages: SQLite's file path, PostgreSQL's `host:port/dbname`.
    @_spi(RecordEngine)
    var databaseLocation: String { get }

    /// The identifiers this engine's migration ledger records, in the order applied; empty when there is no
    /// ledger yet.
    /// - Throws: the engine's error reading the ledger.
    @_spi(RecordEngine)
    func appliedMigrationIdentifiers() throws -> [String]

    /// Refuses, before anything runs, pending migrations this connection cannot run now (SQLite: one that
    /// needs foreign keys off, inside a transaction of the caller's).
    /// - Throws: ``MigrationError``.
    @_spi(RecordEngine)
    func checkPendingMigrations(_ pending: [(identifier: String, foreignKeyChecks: MigrationForeignKeyChecks)])
        throws

    /// Runs `migrate` and records `identifier` in the ledger in one transaction (a savepoint inside the
    /// caller's) that first takes the engine's write lock; skips both, returning false, when `isApplied`
    /// (called under the lock) says another process applied it meanwhile.
    /// - Throws: what `migrate` or `isApplied` throws, after the rollback; ``MigrationError`` for the
    ///   engine's own checks; the engine's error from BEGIN, COMMIT or the ledger.
    @_spi(RecordEngine)
    @discardableResult
    func applyMigration(
        _ identifier: String, foreignKeyChecks: MigrationForeignKeyChecks, isApplied: () throws -> Bool,
        migrate: () throws -> Void
    ) throws -> Bool

    /// Throws `CancellationError` when the task of the async call running on this connection was cancelled.
    /// The library's loops over records call it before each record.
    /// - Throws: `CancellationError`.
    func checkCancellation() throws
}
