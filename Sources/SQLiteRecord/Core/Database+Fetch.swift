extension Database {
    /// Every row `sql` returns, each with its column names and values.
    ///
    /// ```swift
    /// let rows = try db.fetchAll(sql: "SELECT name, population FROM cities WHERE country_id = ?", arguments: [7])
    /// let names = try rows.map { try $0["name", as: String.self] }
    /// ```
    /// The statement is prepared once and cached. For many rows, ``fetchCursor(sql:arguments:)`` reads them
    /// without holding them all.
    /// - Throws: ``DatabaseError`` for SQL that SQLite rejects (with the SQL) or arguments that do not match
    ///   its parameters (see ``StatementArguments``).
    public func fetchAll(sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try withStatement(sql: sql, arguments: arguments) { statement in
            let layout = RowLayout(statement: statement)
            var rows: [Row] = []
            while try statement.step() {
                rows.append(Row(statement: statement, layout: layout))
            }
            return rows
        }
    }

    /// The first row `sql` returns, or nil when it returns none. The statement stops after that row.
    /// - Throws: as ``fetchAll(sql:arguments:)``.
    public func fetchOne(sql: String, arguments: StatementArguments = []) throws -> Row? {
        try withStatement(sql: sql, arguments: arguments) { statement in
            guard try statement.step() else { return nil }
            return Row(statement: statement, layout: RowLayout(statement: statement))
        }
    }

    /// A cursor over the rows `sql` returns, read one at a time as it is iterated: memory stays flat
    /// however many rows there are.
    ///
    /// ```swift
    /// let cursor = try db.fetchCursor(sql: "SELECT population FROM cities")
    /// while let row = try cursor.next() { total += try row[0, as: Int.self] }
    /// ```
    /// Use the cursor only where this connection is used, and let it go (or ``RowCursor/close()`` it) before
    /// leaving: while open it holds SQLite's read lock.
    /// - Throws: as ``fetchAll(sql:arguments:)``, for preparing and binding; errors while stepping come from
    ///   ``RowCursor/next()``.
    public func fetchCursor(sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        let statement = try cachedStatement(sql: sql)
        statement.isCheckedOut = true
        do {
            try statement.bind(arguments)
        } catch {
            statement.resetAndClearBindings()
            statement.isCheckedOut = false
            throw error
        }
        return RowCursor(statement: statement)
    }

    /// The first column of the first row `sql` returns, as `T`: FMDB's `intForQuery` and the
    /// `executeScalar` people wrap by hand, in one typed line.
    ///
    /// ```swift
    /// let count = try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? 0
    /// let name = try db.scalar(String.self, sql: "SELECT name FROM countries WHERE iso = ?", arguments: ["FR"])
    /// ```
    /// - Returns: nil when there is no row or the value is NULL.
    /// - Throws: ``DatabaseError`` as ``fetchAll(sql:arguments:)``, or with `SQLITE_MISMATCH` when the value
    ///   does not convert exactly to `T` (see ``SQLiteValueReadable``).
    public func scalar<T: SQLiteValueReadable>(
        _ type: T.Type, sql: String, arguments: StatementArguments = []
    ) throws -> T? {
        try withStatement(sql: sql, arguments: arguments) { statement in
            guard try statement.step(), statement.columnCount > 0 else { return nil }
            let value = statement.value(at: 0)
            if value == .null { return nil }
            guard let converted = T(sqliteValue: value) else {
                let name = statement.columnName(at: 0)
                throw Row.mismatch(value, column: "column \"\(name)\"", type: type, sql: sql)
            }
            return converted
        }
    }
}
