/// `"column" = value` in the SET clause of a request's ``QueryInterfaceRequest/updateAll(_:_:)-(DatabaseConnection,[ColumnAssignment])``.
///
/// ```swift
/// try City.filter(Column("country_code") == "FR").updateAll(db, Column("population").set(to: Column("population") + 1))
/// ```
public struct ColumnAssignment: Sendable {
    let column: Column
    let value: ExpressionNode
}

extension ColumnExpression {
    /// Sets the column to `value`, bound as the record type's encoder stores it.
    public func set<Value: Encodable & Sendable>(to value: Value) -> ColumnAssignment {
        ColumnAssignment(column: column, value: .value(.encodable(value)))
    }

    /// Sets the column to an expression, evaluated for each row: `Column("population").set(to: Column("population") * 2)`.
    public func set(to expression: some SQLExpressible) -> ColumnAssignment {
        ColumnAssignment(column: column, value: expression.sqlExpression.node)
    }

    /// Sets the column to NULL: `Column("founded_at").set(to: nil)`.
    public func set(to value: _OptionalNilComparisonType) -> ColumnAssignment {
        ColumnAssignment(column: column, value: .null)
    }
}
