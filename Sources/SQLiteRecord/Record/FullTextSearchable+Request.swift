/// Full-text search requests start from the record type: `Note.matching(pattern)`, `Note.search("words")`.
extension FullTextSearchable {
    /// The records whose indexed columns match `pattern`, best bm25 match first, as a request to refine
    /// with filters, an order and a limit (see ``QueryInterfaceRequest/matching(_:)``).
    /// See <https://www.sqlite.org/fts5.html>.
    public static func matching(_ pattern: FTS5Pattern) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }

    /// The records that contain every word of a user's `text`, best match first: each word is matched as a
    /// word (``FTS5Pattern/init(matchingAllTokensIn:)``), so no text is an FTS5 syntax error, and text with
    /// no word matches no record. On PostgreSQL the text is read by `websearch_to_tsquery` (see
    /// ``QueryInterfaceRequest/search(_:)``).
    public static func search(_ text: String) -> QueryInterfaceRequest<Self> {
        all().search(text)
    }
}
