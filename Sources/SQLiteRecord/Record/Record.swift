/// A `Codable` model stored as one row of a table: it gains `save()`, `insert()`, `update()`, `delete()`,
/// `fetch(where:orderBy:limit:)` and parent-child saves.
///
/// Each coding key names a column (a `CodingKeys` enum with raw values renames them). The primary key is
/// the property `id`, stored in the column ``primaryKeyColumn`` (`id` unless the type says otherwise), an
/// `INTEGER PRIMARY KEY` (SQLite's rowid): nil until the record is first saved. The table is
/// ``tableName``, by default the type's name in lower camel case.
///
/// ```swift
/// struct Country: Record {
///     var id: Int64?
///     var name: String
///     static let tableName = "countries"
/// }
/// ```
///
/// Every call comes in three forms: one taking a ``Database`` (inside ``DatabaseQueue/write(_:)-3p679``, in the
/// caller's transaction), one with no database that uses the queue set by ``RecordStore/use(_:)``, and its
/// `async` twin (for `Sendable` record types), which waits for the queue without blocking a thread of
/// Swift's cooperative pool.
public protocol Record: Codable {
    /// The primary key: nil until the record is inserted, then its rowid. Stored in ``primaryKeyColumn``.
    var id: Int64? { get set }

    /// The table that holds the records; by default the type's name in lower camel case (`CityName` is
    /// "cityName"). It is quoted wherever it appears in SQL, so any name works.
    static var tableName: String { get }

    /// The column that holds ``id``: "id" by default. Set it when `CodingKeys` stores `id` under another
    /// name (`case id = "city_id"` goes with `static let primaryKeyColumn = "city_id"`).
    static var primaryKeyColumn: String { get }

    /// Called before every insert or update this record goes through (also from `save(children:)` and the
    /// batch calls), inside the transaction. Throw to abort the save: nothing is written, and the error is
    /// passed on. This is where validation goes. The default does nothing.
    func willSave(_ db: Database) throws

    /// Called after an insert succeeded, with the new row's rowid (which `id` is also set to). The default
    /// does nothing.
    mutating func didInsert(rowID: Int64)

    /// Called before this record's row is deleted, inside the transaction. Throw to abort the delete. The
    /// default does nothing.
    func willDelete(_ db: Database) throws

    /// Called after a delete statement ran for this record; `deleted` is false when no row had its id. The
    /// default does nothing.
    func didDelete(_ deleted: Bool)

    /// Called on each child before it is saved by a parent's `save(children:)`: set the child's foreign key
    /// from the parent, which is saved and has its id by then. The default does nothing.
    ///
    /// ```swift
    /// mutating func bind(to parent: any Record) {
    ///     if let country = parent as? Country { countryId = country.id }
    /// }
    /// ```
    mutating func bind(to parent: any Record)

    /// How rows are decoded into this type: strategies for dates, keys and nested JSON. The default is
    /// `RowDecoder()`; override it to read snake_case columns without a `CodingKeys` enum, say.
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

    /// Does nothing.
    public func willSave(_ db: Database) throws {}

    /// Does nothing.
    public mutating func didInsert(rowID: Int64) {}

    /// Does nothing.
    public func willDelete(_ db: Database) throws {}

    /// Does nothing.
    public func didDelete(_ deleted: Bool) {}
}
