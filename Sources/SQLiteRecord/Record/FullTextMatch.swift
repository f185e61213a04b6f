/// A record a full-text search found, with an excerpt of one of its columns: the text with the matched
/// words marked (``FullTextExcerpt``).
public struct FullTextMatch<Base: Record> {
    /// The record.
    public var record: Base
    /// The excerpt: the highlighted column, or a snippet of it; empty when the column is NULL.
    public var excerpt: String

    /// A match of `record` with `excerpt`, for the engines' modules.
    package init(record: Base, excerpt: String) {
        self.record = record
        self.excerpt = excerpt
    }
}

extension FullTextMatch: Sendable where Base: Sendable {}
extension FullTextMatch: Equatable where Base: Equatable {}
