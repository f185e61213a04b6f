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
}
