/// Text of one indexed column of a search's matches with the matched words marked: FTS5's `highlight` or
/// `snippet` auxiliary function, read by
/// ``QueryInterfaceRequest/fetchMatches(_:excerpt:)``. See <https://www.sqlite.org/fts5.html#the_highlight_function>.
public struct FullTextExcerpt: Sendable {
    enum Kind: Sendable {
        case highlight
        case snippet(ellipsis: String, tokens: Int)
    }

    let kind: Kind
    let column: Column
    let open: String
    let close: String

    /// The whole text of `column`, each matched word between `open` and `close` (FTS5's `highlight`).
    /// - Parameters:
    ///   - column: an indexed column.
    ///   - open: the text written before each match.
    ///   - close: the text written after each match.
    public static func highlight(_ column: Column, open: String = "[", close: String = "]") -> Self {
        Self(kind: .highlight, column: column, open: open, close: close)
    }

    /// The passage of `column` with the most matches, at most `tokens` words long (1 to 64), each matched
    /// word between `open` and `close`, with `ellipsis` where text was cut (FTS5's `snippet`).
    /// See <https://www.sqlite.org/fts5.html#the_snippet_function>.
    public static func snippet(
        _ column: Column, open: String = "[", close: String = "]", ellipsis: String = "…", tokens: Int = 16
    ) -> Self {
        Self(
            kind: .snippet(ellipsis: ellipsis, tokens: min(max(tokens, 1), 64)), column: column, open: open,
            close: close)
    }
}
