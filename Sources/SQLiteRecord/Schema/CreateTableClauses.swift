/// What a CREATE TABLE statement declares that `PRAGMA table_xinfo` does not report, read from its SQL text
/// (`sqlite_schema.sql`): the columns' collations and CHECK constraints, and the table's CHECK constraints.
/// A table rebuild carries them to the new table (<https://www.sqlite.org/lang_createtable.html>).
///
/// The text is split by SQLite's lexical rules (<https://www.sqlite.org/lang_keywords.html>,
/// <https://www.sqlite.org/lang_comment.html>): quoted strings and identifiers (`'…'`, `"…"`, `` `…` ``,
/// `[…]`), comments, and parentheses; a column definition or table constraint is a part between commas at the
/// body's top level.
struct CreateTableClauses {
    /// One lexical token: its kind and its bytes in the text.
    struct Token {
        enum Kind { case word, quotedIdentifier, string, open, close, comma, other }
        let kind: Kind
        let range: Range<Int>
    }

    /// The clauses of each column to carry over, by ASCII-lowercased column name: `COLLATE name` and
    /// `[CONSTRAINT name] CHECK (expr)`, each as written.
    private(set) var columnClauses: [String: [String]] = [:]
    /// The table's CHECK constraints, each as written (`CONSTRAINT name CHECK (expr)` or `CHECK (expr)`).
    private(set) var tableChecks: [String] = []
    /// Every CHECK expression, the columns' and the table's, as ``squeezed(_:)`` writes it.
    private(set) var checkExpressions: Set<String> = []
    /// Every CHECK constraint, the columns' and the table's, in order: its `CONSTRAINT` name and its expression
    /// as written.
    private(set) var checks: [TableDefinition.Check] = []
    /// The clause that makes each generated column, by ASCII-lowercased column name:
    /// `[GENERATED ALWAYS] AS (expr) [STORED | VIRTUAL]`, as written.
    private(set) var generatedClauses: [String: String] = [:]
    /// True when a `PRIMARY KEY` declares `AUTOINCREMENT` (the keyword after `KEY`, its order or its conflict
    /// clause; a column named "autoincrement" is not one).
    private(set) var hasAutoincrement = false

    init(sql: String) {
        let bytes = Array(sql.utf8)
        let tokens = Self.tokens(bytes)
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let before: Set<String> = ["KEY", "ASC", "DESC", "ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE"]
        hasAutoincrement = tokens.indices.dropFirst().contains { index in
            tokens[index].kind == .word && tokens[index - 1].kind == .word
                && text(tokens[index].range).uppercased() == "AUTOINCREMENT"
                && before.contains(text(tokens[index - 1].range).uppercased())
        }
        func word(_ token: Token) -> String? {
            token.kind == .word ? text(token.range).uppercased() : nil
        }
        // The body: from the first "(" to its matching ")".
        guard let open = tokens.firstIndex(where: { $0.kind == .open }) else { return }
        var parts: [[Token]] = [[]]
        var depth = 0
        for token in tokens[(open + 1)...] {
            if token.kind == .open { depth += 1 }
            if token.kind == .close {
                if depth == 0 { break }
                depth -= 1
            }
            if token.kind == .comma && depth == 0 {
                parts.append([])
            } else {
                parts[parts.count - 1].append(token)
            }
        }
        for part in parts where !part.isEmpty {
            let isTableConstraint = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(word(part[0]))
            var clauses: [String] = []
            var index = isTableConstraint ? 0 : 1
            var constraintStart: Int?
            var constraintName: String?
            while index < part.count {
                let keyword = word(part[index])
                if keyword == "CONSTRAINT" {
                    constraintStart = part[index].range.lowerBound
                    constraintName =
                        index + 1 < part.count
                        ? Self.identifier(text(part[index + 1].range), kind: part[index + 1].kind) : nil
                    index += 2
                    continue
                }
                if keyword == "CHECK", index + 1 < part.count, part[index + 1].kind == .open,
                    let close = Self.matchingClose(part, from: index + 1)
                {
                    let start = constraintStart ?? part[index].range.lowerBound
                    clauses.append(text(start..<part[close].range.upperBound))
                    let expression = text(part[index + 1].range.upperBound..<part[close].range.lowerBound)
                    checkExpressions.insert(Self.squeezed(expression))
                    checks.append(TableDefinition.Check(name: constraintName, sql: expression))
                    index = close + 1
                    constraintStart = nil
                    constraintName = nil
                    continue
                }
                if keyword == "COLLATE", index + 1 < part.count, !isTableConstraint {
                    clauses.append(text(part[index].range.lowerBound..<part[index + 1].range.upperBound))
                    index += 2
                    constraintStart = nil
                    continue
                }
                if keyword == "GENERATED" || keyword == "AS", !isTableConstraint,
                    let open = part[index...].firstIndex(where: { $0.kind == .open }),
                    part[index..<open].allSatisfy({ ["GENERATED", "ALWAYS", "AS"].contains(word($0)) }),
                    let close = Self.matchingClose(part, from: open)
                {
                    var end = close
                    if close + 1 < part.count, ["STORED", "VIRTUAL"].contains(word(part[close + 1])) { end = close + 1 }
                    let name = Self.identifier(text(part[0].range), kind: part[0].kind)
                    generatedClauses[RowLayout.asciiLowercased(name)] = text(
                        (constraintStart ?? part[index].range.lowerBound)..<part[end].range.upperBound)
                    index = end + 1
                    constraintStart = nil
                    continue
                }
                // Another constraint's keyword ends a CONSTRAINT name's reach.
                if ["PRIMARY", "NOT", "NULL", "UNIQUE", "DEFAULT", "REFERENCES", "GENERATED", "AS"].contains(keyword) {
                    constraintStart = nil
                }
                index += 1
            }
            if isTableConstraint {
                tableChecks += clauses
            } else if !clauses.isEmpty {
                let name = Self.identifier(text(part[0].range), kind: part[0].kind)
                columnClauses[RowLayout.asciiLowercased(name), default: []] += clauses
            }
        }
    }

