/// An SQL expression built from columns, values and operators: what a request filters, orders, groups and
/// selects by.
///
/// Expressions come from ``Column``s and the operators and methods on ``SQLExpressible``:
/// `Column("population") > 1_000_000`, `Column("name").hasPrefix("San")`,
/// `Column("country_code").in(["FR", "DE"])`. Values are never written into the SQL: each becomes a `?`
/// bound when the request runs, encoded with the record type's ``Record/recordEncoder`` (its date, UUID and
/// Decimal strategies), so a filter matches what `save()` wrote.
///
/// An expression is a value: build it once and use it in as many requests as you like.
public struct SQLExpression: Sendable, SQLExpressible {
    let node: ExpressionNode

    init(_ node: ExpressionNode) {
        self.node = node
    }

    /// SQL of your own with its arguments bound, in parentheses: the escape hatch for what the operators do
    /// not say. `SQLExpression(sql: "length(name) > ?", arguments: [20])`. Column names in it are not
    /// checked or quoted: quote them yourself with ``SQLIdentifier/quoted(_:)``.
    public init(sql: String, arguments: StatementArguments = []) {
        node = .literal(sql, arguments)
    }

    /// A value, bound as the record type's encoder stores it: `SQLExpression.value(Genre.fiction)`. Operators
    /// take values as they are; this is for a value on the left of one, or in a selection.
    public static func value<Value: Encodable & Sendable>(_ value: Value) -> SQLExpression {
        SQLExpression(.value(.encodable(value)))
    }

    /// SQL `NULL`.
    public static let null = SQLExpression(.null)

    /// The expression itself.
    public var sqlExpression: SQLExpression { self }
}

/// Anything a request can use as an SQL expression: ``Column``, ``SQLExpression``, and `CodingKeys` enums
/// that adopt ``ColumnExpression``.
public protocol SQLExpressible: SQLOrderingTerm {
    /// The expression.
    var sqlExpression: SQLExpression { get }
}

/// The tree of an expression. Values are leaves that the request binds, so two expressions that differ
/// only in their values give the same SQL text (see ``RequestShape``).
indirect enum ExpressionNode: Sendable {
    case column(Column)
    case value(QueryValue)
    /// SQL written by the caller, rendered in parentheses, with its own arguments.
    case literal(String, StatementArguments)
    case null
    /// `count(*)`.
    case countAll
    /// `NOT e` or `-e`.
    case unary(UnaryOperator, ExpressionNode)
    /// `l op r`. An equality or inequality with a value that has several stored forms (a UUID) renders as
    /// `IN` / `NOT IN` those forms, and with NULL as `IS NULL` / `IS NOT NULL`.
    case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    /// `e IS NULL`, `e IS NOT NULL`.
    case isNull(ExpressionNode, negated: Bool)
    /// `e IN (...)`, `e NOT IN (...)` a list of values.
    case list(ExpressionNode, [QueryValue], negated: Bool)
    /// `e BETWEEN l AND u`, `e NOT BETWEEN l AND u`.
    case between(ExpressionNode, ExpressionNode, ExpressionNode, negated: Bool)
    /// `e LIKE p`, or with `ESCAPE '\'` when the pattern is search text whose wildcards were escaped.
    case like(ExpressionNode, ExpressionNode, escaped: Bool, negated: Bool)
    /// `e COLLATE name`.
    case collate(ExpressionNode, String)
    /// `hasPrefix`, `contains`, `hasSuffix` of search text (`caseFolded`: their case-insensitive twins),
    /// written in the form the dialect needs (see ``SearchTextMatch``).
    case textMatch(ExpressionNode, String, SearchTextMatch, caseFolded: Bool)
    /// An aggregate or scalar function of the library's choosing: `count`, `sum`, `min`, ...
    case function(SQLFunction, [ExpressionNode], distinct: Bool)
    /// `e AS "name"`, in selections.
    case alias(ExpressionNode, String)
    /// A correlated subquery on an association's child table (`EXISTS (...)`, `(SELECT count(*) ...)`).
    case subquery(AssociationSubquery)
}

enum UnaryOperator: UInt8, Sendable {
    case not, negate
}

enum BinaryOperator: UInt8, Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case and, or
    case add, subtract, multiply, divide
    case concatenate

    /// The operator as SQL, with spaces around it.
    var sql: String {
        switch self {
        case .equal: return " = "
        case .notEqual: return " <> "
        case .less: return " < "
        case .lessOrEqual: return " <= "
        case .greater: return " > "
        case .greaterOrEqual: return " >= "
        case .and: return " AND "
        case .or: return " OR "
        case .add: return " + "
        case .subtract: return " - "
        case .multiply: return " * "
        case .divide: return " / "
        case .concatenate: return " || "
        }
    }

    /// How tightly the operator binds, as in SQLite's grammar (<https://www.sqlite.org/lang_expr.html>):
    /// larger binds tighter.
    var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .equal, .notEqual: return 4
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return 5
        case .add, .subtract: return 7
        case .multiply, .divide: return 8
        case .concatenate: return 9
        }
    }

    /// True for the comparisons, whose sides compare as one value: a value on one side is encoded for the
    /// column on the other.
    var isComparison: Bool { precedence == 4 || precedence == 5 }
}

/// The functions requests write.
enum SQLFunction: UInt8, Sendable {
    case count, sum, min, max, average, total
    /// The library's Unicode case folding, registered on every connection (see `Database.caseFoldFunctionName`).
    case caseFold
    /// The scalar functions the text matchers write (``SearchTextMatch``). `instr`, `lower` and `hex` read
    /// the whole value, past any U+0000 in it; `substr` of text stops at one, so it is given `hex` text only.
    case instr, lower, substr, hex

    var name: String {
        switch self {
        case .count: return "count"
        case .sum: return "sum"
        case .min: return "min"
        case .max: return "max"
        case .average: return "avg"
        case .total: return "total"
        case .caseFold: return Database.caseFoldFunctionName
        case .instr: return "instr"
        case .lower: return "lower"
        case .substr: return "substr"
        case .hex: return "hex"
        }
    }
}

/// A value in an expression, before or after conversion.
package enum QueryValue: Sendable {
    /// A Swift value, encoded with the record type's encoder when the request runs.
    case encodable(any Encodable & Sendable)
    /// Values already converted (the `where:` dictionaries): the stored forms that count as equal, the
    /// first the one bound elsewhere; empty for NULL.
    case forms([SQLiteValue])
    /// Search text, matched literally: its `%`, `_` and `\` are escaped before `%` wildcards are added.
    case searchText(String, SearchTextMatch)
}
