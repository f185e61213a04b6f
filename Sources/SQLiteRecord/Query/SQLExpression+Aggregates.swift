// Aggregate functions, for selections and HAVING clauses. See <https://www.sqlite.org/lang_aggfunc.html>.

extension SQLExpression {
    /// `count(*)`: the number of rows.
    public static let countAll = SQLExpression(.countAll)
}

/// `count(expression)`: the number of rows where `expression` is not NULL.
public func count(_ expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.count, [expression.sqlExpression.node], distinct: false))
}

/// `count(DISTINCT expression)`: the number of different non-NULL values.
public func count(distinct expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.count, [expression.sqlExpression.node], distinct: true))
}

/// `sum(expression)`: the sum of the non-NULL values, NULL when there are none; an INTEGER sum that
/// overflows is an error, as SQLite reports it. PostgreSQL's sum of a BIGINT is a NUMERIC, which reads as
/// an `Int` while it fits (beyond `Int64`, as a `Decimal`).
public func sum(_ expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.sum, [expression.sqlExpression.node], distinct: false))
}

/// `total(expression)`: the sum as a REAL (a `Double`), 0.0 when there are no values; on PostgreSQL
/// `coalesce(sum(CAST(expression AS DOUBLE PRECISION)), 0)`, the same value.
public func total(_ expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.total, [expression.sqlExpression.node], distinct: false))
}

/// `min(expression)`: the smallest non-NULL value.
public func min(_ expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.min, [expression.sqlExpression.node], distinct: false))
}

/// `max(expression)`: the largest non-NULL value.
public func max(_ expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.max, [expression.sqlExpression.node], distinct: false))
}

/// `avg(expression)`: the average of the non-NULL values as a REAL (a `Double`), NULL when there are none; on
/// PostgreSQL `avg(CAST(expression AS DOUBLE PRECISION))`, whose `avg` of an integer would otherwise be a
/// NUMERIC. See <https://www.sqlite.org/lang_aggfunc.html#avg>.
public func average(_ expression: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(.average, [expression.sqlExpression.node], distinct: false))
}
