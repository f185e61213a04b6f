/// Full-text search as part of a request.
extension QueryInterfaceRequest where Base: FullTextSearchable {
    /// The rows whose indexed columns match `pattern`, ANDed with the request's filters; ranked by bm25
    /// (best first) unless the request is given an order of its own (see ``SQLExpression/fullTextRank``).
    /// A second `matching` replaces the first. See <https://www.sqlite.org/fts5.html#full_text_query_syntax>.
    ///
    /// ```swift
    /// let notes = try Note.filter(Column("archived") == false).matching(FTS5Pattern(matchingAllTokensIn: text)).limit(20).fetch(db)
    /// // SELECT "notes".* FROM "notes" JOIN (SELECT rowid AS "sqliterecord_rowid", rank AS "sqliterecord_rank"
    /// //   FROM "notes_fts" WHERE "notes_fts" MATCH ?) AS "sqliterecord_search" ON "notes".rowid = ...
    /// //   WHERE "archived" = ? ORDER BY "sqliterecord_search"."sqliterecord_rank" LIMIT ?
    /// ```
    public func matching(_ pattern: FTS5Pattern) -> Self {
        search(.pattern(pattern))
    }

    /// The rows that contain every word of a user's `text`: ``matching(_:)`` with
    /// ``FTS5Pattern/init(matchingAllTokensIn:)``, so no text is an FTS5 syntax error, and text with no word
    /// matches no row. On PostgreSQL the text is read by `websearch_to_tsquery` (its quoted phrases, `or` and
    /// `-word` are operators there; see the PostgreSQL article).
    public func search(_ text: String) -> Self {
        search(.text(text))
    }

    /// The request that selects the records with `excerpt` after their columns, for `fetchMatches`: its
    /// selection, if any, is not used.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` when the request is not a search.
    package func selectingExcerpt(_ excerpt: FullTextExcerpt) throws -> Self {
        guard var search = fullTextSearch else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "fetchMatches needs a full-text search: call matching(_:) first")
        }
        search.excerpt = excerpt
        var request = self
        request.fullTextSearch = search
        request.selection = []
        return request
    }

    private func search(_ query: FullTextSearchPart.Query) -> Self {
        var request = self
        let index = Base.fullTextIndex
        request.fullTextSearch = FullTextSearchPart(
            table: Base.fullTextTableName, columns: index.columns, query: query, tokenizer: index.tokenizer,
            excerpt: nil)
        return request
    }
}
