// The operators that build expressions. Each side is an expression (a ``Column``, an ``SQLExpression``, a
// `CodingKeys` case that adopts ``ColumnExpression``) or a value; a value becomes a bound `?`, encoded when
// the request runs with the record type's encoder. See <https://www.sqlite.org/lang_expr.html>.

// MARK: Comparison

/// `lhs = ?`: equal to a value. A UUID matches every form it is stored in (lowercase text, uppercase text,
/// 16-byte BLOB: `lhs IN (?, ?, ?)`), and nil matches NULL (`lhs IS NULL`).
public func == <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.equal, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs = rhs`.
public func == (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.equal, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs IS NULL`.
public func == (lhs: some SQLExpressible, rhs: _OptionalNilComparisonType) -> SQLExpression {
    SQLExpression(.isNull(lhs.sqlExpression.node, negated: false))
}

/// `lhs <> ?`: not equal to a value, and not NULL either (SQL's rule: a comparison with NULL is never true).
/// A UUID differs from each of its stored forms (`lhs NOT IN (?, ?, ?)`); nil tests `lhs IS NOT NULL`.
public func != <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.notEqual, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs <> rhs`.
public func != (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.notEqual, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs IS NOT NULL`.
public func != (lhs: some SQLExpressible, rhs: _OptionalNilComparisonType) -> SQLExpression {
    SQLExpression(.isNull(lhs.sqlExpression.node, negated: true))
}

/// `lhs < ?`.
public func < <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.less, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs < rhs`.
public func < (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.less, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs <= ?`.
public func <= <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.lessOrEqual, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.lessOrEqual, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs > ?`.
public func > <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.greater, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs > rhs`.
public func > (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.greater, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs >= ?`.
public func >= <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.greaterOrEqual, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.greaterOrEqual, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

// MARK: Logic

/// `lhs AND rhs`.
public func && (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.and, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs OR rhs`.
public func || (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.or, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `NOT operand`.
public prefix func ! (operand: some SQLExpressible) -> SQLExpression {
    SQLExpression(.unary(.not, operand.sqlExpression.node))
}

// MARK: Arithmetic

/// `lhs + ?`.
public func + <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.add, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs + rhs`.
public func + (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.add, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs - ?`.
public func - <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.subtract, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs - rhs`.
public func - (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.subtract, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs * ?`.
public func * <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.multiply, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs * rhs`.
public func * (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.multiply, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `lhs / ?`. As in SQLite, an INTEGER divided by an INTEGER is an INTEGER (`7 / 2` is 3).
public func / <Value: Encodable & Sendable>(lhs: some SQLExpressible, rhs: Value) -> SQLExpression {
    SQLExpression(.binary(.divide, lhs.sqlExpression.node, .value(.encodable(rhs))))
}

/// `lhs / rhs`.
public func / (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(.divide, lhs.sqlExpression.node, rhs.sqlExpression.node))
}

/// `-operand`.
public prefix func - (operand: some SQLExpressible) -> SQLExpression {
    SQLExpression(.unary(.negate, operand.sqlExpression.node))
}
