extension Database {
    /// Every row `sql` returns, decoded as `T`: a `Decodable` struct whose coding keys name columns, or, for
    /// a query of one column, a single value.
    ///
    /// ```swift
    /// let names = try db.fetchAll(String.self, sql: "SELECT name FROM cities ORDER BY name")
    /// ```
    /// - Throws: ``DatabaseError`` for SQL that SQLite rejects, or `DecodingError` naming the column whose
    ///   value does not fit `T` (NULL into a non-optional is `valueNotFound`).
    public func fetchAll<T: Decodable>(
        _ type: T.Type, sql: String, arguments: StatementArguments = [], decoder: RowDecoder = RowDecoder()
    ) throws -> [T] {
        try withStatement(sql: sql, arguments: arguments) { statement in
            try decoder.decodeAll(type, from: statement)
        }
    }

    /// The first row `sql` returns, decoded as `T`, or nil when it returns none.
    /// - Throws: as ``fetchAll(_:sql:arguments:decoder:)``.
    public func fetchOne<T: Decodable>(
        _ type: T.Type, sql: String, arguments: StatementArguments = [], decoder: RowDecoder = RowDecoder()
    ) throws -> T? {
        try withStatement(sql: sql, arguments: arguments) { statement in
            guard try statement.step() else { return nil }
            return try decoder.decode(type, from: statement)
        }
    }
}
