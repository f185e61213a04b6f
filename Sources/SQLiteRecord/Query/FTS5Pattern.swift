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

    /// The most words a pattern built from user text keeps: the first this many distinct words (compared
    /// in lower case, as FTS5's tokenizers fold case); later ones are left out. FTS5 reads and ranks every
    /// phrase of a query, so text that repeats one word 100,000 times would hold the connection for minutes;
    /// on a 234,908-name index (FTS5, unicode61), 1,000 repeats of one word took 17 s, and 16 common words
    /// ORed take 3 times two ORed (69 ms, 23 ms).
    public static let maximumWordCount = 16

    /// The most characters of one word a pattern built from user text keeps: a longer word is cut to its
    /// first this many characters and matched as a prefix (`"first64…"*`), so that it still finds the long
    /// token it starts, while a word of punctuated letters (`a.b.c...`, a phrase of one token per letter)
    /// stays small.
    public static let maximumWordLength = 64

    /// Each word of `text` (a run of characters between white space or U+0000 that holds a letter or a
    /// digit) as an FTS5 string, its `"` doubled, then `suffix`, joined by `separator`; `""` (an empty
    /// phrase, which matches nothing) when there is no word. Words with no letter or digit are left out: the
    /// tokenizer would make nothing of them, and an empty phrase ORed with others matches nothing. U+0000
    /// separates words: SQLite reads the pattern as a C string, and would end it there
    /// ("unterminated string"). At most ``maximumWordCount`` distinct words of at most
    /// ``maximumWordLength`` characters are kept.
    private init(words text: String, separator: String, suffix: String) {
        var phrases: [String] = []
        var seen: Set<String> = []
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.unicodeScalars.contains("\u{0}") })
        for word in words where word.contains(where: { $0.isLetter || $0.isNumber }) {
            guard phrases.count < Self.maximumWordCount else { break }
            let isCut = word.count > Self.maximumWordLength
            let kept = isCut ? word.prefix(Self.maximumWordLength) : word[...]
            guard seen.insert(kept.lowercased() + (isCut ? "*" : "")).inserted else { continue }
            var phrase = "\""
            for character in kept {
                phrase.append(character)
                if character == "\"" { phrase.append("\"") }
            }
            phrases.append(phrase + "\"" + (isCut ? "*" : suffix))
        }
        rawPattern = phrases.isEmpty ? "\"\"" : phrases.joined(separator: separator)
    }
}
