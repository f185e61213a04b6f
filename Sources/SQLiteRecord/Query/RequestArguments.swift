/// The arguments a ``RequestCompiler`` binds, in the order their parameters appear: SQLite's
/// ``StatementArguments``, or PostgreSQL's values in the `PostgresRecord` module. The compiler writes the
/// SQL; the argument list says how the values it adds itself (limits, the arguments of SQL fragments, long
/// lists) are bound on its engine.
package protocol RequestArguments {
    /// One bound value.
    associatedtype BoundValue

    /// No values.
    static var empty: Self { get }

    /// SQL NULL.
    static var null: BoundValue { get }

    /// How many values are bound so far: the next parameter is `count + 1`.
    var count: Int { get }

    mutating func reserveCapacity(_ count: Int)

    mutating func append(_ value: BoundValue)

    mutating func append(contentsOf values: [BoundValue])

    /// A value the compiler writes itself: an FTS5 pattern, an excerpt's markers, a JSON array.
    mutating func append(sqlite value: SQLiteValue)

    /// The number of rows of `LIMIT`, or the rows `OFFSET` skips; nil or negative: no limit.
    mutating func append(limit: Int?)

    /// Every value of `other`, after these (the arguments of a join's ON clause).
    mutating func append(arguments other: Self)

    /// The arguments of SQL of the caller's own (``SQLExpression/init(sql:arguments:)``).
    mutating func append(literal arguments: StatementArguments)
}

extension StatementArguments: RequestArguments {
    package static var empty: StatementArguments { StatementArguments() }

    package static var null: SQLiteValue { .null }

    package var count: Int { values.count }

    package mutating func reserveCapacity(_ count: Int) { values.reserveCapacity(count) }

    package mutating func append(_ value: SQLiteValue) { values.append(value) }

    package mutating func append(contentsOf values: [SQLiteValue]) { self.values += values }

    package mutating func append(sqlite value: SQLiteValue) { values.append(value) }

    /// SQLite reads a negative LIMIT as none: <https://www.sqlite.org/lang_select.html#limitoffset>.
    package mutating func append(limit: Int?) { values.append(.integer(Int64(limit ?? -1))) }

    package mutating func append(arguments other: StatementArguments) { values += other.values }

    package mutating func append(literal arguments: StatementArguments) {
        values += arguments.values
        for (name, value) in arguments.namedValues { namedValues[name] = value }
        if conversionFailure == nil { conversionFailure = arguments.conversionFailure }
    }
}
