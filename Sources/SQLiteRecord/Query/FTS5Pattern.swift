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
///
/// On PostgreSQL (the `PostgresRecord` module), a pattern built from user text matches the same words
/// through `to_tsquery` of the same words, each quoted as a lexeme (`'sao':* & 'pau':*`); a raw pattern is
/// FTS5 syntax, which PostgreSQL does not read.
public struct FTS5Pattern: Sendable, Hashable {
    /// The FTS5 query, as bound to `MATCH`.
    public let rawPattern: String

    /// The same words as PostgreSQL `to_tsquery` text: each a quoted lexeme, with `:*` for a prefix, joined
    /// by `&` or `|`; nil for a raw pattern. Not part of the pattern's identity (``rawPattern`` is).
    package let tsquery: String?

    /// A pattern in FTS5's own query syntax, for those who want its operators (`NEAR`, `OR`, column
    /// filters, prefixes). Nothing is checked here: a syntax error is thrown by SQLite (a ``DatabaseError``:
    /// `fts5: syntax error near ...`, `unterminated string`) when a request that uses the pattern runs.
    public init(rawPattern: String) {
        self.rawPattern = rawPattern
        tsquery = nil
    }

    /// Two patterns are equal when their FTS5 queries are.
    public static func == (left: Self, right: Self) -> Bool { left.rawPattern == right.rawPattern }

    /// Hashes the FTS5 query.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawPattern) }

    /// Rows that contain every word of `text`, in any order and column (FTS5's implicit AND).
    public init(matchingAllTokensIn text: String) {
        self.init(words: text, separator: " ", suffix: "", tsqueryOperator: " & ")
    }

    /// Rows that contain at least one word of `text` (FTS5's OR).
    public init(matchingAnyTokenIn text: String) {
        self.init(words: text, separator: " OR ", suffix: "", tsqueryOperator: " | ")
    }

    /// Rows with a token that starts with each word of `text`: for search as one types (FTS5's prefix
    /// queries, `"word"*`).
    public init(matchingAllPrefixesIn text: String) {
        self.init(words: text, separator: " ", suffix: "*", tsqueryOperator: " & ")
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

    /// The most `-` in a row (white space between them or not) that the text `search(_:)` binds on PostgreSQL
    /// keeps: `websearch_to_tsquery` reads each as a NOT of the next operand, and its parser holds at most 32
    /// operators pending.
    package static let maximumNegationRun = 16

    /// Each word of `text` (a run of characters between white space or U+0000 that holds a letter or a
    /// digit) as an FTS5 string, its `"` doubled, then `suffix`, joined by `separator`; `""` (an empty
    /// phrase, which matches nothing) when there is no word. Words with no letter or digit are left out: the
    /// tokenizer would make nothing of them, and an empty phrase ORed with others matches nothing. U+0000
    /// separates words: SQLite reads the pattern as a C string, and would end it there
    /// ("unterminated string"). At most ``maximumWordCount`` distinct words of at most
    /// ``maximumWordLength`` characters are kept.
    ///
    /// The same words make the ``tsquery``: each between `'`, its `'` and `\\` doubled (to_tsquery's quoting,
    /// so that no character of it is an operator), then `:*` for a prefix, joined by `tsqueryOperator`; empty
    /// (no lexeme, which matches nothing) when there is no word. See
    /// <https://www.postgresql.org/docs/current/datatype-textsearch.html#DATATYPE-TSQUERY>.
    private init(words text: String, separator: String, suffix: String, tsqueryOperator: String) {
        var phrases: [String] = []
        var lexemes: [String] = []
        var seen: Set<String> = []
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.unicodeScalars.contains("\u{0}") })
        for word in words where word.contains(where: { $0.isLetter || $0.isNumber }) {
            guard phrases.count < Self.maximumWordCount else { break }
            let isCut = word.count > Self.maximumWordLength
            let kept = isCut ? word.prefix(Self.maximumWordLength) : word[...]
            guard seen.insert(kept.lowercased() + (isCut ? "*" : "")).inserted else { continue }
            var phrase = "\""
            var lexeme = "'"
            // Scalar by scalar: a quote followed by a combining mark (`"` and U+0FB1) is one Character that
            // is not equal to `"`, yet FTS5 and to_tsquery read its quote, which must be doubled all the same.
            for scalar in kept.unicodeScalars {
                phrase.unicodeScalars.append(scalar)
                if scalar == "\"" { phrase.unicodeScalars.append(scalar) }
                lexeme.unicodeScalars.append(scalar)
                if scalar == "'" || scalar == "\\" { lexeme.unicodeScalars.append(scalar) }
            }
            let isPrefix = isCut || suffix == "*"
            phrases.append(phrase + "\"" + (isCut ? "*" : suffix))
            lexemes.append(lexeme + (isPrefix ? "':*" : "'"))
        }
        rawPattern = phrases.isEmpty ? "\"\"" : phrases.joined(separator: separator)
        tsquery = lexemes.joined(separator: tsqueryOperator)
    }

    /// A user's `text` bounded for PostgreSQL's `websearch_to_tsquery` as the initializers bound a pattern:
    /// U+0000 (which PostgreSQL's text cannot hold) as a space, then the text up to the end of its
    /// ``maximumWordCount``th distinct word (words as the initializers split them, those with a letter or a
    /// digit, compared in lower case) or its `4 * maximumWordCount`th run of characters between white space
    /// in all (a run with no letter or digit counts too: each is an operand of no lexeme to the server, which
    /// folds them recursively, "stack depth limit exceeded" past some 20,000), each run of more than
    /// ``maximumWordLength`` characters cut there. Repeats are kept, not dropped as the initializers drop
    /// them: in web-search syntax `or` and a quoted phrase's words mean something where they stand. A run of
    /// `-` (each a NOT of the next operand, whatever white space stands between them; the server's parser
    /// holds 32 pending operators, "tsquery stack too small" past them) keeps its first
    /// ``maximumNegationRun``, and one more when the rest are odd in number, so that it negates as before.
    /// The rest of the text, quotes and operators included, is kept as it is: `websearch_to_tsquery` reads
    /// any text without a syntax error.
    package static func boundedSearchText(_ text: String) -> String {
        var bounded = ""
        var seen: Set<String> = []
        var wordCount = 0
        var word = ""
        // The `-` of the current run, and whether those past the bound were odd in number.
        var negations = 0
        var oddExcess = false
        func endWord() -> Bool {
            defer { word = "" }
            guard !word.isEmpty else { return true }
            bounded += word.count > maximumWordLength ? String(word.prefix(maximumWordLength)) : word
            if word.contains(where: { $0.isLetter || $0.isNumber }) {
                seen.insert(String(word.prefix(maximumWordLength)).lowercased())
            }
            wordCount += 1
            return seen.count < maximumWordCount && wordCount < 4 * maximumWordCount
        }
        for character in text {
            if character.isWhitespace || character.unicodeScalars.contains("\u{0}") {
                guard endWord() else { return bounded }
                bounded.append(" ")
            } else if character == "-" {
                // Only white space may stand between the dashes of a run: any other character is an operand.
                negations += 1
                if negations <= maximumNegationRun { word.append(character) } else { oddExcess.toggle() }
            } else {
                if oddExcess { word.append("-") }
                negations = 0
                oddExcess = false
                word.append(character)
            }
        }
        _ = endWord()
        return bounded
    }
}
