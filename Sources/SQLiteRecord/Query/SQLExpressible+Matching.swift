/// Lists, ranges, text patterns and collations.
extension SQLExpressible {
    /// `self IN (?, ?, ...)`: equal to one of `values`. A UUID matches each form it is stored in, as `==`
    /// does. An empty list matches no row (`0`, as SQLite evaluates `IN ()`); a list longer than SQLite's
    /// limit on bound values is bound as one JSON array and read back with `json_each` (see
    /// <https://www.sqlite.org/json1.html#jeach>), so any length works. It matches the rows `Array.contains`
    /// picks at any length: `json_each` ends a string at U+0000, so text holding one goes in an array of hex
    /// digits compared with `hex(self)`. Text holding U+0000 is compared whole, under NOCASE too, which
    /// SQLite's NOCASE alone does not do (it stops at U+0000): see ``collating(_:)``.
    public func `in`<Value: Encodable & Sendable>(_ values: some Sequence<Value>) -> SQLExpression {
        SQLExpression(.list(sqlExpression.node, values.map { .encodable($0) }, negated: false))
    }

    /// `self NOT IN (?, ?, ...)`: equal to none of `values`; every row when the list is empty (`1`). As
    /// with `!=`, a NULL is in no list and out of none: `NOT IN` does not match it.
    public func notIn<Value: Encodable & Sendable>(_ values: some Sequence<Value>) -> SQLExpression {
        SQLExpression(.list(sqlExpression.node, values.map { .encodable($0) }, negated: true))
    }

    /// `self BETWEEN ? AND ?`: from `lower` to `upper`, both included.
    public func between<Value: Encodable & Sendable>(_ lower: Value, and upper: Value) -> SQLExpression {
        SQLExpression(
            .between(sqlExpression.node, .value(.encodable(lower)), .value(.encodable(upper)), negated: false))
    }

    /// `self NOT BETWEEN ? AND ?`.
    public func notBetween<Value: Encodable & Sendable>(_ lower: Value, and upper: Value) -> SQLExpression {
        SQLExpression(.between(sqlExpression.node, .value(.encodable(lower)), .value(.encodable(upper)), negated: true))
    }

    /// `self LIKE ?` with `pattern` as you write it: `%` matches any text, `_` any one character, and ASCII
    /// letters match in either case. For text a user typed, use ``hasPrefix(_:)``, ``contains(_:)`` or
    /// ``hasSuffix(_:)``, which match it literally. See <https://www.sqlite.org/lang_expr.html#like>.
    ///
    /// The pattern is matched against the whole stored text, U+0000 included, where SQLite's LIKE reads a
    /// value only up to its first U+0000 (`'x\0y' LIKE 'x%y'` is false there): a pattern whose only wildcards
    /// are `%` at its end is a plain LIKE, exact as it is; any other is tested, on a row whose text holds
    /// U+0000, against the text with a character the pattern does not hold in place of each U+0000. An index
    /// that served the LIKE still serves the pattern's leading text.
    ///
    /// A pattern that holds U+0000 is refused when the request runs: SQLite's LIKE reads its pattern only up
    /// to the first U+0000, so `like("a\u{0}%")` would match as `like("a")`, and a delete would remove rows
    /// the pattern does not describe. The request then throws ``RecordError/invalidQuery(table:reason:)``
    /// naming the column and the U+0000's position, and nothing runs. To match text that holds U+0000, use
    /// ``hasPrefix(_:)``, ``contains(_:)`` or ``hasSuffix(_:)``, which read the whole text.
    ///
    /// A pattern longer than 50,000 bytes of UTF-8 is refused the same way, naming the column, the pattern's
    /// length and the limit, before anything runs: SQLite's LIKE fails with "LIKE or GLOB pattern too
    /// complex" on a pattern over `SQLITE_LIMIT_LIKE_PATTERN_LENGTH`, whose default, 50,000, is also the
    /// highest value `sqlite3_limit` can set unless SQLite is built with another
    /// `SQLITE_MAX_LIKE_PATTERN_LENGTH` (<https://www.sqlite.org/limits.html#max_like_pattern_length>).
    /// ``hasPrefix(_:)``, ``contains(_:)`` and ``hasSuffix(_:)`` take text of any length. On a connection
    /// whose limit you lowered with `sqlite3_limit`, a pattern between that limit and 50,000 bytes fails with
    /// SQLite's own error.
    public func like(_ pattern: String) -> SQLExpression {
        SQLExpression(.like(sqlExpression.node, .value(.forms([.text(pattern)])), escaped: false, negated: false))
    }

    /// `self NOT LIKE ?`, judged on the whole stored text as ``like(_:)`` is (a delete through it never takes
    /// a row that holds `"x\0y"` for `notLike("x%y")`); a pattern that holds U+0000 or is longer than 50,000
    /// bytes is refused as in ``like(_:)``.
    public func notLike(_ pattern: String) -> SQLExpression {
        SQLExpression(.like(sqlExpression.node, .value(.forms([.text(pattern)])), escaped: false, negated: true))
    }

    /// Text that starts with `text`, taken literally: the rows Swift's `hasPrefix` picks on the stored text,
    /// with ASCII letters in either case, as LIKE matches them. Usually `self LIKE ? ESCAPE '\'` with `text%`,
    /// each `%`, `_` and `\` of `text` escaped, so search text never acts as a wildcard; an index on the
    /// column can serve it under SQLite's LIKE optimization rules
    /// (<https://www.sqlite.org/optoverview.html#like_opt>). Text holding U+0000, or longer than LIKE's
    /// pattern limit (50,000 bytes), which LIKE cannot read whole, is matched with `instr(lower(self), lower(?))
    /// = 1` instead: every character counts, and no index serves it.
    public func hasPrefix(_ text: String) -> SQLExpression {
        SQLExpression(.textMatch(sqlExpression.node, text, .prefix, caseFolded: false))
    }

