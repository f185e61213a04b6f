/// Where search text may sit in the text it matches, and the expression that matches it as Swift's
/// `hasPrefix`, `contains` and `hasSuffix` would on the stored text, ASCII letters in either case.
///
/// SQLite's LIKE reads its pattern and the text it tests as C strings: both end at the first U+0000
/// (<https://www.sqlite.org/c3ref/value_blob.html>), so `LIKE '%\u{0}zzz%'` is `LIKE '%'` and matches every
/// row, and `'ab\u{0}cd' LIKE '%cd'` is false. LIKE also refuses a pattern longer than
/// `SQLITE_LIMIT_LIKE_PATTERN_LENGTH` (50,000 bytes by default: "LIKE or GLOB pattern too complex",
/// <https://www.sqlite.org/limits.html#max_like_pattern_length>). And a LIKE that starts with `%` tries its
/// text at each place in the stored text, character by character: up to the product of both lengths per row
/// (a `contains` of 49,980 "a"s and a "b" over one row of 60,000 "a"s: 3.4 s of CPU in the `sqlite3` shell),
/// where `instr` compares with `memcmp` (0.02 s). So each matcher takes one of two forms:
/// - search text with no U+0000 and a pattern within ``likePatternLimit`` for a prefix, or within
///   ``likeScanLimit`` for `contains` and `hasSuffix`: LIKE, which an index can serve for a prefix
///   (<https://www.sqlite.org/optoverview.html#like_opt>), and, for `contains` and `hasSuffix`, a second
///   test on the rows whose stored text holds a U+0000 (`instr(e, char(0)) > 0`);
/// - any other search text: `instr`, `lower` and `hex`, which read the whole value. `lower` folds the ASCII
///   letters only, as LIKE does (this SQLite has no ICU extension), so both forms match the same rows.
///
/// On 234,908 GeoNames names (`sqlite3` shell, `.timer on`, the figures in the Queries article), the guarded
/// `contains` scans in 1.2 times LIKE's time and the guarded `hasSuffix` in 1.5 times; the `instr` forms take
/// 2 to 4 times, and a prefix under `instr` is a scan where LIKE is an index search.
package enum SearchTextMatch: UInt8, Sendable {
    case prefix, contains, suffix

    /// The longest LIKE pattern, in UTF-8 bytes, a matcher writes: SQLite's default
    /// `SQLITE_LIMIT_LIKE_PATTERN_LENGTH`. Longer search text is matched with `instr` instead.
    static let likePatternLimit = 50_000

    /// The longest LIKE pattern, in UTF-8 bytes, a `contains` or `hasSuffix` writes: a LIKE's cost per row can
    /// grow to this many times a scan of the row, so longer search text takes the `instr` and `hex` forms
    /// (`instr` compares with `memcmp`, `hex` reads the row once). A prefix is compared at one place only, and
    /// keeps LIKE (and the index) up to ``likePatternLimit``.
    static let likeScanLimit = 64

    /// `text` as a LIKE pattern with `\` as its escape character, matching `text` literally.
    package func pattern(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 2)
        if self != .prefix { escaped.append("%") }
        for character in text.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        if self != .suffix { escaped.append("%") }
        return escaped
    }

    /// The condition that `operand` matches `text` this way. With `caseFolded`, the condition that
    /// `sqliterecord_casefold(operand)` matches `text`, which the caller has case-folded: the stored text's
    /// U+0000 test reads `operand` itself (folding neither adds nor removes one), so a row pays for the
    /// folding once unless its text holds U+0000.
    func condition(_ operand: ExpressionNode, _ text: String, caseFolded: Bool = false) -> ExpressionNode {
        let matched = caseFolded ? ExpressionNode.function(.caseFold, [operand], distinct: false) : operand
        let like = ExpressionNode.like(matched, .value(.searchText(text, self)), escaped: true, negated: false)
        let hasNUL = text.utf8.contains(0)
        // An empty text matches any text, NUL or not: `LIKE '%'` says so, and the forms below would not.
        if text.isEmpty { return like }
        let limit = self == .prefix ? Self.likePatternLimit : Self.likeScanLimit
        if !hasNUL && pattern(text).utf8.count <= limit {
            switch self {
            case .prefix:
                // Exact as it is: text with no U+0000 starts the stored value only before its first one.
                return like
            case .contains:
                // LIKE's answer on the text before the first U+0000 is right when true; else look at the rest.
                return .binary(.or, like, .binary(.and, Self.holdsNUL(operand), Self.instr(matched, text, ">")))
            case .suffix:
                return .binary(
                    .or, .binary(.and, like, .binary(.equal, Self.nulPosition(operand), Self.integer(0))),
                    .binary(.and, Self.holdsNUL(operand), Self.hexSuffix(matched, text)))
            }
        }
        switch self {
        case .prefix: return Self.instr(matched, text, "=")
        case .contains: return Self.instr(matched, text, ">")
        case .suffix: return Self.hexSuffix(matched, text)
        }
    }

    /// `instr(lower(e), lower(?)) = 1` (`=`: the first match starts the value) or `> 0` (`>`: any match).
    private static func instr(_ operand: ExpressionNode, _ text: String, _ comparison: Character) -> ExpressionNode {
        let position = ExpressionNode.function(
            .instr, [lowered(operand), lowered(.value(.forms([.text(text)])))], distinct: false)
        return comparison == "="
            ? .binary(.equal, position, integer(1)) : .binary(.greater, position, integer(0))
    }

    /// `substr(hex(lower(e)), ?) = hex(lower(?))`, the last 2n hex digits for n bytes of `text`: `hex` reads
    /// the whole value, and its digits hold no U+0000 for `substr` to stop at.
    private static func hexSuffix(_ operand: ExpressionNode, _ text: String) -> ExpressionNode {
        let digits = ExpressionNode.function(.hex, [lowered(operand)], distinct: false)
        let tail = ExpressionNode.function(.substr, [digits, integer(-2 * text.utf8.count)], distinct: false)
        return .binary(
            .equal, tail, .function(.hex, [lowered(.value(.forms([.text(text)])))], distinct: false))
    }

    /// `instr(e, ?) > 0` with a U+0000 bound: the stored text holds one.
    private static func holdsNUL(_ operand: ExpressionNode) -> ExpressionNode {
        .binary(.greater, nulPosition(operand), integer(0))
    }

    private static func nulPosition(_ operand: ExpressionNode) -> ExpressionNode {
        .function(.instr, [operand, .value(.forms([.text("\u{0}")]))], distinct: false)
    }

    private static func lowered(_ node: ExpressionNode) -> ExpressionNode {
        .function(.lower, [node], distinct: false)
    }

    private static func integer(_ value: Int) -> ExpressionNode {
        .value(.forms([.integer(Int64(value))]))
    }
}
