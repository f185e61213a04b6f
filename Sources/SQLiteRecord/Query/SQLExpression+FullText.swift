extension SQLExpression {
    /// The bm25 score of a full-text search's match (FTS5's `rank`): lower is better. A search request is
    /// ordered by it when it has no order of its own; name it to order by it among other terms:
    /// `Note.matching(pattern).order(SQLExpression.fullTextRank, Column("date").descending)`. Outside a
    /// search request it is an SQL error (no such column). On PostgreSQL it is minus `ts_rank`, lower again
    /// better. See <https://www.sqlite.org/fts5.html#the_bm25_function>.
    public static var fullTextRank: SQLExpression {
        SQLExpression(
            sql: SQLIdentifier.quoted(FullTextSearchPart.alias) + "."
                + SQLIdentifier.quoted(FullTextSearchPart.rankColumn))
    }
}
