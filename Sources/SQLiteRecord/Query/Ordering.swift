/// One term of an ORDER BY clause: a column and a direction.
///
/// Columns are checked against the table's real columns before the query runs, then quoted; an unknown
/// column is a thrown error. `fetch(orderBy: [.descending("population"), .ascending("name")])`.
public enum Ordering: Sendable, Hashable {
    /// `"column" ASC`: smallest first; NULLs first, as SQLite sorts them.
    case ascending(String)
    /// `"column" DESC`: largest first; NULLs last.
    case descending(String)

    /// The column sorted on.
    public var column: String {
        switch self {
        case .ascending(let column), .descending(let column): return column
        }
    }

    /// The term as SQL: `"population" DESC` (the same in every ``SQLDialect``).
    package var sql: String {
        switch self {
        case .ascending(let column): return SQLIdentifier.quoted(column) + " ASC"
        case .descending(let column): return SQLIdentifier.quoted(column) + " DESC"
        }
    }
}
