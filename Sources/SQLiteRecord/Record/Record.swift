/// A `Codable` model stored as one row of a table: it gains `save()`, `insert()`, `update()`, `delete()`,
/// `fetch(where:orderBy:limit:)` and parent-child saves.
///
/// Each coding key names a column (a `CodingKeys` enum with raw values renames them). The primary key is
/// the column `id`, an `INTEGER PRIMARY KEY` (SQLite's rowid): nil until the record is first saved.
///
/// ```swift
/// struct Country: Record {
///     var id: Int64?
///     var name: String
///     static let tableName = "countries"
/// }
/// ```
///
/// Every call comes in two forms: one taking a ``Database`` (inside ``DatabaseQueue/write(_:)``, in the
/// caller's transaction), and one with no database that uses the queue set by ``RecordStore/use(_:)``.
public protocol Record: Codable {
    /// The primary key, the column `id`: nil until the record is inserted, then its rowid.
    var id: Int64? { get set }

    /// The table that holds the records. It is quoted wherever it appears in SQL.
    static var tableName: String { get }

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

    /// The primary key column: `id`.
    static var primaryKeyColumn: String { "id" }
}

/// The library's own failures, as opposed to SQLite's (``DatabaseError``).
public enum RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An update found no row with the record's id: it was deleted, or never inserted. An update never
    /// inserts in its place.
    case recordNotFound(table: String, id: Int64)
    /// The record has no id yet, so it cannot be updated or deleted: save it first.
    case recordNotSaved(table: String)
    /// A `where:` key or `orderBy:` column is not a column of the table. Nothing ran.
    case unknownColumn(table: String, column: String, columns: [String])
    /// The record encodes no `id` column (its `CodingKeys` leave `id` out or rename it), so the library
    /// cannot find its row.
    case missingPrimaryKey(table: String)
    /// A call without a database was made before ``RecordStore/use(_:)`` set the default queue.
    case noDefaultStore

    /// A sentence for a log: what failed and where.
    public var description: String {
        switch self {
        case .recordNotFound(let table, let id):
            return "No row in table \"\(table)\" has id \(id): the record was deleted or never inserted"
        case .recordNotSaved(let table):
            return "The record for table \"\(table)\" has no id: save or insert it first"
        case .unknownColumn(let table, let column, let columns):
            return "Table \"\(table)\" has no column \"\(column)\"; its columns are: "
                + columns.map { "\"\($0)\"" }.joined(separator: ", ")
        case .missingPrimaryKey(let table):
            return "Records of table \"\(table)\" encode no \"id\" column; the primary key must be the column "
                + "\"id\" (keep `case id` in CodingKeys without a different raw value)"
        case .noDefaultStore:
            return "No default database: call RecordStore.use(_:) with a DatabaseQueue first, "
                + "or pass a Database explicitly"
        }
    }
}