    /// Text that holds `text` anywhere, taken literally: the rows Swift's `contains` picks on the stored text,
    /// ASCII letters in either case, as ``hasPrefix(_:)``. `self LIKE ? ESCAPE '\'` with `%text%`, and for
    /// stored text that holds U+0000 (where LIKE stops reading) `instr(lower(self), lower(?)) > 0`; search
    /// text that holds U+0000, or whose pattern is over 64 bytes (where LIKE's cost per row could grow to
    /// that many scans of the row), takes the `instr` form alone.
    public func contains(_ text: String) -> SQLExpression {
        SQLExpression(.textMatch(sqlExpression.node, text, .contains, caseFolded: false))
    }

    /// Text that ends with `text`, taken literally: the rows Swift's `hasSuffix` picks on the stored text,
    /// ASCII letters in either case, as ``hasPrefix(_:)``. `self LIKE ? ESCAPE '\'` with `%text` for stored
    /// text with no U+0000, and a comparison of the last bytes (`substr(hex(lower(self)), ?) = hex(lower(?))`)
    /// for the rest and for search text that holds U+0000 or whose pattern is over 64 bytes, as in
    /// ``contains(_:)``.
    public func hasSuffix(_ text: String) -> SQLExpression {
        SQLExpression(.textMatch(sqlExpression.node, text, .suffix, caseFolded: false))
    }

    /// `self COLLATE name`: compares and sorts under `collation`. `Column("name").collating(.nocase) == "paris"`
    /// matches "Paris". See <https://www.sqlite.org/datatype3.html#collation>.
    ///
    /// SQLite's NOCASE stops comparing at U+0000, so under it `"x\0y"` equals `"x\0z"`. An equality or list
    /// whose value holds U+0000 (here, or on a column declared `COLLATE NOCASE`) is written so that the bytes
    /// after it count too, ASCII letters in either case, and other collations decide as before:
    /// `e = ? AND (? <> e COLLATE "NOCASE" OR lower(?) = lower(e) COLLATE "BINARY")`. An ordering (`<`, `>`,
    /// `ORDER BY`) under NOCASE still ends its comparison at U+0000.
    public func collating(_ collation: SQLCollation) -> SQLExpression {
        SQLExpression(.collate(sqlExpression.node, collation.name))
    }

    /// The expression under the name `key` in a selection (`expression AS "key"`), so that it decodes into
    /// the property of that coding key.
    public func forKey<Key: CodingKey>(_ key: Key) -> SQLExpression {
        SQLExpression(.alias(sqlExpression.node, key.stringValue))
    }

    /// The expression under the name `name` in a selection (`expression AS "name"`).
    public func forKey(_ name: String) -> SQLExpression {
        SQLExpression(.alias(sqlExpression.node, name))
    }
}

extension ExpressionNode {
    /// Throws when this node, the pattern of a LIKE of the caller's own, is text SQLite's LIKE cannot read as
    /// written: text that holds U+0000, which LIKE reads as a C string, up to its first U+0000
    /// (<https://www.sqlite.org/c3ref/value_blob.html>), so that it would match more rows than the pattern
    /// says; or text longer than ``SearchTextMatch/likePatternLimit`` bytes of UTF-8, which LIKE refuses with
    /// "LIKE or GLOB pattern too complex" once a row reaches it
    /// (<https://www.sqlite.org/limits.html#max_like_pattern_length>). The library's own matchers never
    /// write such a pattern (``SearchTextMatch`` takes `instr` for that text).
    /// - Parameters:
    ///   - column: the column the pattern is matched against, for the message; nil when there is none.
    ///   - table: the request's table.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)``.
    func checkLikePattern(column: String?, table: String) throws {
        guard case .value(.forms(let forms)) = self, case .text(let text)? = forms.first else { return }
        let place = column.map { "column \"\($0)\"" } ?? "an expression"
        if let nul = text.firstIndex(of: "\u{0}") {
            let position = text.distance(from: text.startIndex, to: nul)
            throw RecordError.invalidQuery(
                table: table,
                reason: "the LIKE pattern for \(place) holds U+0000 at character \(position) (counting from 0); "
                    + "SQLite's LIKE reads a pattern only up to U+0000, so it would match more than the pattern "
                    + "says; use hasPrefix, contains or hasSuffix to match text holding U+0000 literally")
        }
        let length = text.utf8.count
        guard length > SearchTextMatch.likePatternLimit else { return }
        throw RecordError.invalidQuery(
            table: table,
            reason: "the LIKE pattern for \(place) is \(length) bytes of UTF-8, over SQLite's limit of "
                + "\(SearchTextMatch.likePatternLimit) (SQLITE_LIMIT_LIKE_PATTERN_LENGTH), past which LIKE fails "
                + "with \"LIKE or GLOB pattern too complex\"; use hasPrefix, contains or hasSuffix to match long "
                + "text literally")
    }
}

/// A collating sequence: how text compares and sorts. See <https://www.sqlite.org/datatype3.html#collation>.
public struct SQLCollation: Sendable, Hashable {
    /// The collation's name, quoted where it is written.
    public let name: String

    /// The collation called `name`: one of SQLite's or one registered on the connection.
    public init(_ name: String) {
        self.name = name
    }

    /// Byte by byte (memcmp): SQLite's default.
    public static let binary = SQLCollation("BINARY")
    /// The 26 ASCII letters in either case as equal; other characters byte by byte.
    public static let nocase = SQLCollation("NOCASE")
    /// As ``binary``, ignoring trailing spaces.
    public static let rtrim = SQLCollation("RTRIM")
}
