/// What the Record layer supplies to compile a request: the table's names, the values as its record type
/// stores them on one engine, and that engine's ``SQLDialect``.
package protocol RequestBinding {
    /// The arguments of the engine the request runs on.
    associatedtype Arguments: RequestArguments = StatementArguments
    /// The SQL spellings the compiler writes.
    static var dialect: SQLDialect { get }

    /// The column's name in the table (a coding key through the type's key strategy).
    mutating func name(of column: Column) -> String
    /// `value` as the stored forms that count as equal to it, compared with `column` (named in errors):
    /// empty for NULL, one form, or several for a UUID.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value no column can hold.
    mutating func forms(of value: QueryValue, column: String?) throws -> [Arguments.BoundValue]
    /// How a list of more than ``RequestCompiler/jsonListThreshold`` forms, compared with `column`, is bound.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for forms no one value holds.
    mutating func longList(
        _ forms: [Arguments.BoundValue], column: String?
    ) throws -> RequestListForm<Arguments.BoundValue>
    /// How an array of a PostgreSQL subquery's filter is bound, where this binding binds it otherwise than as
    /// the text of its JSON; nil for that text.
    /// - Throws: what reading the array's column or writing the value throws.
    mutating func subqueryArrayForm(_ array: PostgresSubqueryArray) throws -> Arguments.BoundValue?
}

extension RequestBinding {
    package static var dialect: SQLDialect { .sqlite }

    package mutating func subqueryArrayForm(_ array: PostgresSubqueryArray) throws -> Arguments.BoundValue? { nil }
}

extension RequestBinding where Arguments == StatementArguments {
    package mutating func longList(_ forms: [SQLiteValue], column: String?) throws -> RequestListForm<SQLiteValue> {
        let (scalars, blobs, nulTexts) = JSONList.arrays(forms)
        return .json(scalars: scalars, blobs: blobs, nulTexts: nulTexts)
    }
}

/// How a long list is bound: as JSON arrays that SQLite's `json_each` reads, or as one array value that
/// PostgreSQL compares with `= ANY($n)`
/// (<https://www.postgresql.org/docs/current/functions-comparisons.html#FUNCTIONS-COMPARISONS-ANY-SOME>),
/// or, for a list of arrays (PostgreSQL has no array of arrays), as the slices of one array.
package enum RequestListForm<Value> {
    /// Scalars, BLOBs as hex, and text holding U+0000 as hex, as stored and with its ASCII letters lowered
    /// (nil when there is none).
    case json(scalars: String, blobs: String, nulTexts: (stored: String, folded: String)?)
    case array(Value)
    /// A list of arrays: every element of every array, in order, in one array of the arrays' type, and each
    /// array's first and last subscript in it (two `int4[]`, NULL for a NULL array), which
    /// `elements[lower:upper]` slices out again, 1-based as a saved array is
    /// (<https://www.postgresql.org/docs/current/arrays.html#ARRAYS-ACCESSING>).
    case slices(elements: Value, lowers: Value, uppers: Value)
}
