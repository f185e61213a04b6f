/// The tokenizer of a full-text index: how FTS5 splits text into the tokens a search matches, written into
/// the index's `tokenize` option. See <https://www.sqlite.org/fts5.html#tokenizers>.
///
/// The default, ``unicode61(removeDiacritics:)`` with diacritics removed, folds case and accents: "sao
/// paulo" finds "São Paulo". ``porter(removeDiacritics:)`` adds English stemming: "running" finds "runs".
public struct FullTextTokenizer: Sendable, Hashable {
    /// The text of FTS5's `tokenize` option, such as `unicode61 remove_diacritics 2`.
    public let arguments: String

    /// A tokenizer given by the text of FTS5's `tokenize` option, for tokenizers and options this type does
    /// not name (`"trigram"`, `"unicode61 tokenchars '-_'"`). It is written into the index's declaration as
    /// an SQL string; a tokenizer SQLite does not know fails when the index is created.
    public init(arguments: String) {
        self.arguments = arguments
    }

    /// FTS5's `unicode61` tokenizer: words are runs of Unicode letters and digits, folded to lower case.
    /// With `removeDiacritics` (the default), accents are removed too (`remove_diacritics 2`), so that
    /// "Bogota" finds "Bogotá". See <https://www.sqlite.org/fts5.html#unicode61_tokenizer>.
    public static func unicode61(removeDiacritics: Bool = true) -> Self {
        Self(arguments: removeDiacritics ? "unicode61 remove_diacritics 2" : "unicode61 remove_diacritics 0")
    }

    /// FTS5's `porter` stemmer over `unicode61`: English words match their other forms ("connection" finds
    /// "connected"). See <https://www.sqlite.org/fts5.html#porter_tokenizer>.
    public static func porter(removeDiacritics: Bool = true) -> Self {
        Self(arguments: "porter " + unicode61(removeDiacritics: removeDiacritics).arguments)
    }

    /// FTS5's `ascii` tokenizer: only ASCII letters are folded; other characters are part of words.
    /// See <https://www.sqlite.org/fts5.html#ascii_tokenizer>.
    public static var ascii: Self { Self(arguments: "ascii") }

    /// The PostgreSQL text search configuration that splits and folds text as this tokenizer does, for the
    /// `PostgresRecord` module: `unicode61` with diacritics removed is `postgresrecord_unaccent` (the
    /// `unaccent` dictionary, then `simple`), without `simple`; `porter` is `postgresrecord_unaccent_english`
    /// (`unaccent`, then `english_stem`) or `english`. Nil for the tokenizers with no PostgreSQL twin
    /// (`ascii`, `trigram`, options of your own). See
    /// <https://www.postgresql.org/docs/current/textsearch-configuration.html>.
    package var postgresConfiguration: String? {
        // The texts of ``unicode61(removeDiacritics:)`` and ``porter(removeDiacritics:)``.
        switch arguments {
        case "unicode61 remove_diacritics 2": return "postgresrecord_unaccent"
        case "unicode61 remove_diacritics 0": return "simple"
        case "porter unicode61 remove_diacritics 2": return "postgresrecord_unaccent_english"
        case "porter unicode61 remove_diacritics 0": return "english"
        default: return nil
        }
    }
}
