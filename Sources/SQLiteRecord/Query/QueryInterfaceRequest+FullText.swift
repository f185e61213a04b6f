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
        var request = self
        let index = Base.fullTextIndex
        request.fullTextSearch = FullTextSearchPart(
            table: Base.fullTextTableName, columns: index.columns, pattern: pattern.rawPattern, excerpt: nil)
        return request
    }

    /// The rows that contain every word of a user's `text`: ``matching(_:)`` with
    /// ``FTS5Pattern/init(matchingAllTokensIn:)``, so no text is an FTS5 syntax error, and text with no word
    /// matches no row.
    public func search(_ text: String) -> Self {
        matching(FTS5Pattern(matchingAllTokensIn: text))
    }
}
