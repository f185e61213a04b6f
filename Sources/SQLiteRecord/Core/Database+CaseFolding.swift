import Foundation

extension Database {
    /// The SQL name of the case folding function every connection has: `sqliterecord_casefold(text)`.
    static let caseFoldFunctionName = "sqliterecord_casefold"

    /// `text` with Unicode full case folding, in no particular locale: what `sqliterecord_casefold` returns.
    static func caseFolded(_ text: String) -> String {
        text.folding(options: .caseInsensitive, locale: nil)
    }

    /// Registers `sqliterecord_casefold(x)`: TEXT case-folded, anything else unchanged. Deterministic, so
    /// it may serve an index on an expression (`CREATE INDEX ... ON t(sqliterecord_casefold(name))`), which
    /// then needs the function on every connection that writes the table: the library's have it.
    func registerCaseFolding() throws {
        try createFunction(Self.caseFoldFunctionName, argumentCount: 1, isDeterministic: true) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0] }
            return Database.caseFolded(text)
        }
    }

    /// The SQL name of the function that stands a character in for each U+0000 of a text:
    /// `sqliterecord_nul_replaced(text, stand)`.
    static let nulReplacedFunctionName = "sqliterecord_nul_replaced"

    /// Registers `sqliterecord_nul_replaced(x, stand)`: TEXT with each U+0000 replaced by the text `stand`,
    /// anything else unchanged. SQLite's `replace(x, char(0), stand)` cannot: it reads a pattern whose first
    /// byte is 0 as empty and returns `x` as it is. A `like(_:)` of the caller's own matches its pattern against
    /// this on stored text that holds U+0000, which LIKE would read only up to it.
    func registerNULReplacement() throws {
        try createFunction(Self.nulReplacedFunctionName, argumentCount: 2, isDeterministic: true) { arguments in
            guard case .text(let text) = arguments[0], case .text(let stand) = arguments[1] else { return arguments[0] }
            // Scalar by scalar: Foundation's string search on Linux reads a String as a C string.
            var replaced = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                if scalar == "\u{0}" {
                    replaced.append(contentsOf: stand.unicodeScalars)
                } else {
                    replaced.append(scalar)
                }
            }
            return String(replaced)
        }
    }
}
