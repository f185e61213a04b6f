/// One term of a request's ORDER BY: an expression, a direction, and where NULLs go.
///
/// Made from an expression: `Column("population").descending`, `Column("name").ascending(nulls: .last)`.
/// A column or expression on its own sorts ascending. See <https://www.sqlite.org/lang_select.html#orderby>.
public struct SQLOrdering: Sendable, SQLOrderingTerm {
    /// Where NULLs sort.
    public enum NullsPosition: Sendable {
        /// Before every value (SQLite's default for ascending order).
        case first
        /// After every value (SQLite's default for descending order).
        case last
    }

    let expression: ExpressionNode
    let isDescending: Bool
    let nulls: NullsPosition?

    /// The term itself.
    public var sqlOrdering: SQLOrdering { self }
}

/// Anything a request can sort by: ``SQLOrdering``, any ``SQLExpressible`` (ascending), and the
/// `where:` forms' ``Ordering``.
public protocol SQLOrderingTerm: Sendable {
    /// The term.
    var sqlOrdering: SQLOrdering { get }
}

extension SQLExpressible {
    /// Ascending, NULLs first.
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression.node, isDescending: false, nulls: nil) }

    /// `ASC`: smallest first, NULLs first.
    public var ascending: SQLOrdering { sqlOrdering }

    /// `DESC`: largest first, NULLs last.
    public var descending: SQLOrdering {
        SQLOrdering(expression: sqlExpression.node, isDescending: true, nulls: nil)
    }

    /// `ASC NULLS FIRST` or `ASC NULLS LAST`.
    public func ascending(nulls: SQLOrdering.NullsPosition) -> SQLOrdering {
        SQLOrdering(expression: sqlExpression.node, isDescending: false, nulls: nulls)
    }

    /// `DESC NULLS FIRST` or `DESC NULLS LAST`.
    public func descending(nulls: SQLOrdering.NullsPosition) -> SQLOrdering {
        SQLOrdering(expression: sqlExpression.node, isDescending: true, nulls: nulls)
    }
}

extension Ordering: SQLOrderingTerm {
    /// The column, checked against the table as any request column is, in this direction.
    public var sqlOrdering: SQLOrdering {
        SQLOrdering(expression: .column(requestColumn), isDescending: isDescending, nulls: nulls)
    }
}
