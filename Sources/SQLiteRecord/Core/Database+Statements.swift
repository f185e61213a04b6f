extension Database {
    /// Runs `body` with the cached statement for `sql`, bound to `arguments`, then resets the statement and
    /// clears its bindings, so that it holds no lock and no copy of the values, and can be used again.
    ///
    /// While `body` runs the statement is checked out: a nested call with the same SQL gets a statement of
    /// its own instead of rebinding this one.
    /// - Throws: ``DatabaseError`` from preparing or binding, or what `body` throws.
    func withStatement<T>(
        sql: String, arguments: StatementArguments, _ body: (Statement) throws -> T
    ) throws -> T {
        try withCheckedOut(statementFromCache(sql: sql), arguments: arguments, body)
    }

    /// Runs `body` with `statement`, a cached statement that is not in use, as ``withStatement(sql:arguments:_:)``
    /// does.
    func withCheckedOut<T>(
        _ statement: Statement, arguments: StatementArguments, _ body: (Statement) throws -> T
    ) throws -> T {
        statement.isCheckedOut = true
        defer {
            statement.resetAndClearBindings()
            statement.isCheckedOut = false
        }
        try statement.bind(arguments)
        return try body(statement)
    }

    /// The first column of the first row `sql` returns, as an integer; nil when there is no row or the value
    /// is NULL. For `count(*)` and the like.
    /// - Throws: ``DatabaseError`` from preparing, binding or stepping.
    func integerScalar(sql: String, arguments: StatementArguments = []) throws -> Int64? {
        try withStatement(sql: sql, arguments: arguments) { statement in
            guard try statement.step(), !statement.isNull(at: 0) else { return nil }
            return statement.int64(at: 0)
        }
    }
}
