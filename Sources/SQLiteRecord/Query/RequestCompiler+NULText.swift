/// Comparisons SQLite makes on text cut at its first U+0000, written so that every character counts.
///
/// SQLite's NOCASE collation compares with `sqlite3StrNICmp`, which stops at U+0000 and then compares only
/// the lengths: under NOCASE `'x\0y' = 'x\0z'` is true, so an equality or an IN list on a `COLLATE NOCASE`
/// column (or under `collating(.nocase)`) with a value that holds U+0000 also matches every other row of
/// the same length with a U+0000 at the same place, and a filtered delete deletes them. BINARY (`memcmp`)
/// and RTRIM compare whole values. And LIKE reads the text it tests as a C string
/// (<https://www.sqlite.org/c3ref/value_blob.html>): `'x\0y' LIKE 'x%y'` is false and `NOT LIKE` true.
///
/// Values and patterns with no U+0000 keep the plain forms, and their indexes: these forms are written
/// only for a bound text that holds U+0000 (``exactEquality(_:_:name:negated:_:)``, ``nulList(_:_:name:negated:_:)``)
/// and for a LIKE pattern of the caller's own that a stored U+0000 could change (``exactLike(_:_:negated:_:)``).
extension RequestCompiler {
    /// True for a text value holding U+0000 on SQLite (PostgreSQL's text holds none: its binding refuses it).
    static func holdsNUL(_ value: Binding.Arguments.BoundValue) -> Bool {
        guard Binding.dialect == .sqlite, let value = SameTypeCast.cast(value, to: SQLiteValue.self),
            case .text(let text) = value
        else { return false }
        return text.utf8.contains(0)
    }

    /// True when one of `forms` is a text holding U+0000 (see ``holdsNUL(_:)``).
    static func anyHoldsNUL(_ forms: [Binding.Arguments.BoundValue]) -> Bool {
        guard Binding.dialect == .sqlite else { return false }
        for form in forms where holdsNUL(form) { return true }
        return false
    }

    /// `(left = ? AND (? <> left COLLATE "NOCASE" OR lower(?) = lower(left) COLLATE "BINARY"))`, each `?`
    /// `value` (text holding U+0000); negated, `NOT (...)`.
    ///
    /// The guard leaves alone whatever `left = ?` decides under BINARY and RTRIM (two values equal under
    /// either are either of other lengths, so not equal under NOCASE, or equal byte for byte, so equal once
    /// lowered), and under NOCASE adds what NOCASE leaves out: the bytes after the first U+0000, compared with
    /// the ASCII letters folded (SQLite's `lower` folds the 26 letters, as NOCASE does, and reads the whole
    /// value). The outermost COLLATE decides a comparison, so `left`'s own collation, or one inside it, does
    /// not replace NOCASE and BINARY there. An index on `left` still serves `left = ?`.
    mutating func exactEquality(
        _ left: ExpressionNode, _ value: Binding.Arguments.BoundValue, name: String?, negated: Bool,
        _ precedence: Int
    ) throws {
        tokens.append(.part(.exactNUL))
        try parenthesized(negated ? 3 : 2, precedence) {
            if negated { $0.write("NOT (") }
            try $0.expression(left, 5, context: name)
            $0.write(" = " + $0.nextParameter)
            $0.arguments.append(value)
            $0.write(" AND (" + $0.nextParameter + " <> ")
            $0.arguments.append(value)
            try $0.expression(.collate(left, SQLCollation.nocase.name), 5, context: name)
            $0.write(" OR lower(" + $0.nextParameter + ") = ")
            $0.arguments.append(value)
            try $0.expression(
                .collate(.function(.lower, [left], distinct: false), SQLCollation.binary.name), 5, context: name)
            $0.write(")")
            if negated { $0.write(")") }
        }
    }

    /// `operand IN (?, ...)` for the forms with no U+0000, ORed with ``exactEquality(_:_:name:negated:_:)`` for
    /// each text that holds one; negated, `NOT (...)`, which leaves out NULL as `NOT IN` does (a NULL operand,
    /// or a NULL in the list and no match, makes every term NULL or false).
    mutating func nulList(
        _ operand: ExpressionNode, _ forms: [Binding.Arguments.BoundValue], name: String?, negated: Bool,
        _ precedence: Int
    ) throws {
        var plain: [Binding.Arguments.BoundValue] = []
        var exact: [Binding.Arguments.BoundValue] = []
        for form in forms {
            if Self.holdsNUL(form) { exact.append(form) } else { plain.append(form) }
        }
        tokens.append(.part(.exactNUL))
        tokens.append(.count(plain.count))
        tokens.append(.count(exact.count))
        try parenthesized(negated ? 3 : 1, precedence) {
            if negated { $0.write("NOT (") }
            if !plain.isEmpty {
                try $0.expression(operand, 5, context: name)
                $0.write(" IN (")
                $0.writeParameters(plain.count)
                $0.write(")")
                $0.arguments.append(contentsOf: plain)
            }
            for (index, value) in exact.enumerated() {
                if index > 0 || !plain.isEmpty { $0.write(" OR ") }
                try $0.exactEquality(operand, value, name: name, negated: false, 2)
            }
            if negated { $0.write(")") }
        }
    }

