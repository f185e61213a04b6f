import Foundation

/// Text matchers that ignore case beyond ASCII, through Unicode case folding.
///
/// SQLite's LIKE and NOCASE fold the 26 ASCII letters only, so ``SQLExpressible/contains(_:)`` with
/// "ärzte" misses "Ärzte". These matchers compare both sides after Unicode full case folding
/// (Foundation's `folding(options: .caseInsensitive, locale: nil)`, the same in every locale): "Ärzte" and
/// "ÄRZTE" match "ärzte", "STRASSE" matches "straße", "ΣΊΣΥΦΟΣ" matches "σίσυφος". The column's text is
/// folded by the SQL function `sqliterecord_casefold(text)`, which every connection the library opens has;
/// no index can serve these matchers, and each row's text is folded once per row: see the Performance
/// article for the cost. See <https://www.unicode.org/reports/tr44/#CaseFolding.txt> and
/// <https://www.sqlite.org/lang_expr.html#like>.
extension SQLExpressible {
    /// Text that holds `text` anywhere, taken literally, in any case (Unicode case folding): the rows whose
    /// folded text holds the folded `text`, as ``contains(_:)`` picks them on the folded text, U+0000 and
    /// text of any length included. `sqliterecord_casefold(self) LIKE ? ESCAPE '\'` with `%folded text%`,
    /// and for stored text that holds U+0000 `instr` on the folded text; search text that holds U+0000 or
    /// whose pattern is over 64 bytes takes the `instr` form alone, as in ``contains(_:)``.
    /// `Column("name").caseInsensitiveContains("ärzte")` matches "Praxis der Ärzte". NULL matches nothing.
    public func caseInsensitiveContains(_ text: String) -> SQLExpression {
        caseFoldedLike(text, .contains)
    }

    /// Text that starts with `text`, taken literally, in any case (Unicode case folding), as
    /// ``caseInsensitiveContains(_:)``: ``hasPrefix(_:)`` on the folded text.
    public func caseInsensitiveHasPrefix(_ text: String) -> SQLExpression {
        caseFoldedLike(text, .prefix)
    }

    /// Text that ends with `text`, taken literally, in any case (Unicode case folding), as
    /// ``caseInsensitiveContains(_:)``: ``hasSuffix(_:)`` on the folded text.
    public func caseInsensitiveHasSuffix(_ text: String) -> SQLExpression {
        caseFoldedLike(text, .suffix)
    }

    /// `sqliterecord_casefold(self)`: the text with Unicode full case folding applied ("Straße" becomes
    /// "strasse"), for comparisons and orderings of your own; NULL and numbers pass through unchanged.
    public func caseFolded() -> SQLExpression {
        SQLExpression(.function(.caseFold, [sqlExpression.node], distinct: false))
    }

    private func caseFoldedLike(_ text: String, _ match: SearchTextMatch) -> SQLExpression {
        SQLExpression(.textMatch(sqlExpression.node, text, match, caseFolded: true))
    }
}
