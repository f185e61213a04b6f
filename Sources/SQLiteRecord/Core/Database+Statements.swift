extension Database {
    /// Runs `body` with the cached statement for `sql`, bound to `arguments`, and resets the statement
    /// afterwards so it holds no lock and can be used again.
    /// - Throws: ``DatabaseError`` from preparing or binding, or what `body` throws.
    func withStatement<T>(
        sql: String, arguments: StatementArguments, _ body: (Statement) throws -> T
    ) throws -> T {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
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
