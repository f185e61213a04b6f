// Integer overflow in the values an UPDATE assigns: one behaviour on both engines, a thrown error with no
// row changed.
//
// PostgreSQL's integer arithmetic raises SQLSTATE 22003 (`bigint out of range`) on overflow
// (<https://www.postgresql.org/docs/current/functions-math.html>). SQLite's does not: an INTEGER sum,
// difference, product or quotient that does not fit in 64 bits becomes a REAL
// (<https://www.sqlite.org/lang_expr.html>, "Operators"), which an INTEGER column then stores as REAL, so that
// `Int64.max + 1` is saved as 9.223372036854776e18 and the next read as an `Int` throws or loses the value.
// On SQLite each arithmetic operator of an assigned value is therefore written so that it raises instead:
//
//     (SELECT CASE WHEN typeof(l + r) = 'real' AND typeof(l) = 'integer' AND typeof(r) = 'integer'
//         THEN abs(-9223372036854775807 - 1) ELSE l + r END
//      FROM (SELECT <left> AS l, <right> AS r))
//
// Two INTEGER operands give a REAL only when the result overflowed, and `abs` of the smallest INTEGER is
// SQLite's own "integer overflow" error (<https://www.sqlite.org/lang_corefunc.html#abs>), which stops the
// statement before it changes any row. Each operand is written once, in the FROM subquery (which may name the
// updated row's columns, as a correlated subquery), so nested arithmetic grows the SQL linearly.

extension BinaryOperator {
    /// True for `+`, `-`, `*` and `/`, whose INTEGER results SQLite turns into REAL on overflow.
    var isArithmetic: Bool {
        switch self {
        case .add, .subtract, .multiply, .divide: return true
        default: return false
        }
    }
}

extension RequestCompiler {
    /// The operand names of the overflow check's subquery, unusual so that they hide no column of the table.
    private static var leftOperand: String { SQLIdentifier.quoted("sqliterecord_left") }
    private static var rightOperand: String { SQLIdentifier.quoted("sqliterecord_right") }

    /// SQLite's error for the check to raise: `abs` of the smallest INTEGER is "integer overflow".
    private static var overflowError: String { "abs(-9223372036854775807 - 1)" }

    /// Writes the value an UPDATE assigns to `column`: as ``expression(_:_:context:)`` does, with each
    /// arithmetic operator checked for integer overflow on SQLite (see the top of this file).
    /// - Throws: what ``expression(_:_:context:)`` throws.
    mutating func assignedValue(_ node: ExpressionNode, column: String) throws {
        guard dialect == .sqlite else { return try expression(node, 0, context: column) }
        try checkedArithmetic(node, 0, context: column)
    }

    /// `node`, with its arithmetic operators (and those of their operands) written with the overflow check.
    private mutating func checkedArithmetic(_ node: ExpressionNode, _ precedence: Int, context: String?) throws {
        switch node {
        case .binary(let binary, let left, let right) where binary.isArithmetic:
            tokens.append(.binary(binary))
            let (l, r) = (Self.leftOperand, Self.rightOperand)
            let result = l + binary.sql + r
            write(
                "(SELECT CASE WHEN typeof(" + result + ") = 'real' AND typeof(" + l + ") = 'integer' AND typeof("
                    + r + ") = 'integer' THEN " + Self.overflowError + " ELSE " + result + " END FROM (SELECT ")
            try checkedArithmetic(left, 0, context: context)
            write(" AS " + l + ", ")
            try checkedArithmetic(right, 0, context: context)
            write(" AS " + r + "))")
        case .unary(.negate, let operand):
            tokens.append(.unary(.negate))
            let o = Self.leftOperand
            write(
                "(SELECT CASE WHEN typeof(-" + o + ") = 'real' AND typeof(" + o + ") = 'integer' THEN "
                    + Self.overflowError + " ELSE -" + o + " END FROM (SELECT ")
            try checkedArithmetic(operand, 0, context: context)
            write(" AS " + o + "))")
        default:
            try expression(node, precedence, context: context)
        }
    }
}
