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
/// ``RecordError/unknownColumn(table:column:columns:)``.
///
/// NULLs sort as the smallest value on every engine unless `nulls:` says otherwise: first when ascending,
/// last when descending, as SQLite sorts them. On PostgreSQL, which sorts NULLs the other way by default,
/// the library writes `NULLS FIRST` or `NULLS LAST` to match, so a page is the same page on both engines.
/// `.descending("rating", nulls: .last)` is `ORDER BY "rating" DESC NULLS LAST` on both. See
/// <https://www.sqlite.org/lang_select.html#orderby> and
/// <https://www.postgresql.org/docs/current/queries-order.html>.
public struct Ordering: Sendable, Hashable {
    /// The column sorted on, as given: the string, the coding key's string value, or the ``Column``'s name.
    public let column: String
    /// True for `DESC`: largest first.
    public let isDescending: Bool
    /// Where NULLs go; nil for the library's default (as the smallest value: first ascending, last descending).
    public let nulls: SQLOrdering.NullsPosition?
    /// True when ``column`` is a coding key's string value, which the record type's key strategy converts.
    let isCodingKey: Bool

    private init(_ column: Column, isDescending: Bool, nulls: SQLOrdering.NullsPosition?) {
        self.column = column.name
        self.isCodingKey = column.isCodingKey
        self.isDescending = isDescending
        self.nulls = nulls
    }

    /// `"column" ASC`: smallest first; NULLs first unless `nulls` says otherwise.
    public static func ascending(_ column: String, nulls: SQLOrdering.NullsPosition? = nil) -> Ordering {
        Ordering(Column(column), isDescending: false, nulls: nulls)
    }

    /// `"column" DESC`: largest first; NULLs last unless `nulls` says otherwise.
    public static func descending(_ column: String, nulls: SQLOrdering.NullsPosition? = nil) -> Ordering {
        Ordering(Column(column), isDescending: true, nulls: nulls)
    }

    /// Ascending on the column of the record's coding key `key`: `.ascending(City.CodingKeys.name)`.
    public static func ascending<Key: CodingKey>(_ key: Key, nulls: SQLOrdering.NullsPosition? = nil) -> Ordering {
        Ordering(Column(key), isDescending: false, nulls: nulls)
    }

    /// Descending on the column of the record's coding key `key`: `.descending(City.CodingKeys.population)`.
    public static func descending<Key: CodingKey>(_ key: Key, nulls: SQLOrdering.NullsPosition? = nil) -> Ordering {
        Ordering(Column(key), isDescending: true, nulls: nulls)
    }

    /// Ascending on `column`: a ``Column``, or a coding key declared ``ColumnExpression``.
    @_disfavoredOverload
    public static func ascending(
        _ column: some ColumnExpression, nulls: SQLOrdering.NullsPosition? = nil
    ) -> Ordering {
        Ordering(column.column, isDescending: false, nulls: nulls)
    }

    /// Descending on `column`: a ``Column``, or a coding key declared ``ColumnExpression``.
    @_disfavoredOverload
    public static func descending(
        _ column: some ColumnExpression, nulls: SQLOrdering.NullsPosition? = nil
    ) -> Ordering {
        Ordering(column.column, isDescending: true, nulls: nulls)
    }

    /// The term as SQL, with ``column`` as given: `"population" DESC` (the same in every ``SQLDialect``).
    /// PostgresRecord writes it; it applies no key strategy, as PostgresRecord has none.
    /// `"column" ASC` or `"column" DESC`, then where NULLs go when the dialect needs to be told (see
    /// ``SQLDialect/nullsClause(descending:nulls:)``).
    package func sql(_ dialect: SQLDialect) -> String {
        SQLIdentifier.quoted(column) + (isDescending ? " DESC" : " ASC")
            + dialect.nullsClause(descending: isDescending, nulls: nulls)
    }

    /// The column as a request names it: a coding key goes through the record type's key strategy.
    var requestColumn: Column { isCodingKey ? Column(codingKeyName: column) : Column(column) }
}