    /// The index of the `)` that closes the `(` at `open`, or nil.
    private static func matchingClose(_ tokens: [Token], from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].kind == .open { depth += 1 }
            if tokens[index].kind == .close {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// A CHECK expression as compared by its text: tokens lowercased and put together without whitespace or
    /// comments, quoted identifiers unquoted (`"name" <> ''` and `name<>''` are one expression, as
    /// `ALTER TABLE RENAME COLUMN` writes a renamed column quoted).
    static func squeezed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return tokens(bytes).map { token in
            let text = String(decoding: bytes[token.range], as: UTF8.self)
            return (token.kind == .quotedIdentifier ? identifier(text, kind: token.kind) : text).lowercased()
        }.joined()
    }

    /// An identifier token's name: quotes removed and doubled quotes undone.
    static func identifier(_ text: String, kind: Token.Kind) -> String {
        guard kind == .quotedIdentifier, let first = text.first else { return text }
        let inner = String(text.dropFirst().dropLast())
        switch first {
        case "\"": return inner.replacingOccurrences(of: "\"\"", with: "\"")
        case "`": return inner.replacingOccurrences(of: "``", with: "`")
        default: return inner
        }
    }

    /// The names an expression's text may refer to as columns: its words and quoted identifiers, but the
    /// names of functions called (a word followed by `(`). Keywords and numbers are among them, which is
    /// harmless where the list is searched for a column's name.
    static func identifiers(in sql: String) -> [String] {
        let bytes = Array(sql.utf8)
        let tokens = tokens(bytes)
        var names: [String] = []
        for (index, token) in tokens.enumerated() where token.kind == .word || token.kind == .quotedIdentifier {
            if index + 1 < tokens.count, tokens[index + 1].kind == .open { continue }
            names.append(identifier(String(decoding: bytes[token.range], as: UTF8.self), kind: token.kind))
        }
        return names
    }

    /// `sql` with every identifier naming a renamed column (ASCII case-insensitively) written as the new
    /// name, quoted, as `ALTER TABLE RENAME COLUMN` rewrites the schema; function names, and the names that
    /// follow `CONSTRAINT` and `COLLATE`, are left alone.
    static func renaming(_ renames: [(from: String, to: String)], in sql: String) -> String {
        guard !renames.isEmpty else { return sql }
        let bytes = Array(sql.utf8)
        let tokens = tokens(bytes)
        var result = ""
        var position = 0
        for (index, token) in tokens.enumerated() where token.kind == .word || token.kind == .quotedIdentifier {
            if index + 1 < tokens.count, tokens[index + 1].kind == .open { continue }
            if index > 0, tokens[index - 1].kind == .word,
                ["CONSTRAINT", "COLLATE"].contains(
                    String(decoding: bytes[tokens[index - 1].range], as: UTF8.self).uppercased())
            {
                continue
            }
            let name = identifier(String(decoding: bytes[token.range], as: UTF8.self), kind: token.kind)
            guard
                let rename = renames.first(where: {
                    RowLayout.asciiLowercased($0.from) == RowLayout.asciiLowercased(name)
                })
            else { continue }
            result += String(decoding: bytes[position..<token.range.lowerBound], as: UTF8.self)
            result += SQLIdentifier.quoted(rename.to)
            position = token.range.upperBound
        }
        return result + String(decoding: bytes[position...], as: UTF8.self)
    }

    /// The tokens of `bytes`, comments and whitespace left out.
    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        /// The end of a quoted run opened at `start` and closed by `close`, a doubled `close` staying inside.
        func quotedEnd(_ start: Int, close: UInt8, doubles: Bool) -> Int {
            var end = start + 1
            while end < bytes.count {
                if bytes[end] == close {
                    if doubles, end + 1 < bytes.count, bytes[end + 1] == close {
                        end += 2
                        continue
                    }
                    return end + 1
                }
                end += 1
            }
            return bytes.count
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index = min(index + 2, bytes.count)
            case UInt8(ascii: "'"):
                let end = quotedEnd(index, close: UInt8(ascii: "'"), doubles: true)
                tokens.append(Token(kind: .string, range: index..<end))
                index = end
            case UInt8(ascii: "\""), UInt8(ascii: "`"):
                let end = quotedEnd(index, close: byte, doubles: true)
                tokens.append(Token(kind: .quotedIdentifier, range: index..<end))
                index = end
            case UInt8(ascii: "["):
                let end = quotedEnd(index, close: UInt8(ascii: "]"), doubles: false)
                tokens.append(Token(kind: .quotedIdentifier, range: index..<end))
                index = end
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","):
                let kind: Token.Kind = byte == UInt8(ascii: "(") ? .open : byte == UInt8(ascii: ")") ? .close : .comma
                tokens.append(Token(kind: kind, range: index..<index + 1))
                index += 1
            default:
                guard isWordByte(byte) else {
                    tokens.append(Token(kind: .other, range: index..<index + 1))
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count && isWordByte(bytes[end]) { end += 1 }
                // A number is a word here; callers look only at words that are names or keywords.
                tokens.append(Token(kind: .word, range: index..<end))
                index = end
            }
        }
        return tokens
    }
}
