/// A `Codable` model stored as one row of a table: it gains `save()`, `insert()`, `update()`, `delete()`,
/// `fetch(where:orderBy:limit:)` and parent-child saves.
///
/// Each coding key names a column (a `CodingKeys` enum with raw values renames them). The table is
/// ``tableName``, by default the type's name in lower camel case. The primary key is the property `id`, whose
/// type says which kind of key the table has (see <doc:Keys>):
///
/// - `Int64?`: the rowid, an `INTEGER PRIMARY KEY` column named ``primaryKeyColumn``: nil until the record is
///   first saved, then set from the row SQLite inserted. `save()` inserts when it is nil, updates otherwise.
/// - any other type the library stores as one column (`UUID`, `String`, `Int`, an enum with a raw value): a
///   key the client chooses, stored in ``primaryKeyColumn``. `save()` inserts or updates by the key
///   (an upsert), so a record made in the app is saved without knowing whether its row exists.
/// - a `Codable` struct: a composite key, one column per coding key of the struct (`PRIMARY KEY (a, b)`).
///   Declare `id` as a computed property over the record's stored key columns, so that it is not a column
///   of its own.
///
/// ```swift
/// struct Country: Record {
///     var id: Int64?
///     var name: String
///     static let tableName = "countries"
/// }
///
/// struct Currency: Record {
///     var id: String  // "EUR": a key the client chooses
///     var name: String
/// }
/// ```
///
/// Records are `Identifiable` by their key, so SwiftUI's `ForEach` takes them as they are.
///
/// Every call comes in three forms: one taking a ``DatabaseConnection`` (SQLite's ``Database`` inside
/// ``DatabaseQueue/write(_:)-3p679``, or PostgreSQL's connection, in the caller's transaction), one with no database that uses the queue set by ``RecordStore/use(_:)``, and its
/// `async` twin (for `Sendable` record types), which waits for the queue without blocking a thread of
/// Swift's cooperative pool.
public protocol Record: Codable, Identifiable where ID: Codable & Sendable {
    /// The primary key: the rowid (`Int64?`, nil until the record is inserted), a key of one column of any
    /// stored type, or a `Codable` struct of several columns. See <doc:Keys>.
    var id: ID { get set }

    /// The table that holds the records; by default the type's name in lower camel case (`CityName` is
    /// "cityName"). It is quoted wherever it appears in SQL, so any name works.
    static var tableName: String { get }

    /// The column that holds ``id`` when the key is one column: "id" by default. Set it when `CodingKeys`
    /// stores `id` under another name (`case id = "city_id"` goes with
    /// `static let primaryKeyColumn = "city_id"`). A composite key's columns are its struct's coding keys.
    static var primaryKeyColumn: String { get }

    /// True when ``createTable(in:ifNotExists:)`` should write `WITHOUT ROWID`: for tables keyed by text or
    /// several columns, which SQLite then stores in key order without a hidden rowid. False by default; a
    /// rowid key (`Int64?`) needs a rowid table. See <https://www.sqlite.org/withoutrowid.html>.
    static var withoutRowID: Bool { get }

    /// Called before every insert, update, upsert and save this record goes through (also from
    /// `save(children:)` and the batch calls), inside the transaction, with the connection the write runs on:
    /// SQLite's ``Database`` or PostgreSQL's `PostgresConnection`, so one callback serves both engines.
    /// Throw to abort the save: nothing is written, and the error is passed on. This is where validation
    /// goes. The default does nothing.
    ///
    /// ```swift
    /// func willSave(_ db: some DatabaseConnection) throws {
    ///     if name.isEmpty { throw ValidationError.emptyName }
    /// }
    /// ```
    func willSave(_ db: some DatabaseConnection) throws

    /// Called after an insert succeeded, with the new row's rowid (which `id` is also set to, for a rowid
    /// key; 0 for a row that has none: a WITHOUT ROWID table, or a PostgreSQL row whose key is not an identity
    /// column), also after an upsert that inserted. Not called by the upsert that `save()` runs for other
    /// keys. The default does nothing.
    mutating func didInsert(rowID: Int64)

    /// Called before this record's row is deleted, inside the transaction, with the connection the delete
    /// runs on (see ``willSave(_:)``). Throw to abort the delete. The default does nothing.
    func willDelete(_ db: some DatabaseConnection) throws

