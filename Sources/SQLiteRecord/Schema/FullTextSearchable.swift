/// A record type whose table has a full-text index: it can be searched by words, ranked by FTS5's bm25
/// (``FullTextSearchable/matching(_:)``), once the index exists (``FullTextSearchable/createFullTextIndex(in:)``,
/// usually through ``DatabaseMigrator/registerFullTextIndex(_:for:)``).
/// See <https://www.sqlite.org/fts5.html>.
public protocol FullTextSearchable: Record {
    /// The index: which columns, which tokenizer, which name.
    static var fullTextIndex: FullTextIndex { get }
}

extension FullTextSearchable {
    /// The name of the FTS5 table that holds the index.
    public static var fullTextTableName: String { fullTextIndex.tableName(for: tableName) }
}
