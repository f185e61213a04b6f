/// The full-text search of a request: which FTS5 table, which pattern, and the excerpt to read.
struct FullTextSearchPart: Sendable {
    /// The FTS5 table.
    var table: String
    /// The FTS5 table's columns, in order: an excerpt names one by its position.
    var columns: [String]
    /// The FTS5 query bound to `MATCH`.
    var pattern: String
    /// The excerpt selected beside the rows (set by `fetchMatches`).
    var excerpt: FullTextExcerpt?

    /// The alias of the search subquery, and of its columns: unusual names, so that they never collide
    /// with a column of the record's table in the request's unqualified filters and orderings.
    static let alias = "sqliterecord_search"
    static let rowIDColumn = "sqliterecord_rowid"
    static let rankColumn = "sqliterecord_rank"
    static let excerptColumn = "sqliterecord_excerpt"
}
