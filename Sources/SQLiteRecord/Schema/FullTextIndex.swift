/// A record type's full-text index: an FTS5 table over chosen text columns of the record's table, with
/// the table as its external content, kept in step with it by triggers.
/// See <https://www.sqlite.org/fts5.html#external_content_tables>.
///
/// ```swift
/// struct Note: Record, FullTextSearchable {
///     var id: Int64?
///     var title: String
///     var body: String
///     static let fullTextIndex = FullTextIndex(columns: ["title", "body"])
/// }
/// ```
///
/// The index stores only the tokens: the text stays in the record's table, and FTS5 reads it from there
/// (by rowid) for highlights and snippets. The table must therefore be a rowid table (not `WITHOUT ROWID`).
public struct FullTextIndex: Sendable, Hashable {
    /// The indexed columns of the record's table, in order: their names in the table, as coding keys map
    /// them.
    public var columns: [String]
    /// How text is split into tokens; ``FullTextTokenizer/unicode61(removeDiacritics:)`` by default.
    public var tokenizer: FullTextTokenizer
    /// The FTS5 table's name; nil for the record table's name followed by `_fts` (`notes_fts`).
    public var name: String?

    /// An index over `columns` of the record's table.
    /// - Parameters:
    ///   - columns: the indexed columns, as named in the table.
    ///   - tokenizer: how text is split into tokens (default: `unicode61 remove_diacritics 2`).
    ///   - name: the FTS5 table's name; nil for `<table>_fts`.
    public init(columns: [String], tokenizer: FullTextTokenizer = .unicode61(), name: String? = nil) {
        self.columns = columns
        self.tokenizer = tokenizer
        self.name = name
    }

    /// The FTS5 table's name for a record table named `table`.
    func tableName(for table: String) -> String { name ?? table + "_fts" }
}