    /// Called after a delete statement ran for this record; `deleted` is false when no row had its id. The
    /// default does nothing.
    func didDelete(_ deleted: Bool)

    /// Called on each child before it is saved by a parent's `save(children:)`: set the child's foreign key
    /// from the parent, which is saved and has its id by then. The default does nothing: a type that lists
    /// its ``BelongsToAssociation`` to the parent in ``parentAssociations`` needs none, since the save sets
    /// the declared foreign key first (see ``save(_:children:)``); a `bind(to:)` of the type's own runs after
    /// that and has the last word.
    ///
    /// ```swift
    /// mutating func bind(to parent: any Record) {
    ///     if let country = parent as? Country { countryId = country.id }
    /// }
    /// ```
    mutating func bind(to parent: any Record)
    /// The type's ``BelongsToAssociation``s, for ``createTable(in:ifNotExists:)`` (which writes each foreign
    /// key's `REFERENCES` clause and an index on it), ``validateSchema(in:)`` (which checks them against
    /// the table's foreign keys) and a parent's ``save(_:children:)`` (which sets the foreign key of the one
    /// listed to the parent's type). Empty by default.
    ///
    /// ```swift
    /// static let country = belongsTo(Country.self, onDelete: .cascade)
    /// static let parentAssociations: [any ParentAssociation] = [country]
    /// ```
    static var parentAssociations: [any ParentAssociation] { get }

    /// The table's UNIQUE constraints, indexes, column defaults, CHECK constraints and foreign keys (with
    /// their `ON DELETE` and `ON UPDATE` actions), declared once: ``createTable(in:ifNotExists:)`` writes
    /// them and ``validateSchema(in:)`` checks them. Empty by default. See ``TableDefinition``.
    ///
    /// ```swift
    /// static let tableDefinition = TableDefinition().unique(CodingKeys.iso).index(CodingKeys.name)
    /// ```
    static var tableDefinition: TableDefinition { get }

    /// How rows are decoded into this type: strategies for dates, keys and nested JSON. The default is
    /// `RowDecoder()`; override it to read snake_case columns without a `CodingKeys` enum, say.
    ///
    /// Read once per fetch; for ``fetchOne(_:id:)``, when a connection first looks up a record of the type
    /// by key (and again after a schema change): the statement kept for those lookups keeps the decoder it
    /// was made with. Make it a constant rather than a value that changes while the program runs.
    static var rowDecoder: RowDecoder { get }

    /// How this type is encoded to columns: strategies for dates, UUIDs, keys and nested JSON. The default
    /// is `RecordEncoder()`.
    ///
    /// Read when a connection first inserts or updates a record of the type (and again after a schema
    /// change): the prepared statement that the records after it are bound into keeps the encoder it was
    /// made with. Make it a constant, as below, rather than a value that changes while the program runs.
    ///
    /// ```swift
    /// static let recordEncoder = {
    ///     var encoder = RecordEncoder()
    ///     encoder.keyEncodingStrategy = .convertToSnakeCase
    ///     return encoder
    /// }()
    /// ```
    static var recordEncoder: RecordEncoder { get }
}

extension Record {
    /// None.
    public static var parentAssociations: [any ParentAssociation] { [] }

    /// Does nothing: records without a parent need no binding.
    public mutating func bind(to parent: any Record) {}

    /// The default decoder: coding keys are column names, dates in any SQLite form.
    public static var rowDecoder: RowDecoder { RowDecoder() }

    /// The default encoder: coding keys are column names, dates as UTC text.
    public static var recordEncoder: RecordEncoder { RecordEncoder() }

    /// The type's name with its first letter lowercased: `CityName` is "cityName".
    public static var tableName: String {
        let name = String(describing: Self.self)
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    /// "id".
    public static var primaryKeyColumn: String { "id" }

    /// False: a table with a rowid.
    public static var withoutRowID: Bool { false }

    /// Does nothing.
    public func willSave(_ db: some DatabaseConnection) throws {}

    /// Does nothing.
    public mutating func didInsert(rowID: Int64) {}

    /// Does nothing.
    public func willDelete(_ db: some DatabaseConnection) throws {}

    /// Does nothing.
    public func didDelete(_ deleted: Bool) {}
}
