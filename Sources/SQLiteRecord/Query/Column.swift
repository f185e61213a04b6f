/// A column of a record's table, named by a coding key of the record type or by a string.
///
/// A column named by a coding key goes through the record type's key strategy
/// (``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase`` turns `countryCode` into `country_code`), so it
/// names the column `save()` writes; a misspelled key does not compile. A column named by a string is taken
/// as it is. Either way the name is checked against the table's columns before anything runs (an unknown
/// column throws ``RecordError/unknownColumn(table:column:columns:)``) and quoted by ``SQLIdentifier``.
///
/// ```swift
/// let big = try City.filter(Column(City.CodingKeys.population) > 1_000_000).fetch(db)
/// let same = try City.filter(Column("population") > 1_000_000).fetch(db)
/// ```
public struct Column: Sendable, ColumnExpression {
    /// The name as given: the coding key's string value, or the string.
    public let name: String
    /// True when ``name`` is a coding key's string value, which the record type's key strategy converts.
    package let isCodingKey: Bool

    /// The column called `name`, exactly (no key strategy applies).
    public init(_ name: String) {
        self.name = name
        isCodingKey = false
    }

    /// The column a record type stores the property of coding key `key` in: its string value, through the
    /// record type's key encoding strategy.
    public init<Key: CodingKey>(_ key: Key) {
        name = key.stringValue
        isCodingKey = true
    }

    /// The column itself.
    public var column: Column { self }
}

/// Something that names one column: ``Column``, or a record's `CodingKeys` enum declared with this
/// protocol, whose cases then read as columns in requests.
///
/// ```swift
/// struct City: Record {
///     var id: Int64?
///     var name: String
///     var population: Int
///     enum CodingKeys: String, CodingKey, ColumnExpression {
///         case id, name, population
///     }
/// }
/// let big = try City.filter(City.CodingKeys.population > 1_000_000).fetch(db)
/// ```
public protocol ColumnExpression: SQLExpressible {
    /// The column named.
    var column: Column { get }
}

extension ColumnExpression where Self: CodingKey {
    /// The column of this coding key (see ``Column/init(_:)-9ppdy``).
    public var column: Column { Column(self) }
}

extension ColumnExpression {
    /// The column as an expression.
    public var sqlExpression: SQLExpression { SQLExpression(.column(column)) }
}
