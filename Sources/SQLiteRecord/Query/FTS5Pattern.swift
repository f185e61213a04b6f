/// What a full-text search matches: an FTS5 query, built safely from a user's text or given raw.
/// See <https://www.sqlite.org/fts5.html#full_text_query_syntax>.
///
/// The initializers that read user text quote each word as an FTS5 string, so that nothing a user types
/// is FTS5 syntax: `"`, `-`, `*`, `:`, `^`, `(`, `NEAR`, `AND`, `OR` and `NOT` are matched as text (or,
/// being no letter or digit, as nothing), never a syntax error. Text with no word matches no row.
///
/// ```swift
/// FTS5Pattern(matchingAllTokensIn: "São Paulo AND").rawPattern    // "São" "Paulo" "AND"
/// FTS5Pattern(matchingAnyTokenIn: "lyon nantes").rawPattern       // "lyon" OR "nantes"
/// FTS5Pattern(matchingAllPrefixesIn: "sao pau").rawPattern        // "sao"* "pau"*
/// ```
///
/// The names follow GRDB's `FTS3Pattern` and `FTS5Pattern`.
public struct FTS5Pattern: Sendable, Hashable {
    /// The FTS5 query, as bound to `MATCH`.
    public let rawPattern: String

    /// A pattern in FTS5's own query syntax, for those who want its operators (`NEAR`, `OR`, column
    /// filters, prefixes). Nothing is checked here: a syntax error is thrown by SQLite (a ``DatabaseError``:
    /// `fts5: syntax error near ...`, `unterminated string`) when a request that uses the pattern runs.
    public init(rawPattern: String) {
        self.rawPattern = rawPattern
    }

    /// Rows that contain every word of `text`, in any order and column (FTS5's implicit AND).
    public init(matchingAllTokensIn text: String) {
        self.init(words: text, separator: " ", suffix: "")
    }

    /// Rows that contain at least one word of `text` (FTS5's OR).
    public init(matchingAnyTokenIn text: String) {
        self.init(words: text, separator: " OR ", suffix: "")
    }

    /// Rows with a token that starts with each word of `text`: for search as one types (FTS5's prefix
    /// queries, `"word"*`).
    public init(matchingAllPrefixesIn text: String) {
        self.init(words: text, separator: " ", suffix: "*")
    }

    /// Each word of `text` (a run of characters between white space that holds a letter or a digit) as an
    /// FTS5 string, its `"` doubled, then `suffix`, joined by `separator`; `""` (an empty phrase, which
    /// matches nothing) when there is no word. Words with no letter or digit are left out: the tokenizer
    /// would make nothing of them, and an empty phrase ORed with others matches nothing.
    private init(words text: String, separator: String, suffix: String) {
        var phrases: [String] = []
        for word in text.split(whereSeparator: { $0.isWhitespace })
        where word.contains(where: { $0.isLetter || $0.isNumber }) {
            var phrase = "\""
            for character in word {
                phrase.append(character)
                if character == "\"" { phrase.append("\"") }
            }
            phrases.append(phrase + "\"" + suffix)
        }
        rawPattern = phrases.isEmpty ? "\"\"" : phrases.joined(separator: separator)
    }
}
