/// One term of the ORDER BY of a `fetch(where:orderBy:)`: a column and a direction.
///
/// The column is named by a string, by one of the record's coding keys, or by a ``Column``:
///
/// ```swift
/// try City.fetch(db, orderBy: [.descending("population"), .ascending("name")])
/// try City.fetch(db, orderBy: [.descending(City.CodingKeys.population), .ascending(City.CodingKeys.name)])
/// try City.fetch(db, orderBy: [.descending(Column("population"))])
/// ```
///
/// A coding key names the column the record's encoder writes for it, through its key strategy
/// (``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase`` turns `countryCode` into `country_code`), as
/// ``Column/init(_:)-(Key)`` does in requests, so a misspelled property does not compile; a string or a
/// `Column("name")` is the column called `name`. Columns are checked against the table's real columns
/// before the query runs, then quoted; an unknown column is a thrown
/// ``RecordError/unknownColumn(table:column:columns:)``. Ascending puts NULLs first and descending puts them
/// last, as SQLite sorts them (PostgreSQL sorts NULLs the other way). See
/// <https://www.sqlite.org/lang_select.html#orderby>.
public struct Ordering: Sendable, Hashable {
    /// The column sorted on, as given: the string, the coding key's string value, or the ``Column``'s name.
    public let column: String
    /// True for `DESC`: largest first.
    public let isDescending: Bool
    /// True when ``column`` is a coding key's string value, which the record type's key strategy converts.
    let isCodingKey: Bool

    private init(_ column: Column, isDescending: Bool) {
        self.column = column.name
        self.isCodingKey = column.isCodingKey
        self.isDescending = isDescending
    }

    /// `"column" ASC`: smallest first; NULLs first, as SQLite sorts them.
    public static func ascending(_ column: String) -> Ordering { Ordering(Column(column), isDescending: false) }

    /// `"column" DESC`: largest first; NULLs last.
    public static func descending(_ column: String) -> Ordering { Ordering(Column(column), isDescending: true) }

    /// Ascending on the column of the record's coding key `key`: `.ascending(City.CodingKeys.name)`.
    public static func ascending<Key: CodingKey>(_ key: Key) -> Ordering { Ordering(Column(key), isDescending: false) }

    /// Descending on the column of the record's coding key `key`: `.descending(City.CodingKeys.population)`.
    public static func descending<Key: CodingKey>(_ key: Key) -> Ordering { Ordering(Column(key), isDescending: true) }

    /// Ascending on `column`: a ``Column``, or a coding key declared ``ColumnExpression``.
    @_disfavoredOverload
    public static func ascending(_ column: some ColumnExpression) -> Ordering {
        Ordering(column.column, isDescending: false)
    }

    /// Descending on `column`: a ``Column``, or a coding key declared ``ColumnExpression``.
    @_disfavoredOverload
    public static func descending(_ column: some ColumnExpression) -> Ordering {
        Ordering(column.column, isDescending: true)
    }

    /// The term as SQL, with ``column`` as given: `"population" DESC` (the same in every ``SQLDialect``).
    /// PostgresRecord writes it; it applies no key strategy, as PostgresRecord has none.
    package var sql: String { SQLIdentifier.quoted(column) + (isDescending ? " DESC" : " ASC") }

    /// The column as a request names it: a coding key goes through the record type's key strategy.
    var requestColumn: Column { isCodingKey ? Column(codingKeyName: column) : Column(column) }
}
