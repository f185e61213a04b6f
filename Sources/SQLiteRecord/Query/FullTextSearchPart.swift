/// The full-text search of a request: which FTS5 table, which pattern, and the excerpt to read.
struct FullTextSearchPart: Sendable {
    /// The FTS5 table; on PostgreSQL, the `tsvector` column of the record's table.
    var table: String
    /// The FTS5 table's columns, in order: an excerpt names one by its position.
    var columns: [String]
    /// What is searched: a user's text (``FullTextSearchable/search(_:)``), made into each engine's query
    /// only when the request is compiled for it, or a pattern.
    var query: Query
    /// The index's tokenizer, whose PostgreSQL text search configuration a PostgreSQL search names.
    var tokenizer: FullTextTokenizer
    /// The excerpt selected beside the rows (set by `fetchMatches`).
    var excerpt: FullTextExcerpt?

    /// The alias of the search subquery, and of its columns: unusual names, so that they never collide
    /// with a column of the record's table in the request's unqualified filters and orderings.
    static let alias = "sqliterecord_search"
    static let rowIDColumn = "sqliterecord_rowid"
    static let rankColumn = "sqliterecord_rank"
    static let excerptColumn = "sqliterecord_excerpt"

    enum Query: Sendable {
        case text(String)
        case pattern(FTS5Pattern)
    }

    /// The FTS5 query bound to `MATCH`.
    var pattern: String {
        switch query {
        case .text(let text): return FTS5Pattern(matchingAllTokensIn: text).rawPattern
        case .pattern(let pattern): return pattern.rawPattern
        }
    }

    /// The same search on PostgreSQL; nil for a raw FTS5 pattern, which has no PostgreSQL form.
    var postgresQuery: PostgresTextQuery? {
        switch query {
        case .text(let text): return .webSearch(FTS5Pattern.boundedSearchText(text))
        case .pattern(let pattern): return pattern.tsquery.map(PostgresTextQuery.tsquery)
        }
    }
}

/// A search as PostgreSQL reads it: text bound to `websearch_to_tsquery` (``FullTextSearchable/search(_:)``)
/// or to `to_tsquery` (the lexemes an ``FTS5Pattern`` initializer quoted).
/// See <https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-PARSING-QUERIES>.
enum PostgresTextQuery: Sendable, Hashable {
    case webSearch(String)
    case tsquery(String)

    /// The function that reads the bound text.
    var function: String {
        switch self {
        case .webSearch: return "websearch_to_tsquery"
        case .tsquery: return "to_tsquery"
        }
    }

    /// The bound text.
    var text: String {
        switch self {
        case .webSearch(let text), .tsquery(let text): return text
        }
    }
}
