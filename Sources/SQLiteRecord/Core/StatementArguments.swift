/// The values bound to a statement's positional parameters (`?` and `?NNN`), in order.
///
/// Written as an array literal of any ``SQLiteValueConvertible`` values and `nil`:
/// `["Tokyo", 9_733_276, nil]`. The values are converted when the literal is made, so arguments are
/// `Sendable` whatever was written. See <https://www.sqlite.org/lang_expr.html#varparam>.
public struct StatementArguments: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// The values, the first bound to parameter 1.
    public var values: [SQLiteValue]

    /// Arguments from values already converted.
    public init(_ values: [SQLiteValue] = []) { self.values = values }

    /// Arguments from any convertible values; `nil` binds NULL.
    public init(_ values: [(any SQLiteValueConvertible)?]) {
        self.values = values.map { $0?.sqliteValue ?? .null }
    }

    /// Arguments from an array literal: `["FR", 1_000_000]`.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        self.init(elements)
    }

    /// True when there are no values.
    public var isEmpty: Bool { values.isEmpty }
}