    /// The rest of a long list's condition for its texts that hold U+0000, after `typeof(operand) = 'text'
    /// AND `: `(hex(operand) IN (SELECT value FROM json_each(?)) OR operand = upper(operand) AND operand =
    /// lower(operand) AND hex(lower(operand)) IN (SELECT value FROM json_each(?)))`, with `texts` and `folded`
    /// the hex of those texts as stored and with the ASCII letters lowered.
    ///
    /// `json_each` cannot carry such a text, so its hex is compared, byte for byte; the second term lets the
    /// texts match in either case where `operand`'s collation sets case aside (NOCASE): there `operand` equals
    /// its own upper and lower case, while under BINARY or RTRIM it does so only when it holds no ASCII
    /// letter, and then its lowered bytes are its bytes. So a NOCASE column matches as ``exactEquality(_:_:name:negated:_:)``
    /// does for a short list, and other collations byte for byte.
    mutating func nulTextTerm(_ operand: ExpressionNode, name: String?, texts: String, folded: String) throws {
        write("(hex(")
        try expression(operand, 0, context: name)
        write(") IN (SELECT value FROM json_each(?)) OR ")
        arguments.append(sqlite: .text(texts))
        try expression(operand, 5, context: name)
        write(" = upper(")
        try expression(operand, 0, context: name)
        write(") AND ")
        try expression(operand, 5, context: name)
        write(" = lower(")
        try expression(operand, 0, context: name)
        write(") AND hex(lower(")
        try expression(operand, 0, context: name)
        write(")) IN (SELECT value FROM json_each(?)))")
        arguments.append(sqlite: .text(folded))
    }

    /// The LIKE of a pattern of the caller's own (`like(_:)`, `notLike(_:)`) on SQLite, judged on the whole
    /// stored text: `CASE WHEN instr(operand, char(0)) > 0 THEN sqliterecord_nul_replaced(operand, ?) LIKE ?
    /// ELSE operand LIKE ? END` (`NOT LIKE` in both branches when negated), the first `?` a character the
    /// pattern does not hold, which only `_` and `%` then match, as they would U+0000 (SQLite's `replace`
    /// cannot replace U+0000: see `Database.registerNULReplacement()`). A row with no U+0000 pays one `instr`
    /// scan; only a row that holds one calls the library's function. Before it, when the pattern starts with text and the call is not
    /// negated, `operand LIKE ?` with that text and `%`: a pattern that only a prefix decides, which SQLite's
    /// LIKE optimization can serve from an index as it served the plain LIKE
    /// (<https://www.sqlite.org/optoverview.html#like_opt>), and which every row the whole pattern matches
    /// also matches.
    ///
    /// A pattern whose only wildcards are `%` at its end (`"abc%"`, `"%"`) is written as a plain LIKE: a
    /// stored text with U+0000 matches it exactly when the text before its first U+0000 does. Returns false,
    /// writing nothing, for those and for any pattern that is not one bound text.
    mutating func exactLike(
        _ operand: ExpressionNode, _ pattern: ExpressionNode, negated: Bool, _ precedence: Int
    ) throws -> Bool {
        guard Binding.dialect == .sqlite, case .value(.forms(let forms)) = pattern, forms.count == 1,
            case .text(let text)? = forms.first
        else { return false }
        let scalars = Array(text.unicodeScalars)
        let firstWildcard = scalars.firstIndex { $0 == "%" || $0 == "_" }
        if let firstWildcard, scalars[firstWildcard...].allSatisfy({ $0 == "%" }) { return false }
        let prefixLength = firstWildcard ?? scalars.count
        let name = columnName(in: operand)
        let prefixed = !negated && prefixLength > 0
        let like = negated ? " NOT LIKE " : " LIKE "
        tokens.append(.part(.exactLike))
        tokens.append(.count(prefixed ? 1 : 0))
        try parenthesized(prefixed ? 2 : 11, precedence) {
            if prefixed {
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: scalars[..<prefixLength])
                prefix.append("%")
                try $0.expression(operand, 5, context: name)
                $0.write(" LIKE " + $0.nextParameter + " AND ")
                $0.arguments.append(sqlite: .text(String(prefix)))
            }
            $0.write("CASE WHEN instr(")
            try $0.expression(operand, 0, context: name)
            $0.write(", char(0)) > 0 THEN " + Database.nulReplacedFunctionName + "(")
            try $0.expression(operand, 0, context: name)
            $0.write(", " + $0.nextParameter + ")" + like + $0.nextParameter + " ELSE ")
            $0.arguments.append(sqlite: .text(String(Self.stand(in: scalars))))
            $0.arguments.append(sqlite: .text(text))
            try $0.expression(operand, 5, context: name)
            $0.write(like + $0.nextParameter + " END")
            $0.arguments.append(sqlite: .text(text))
        }
        return true
    }

    /// A character that stands for U+0000 in stored text a pattern is matched against: the first of U+0001,
    /// U+0002, ... that `pattern` does not hold and that is no ASCII letter (LIKE matches a letter in either
    /// case), so that no literal character of the pattern matches it.
    static func stand(in pattern: [Unicode.Scalar]) -> Unicode.Scalar {
        var value: UInt32 = 1
        while true {
            if let scalar = Unicode.Scalar(value), !(0x41...0x5A).contains(value), !(0x61...0x7A).contains(value),
                !pattern.contains(scalar)
            {
                return scalar
            }
            value += 1
        }
    }
}
