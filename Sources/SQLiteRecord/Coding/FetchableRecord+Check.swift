extension FetchableRecord where Self: Equatable {
    /// Reads every row `sql` returns through ``init(row:)`` and through `Decodable`'s `init(from:)`, and
    /// throws at the first row where the two differ: a test that keeps a hand-written row initializer in step
    /// with the type's `Decodable` conformance.
    ///
    /// ```swift
    /// func testPlanetReadsAlikeBothWays() throws {
    ///     try queue.read { db in
    ///         XCTAssertEqual(try Planet.checkRowInitializer(db, sql: "SELECT * FROM planets"), 3)
    ///     }
    /// }
    /// ```
    /// Two results agree when both are values that compare equal, or both are errors (a row that one
    /// initializer refuses, the other must refuse too). Include rows with NULLs and the edge values your
    /// schema allows, so that both paths meet them.
    /// - Returns: the number of rows checked.
    /// - Throws: ``RowInitializerMismatch`` naming the row and both results, or ``DatabaseError`` for SQL
    ///   that SQLite rejects.
    @discardableResult
    public static func checkRowInitializer(
        _ db: Database, sql: String, arguments: StatementArguments = [], decoder: RowDecoder = RowDecoder()
    ) throws -> Int {
        try check(db, sql: sql, arguments: arguments, tableName: nil, decoder: decoder)
    }

    /// Runs `sql` and compares the two initializers on each row; `tableName` as the fetch that reads the
    /// rows (nil for raw SQL).
    static func check(
        _ db: Database, sql: String, arguments: StatementArguments, tableName: String?, decoder: RowDecoder
    ) throws -> Int {
        try db.withStatement(sql: sql, arguments: arguments) { statement in
            let rowInitializer = RowDecodingContext(
                statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil,
                decoder: decoder)
            let decodable = RowDecodingContext(
                statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil,
                decoder: decoder)
            decodable.ignoresRowInitializers = true
            var count = 0
            while try statement.step() {
                try compareRowInitializer(
                    Result { try rowInitializer.decodeRow(Self.self) }, Result { try decodable.decodeRow(Self.self) },
                    rowIndex: count, row: Row(statement: statement, layout: RowLayout(statement: statement)))
                count += 1
            }
            return count
        }
    }

    /// Compares one row read through ``init(row:)`` (`viaRow`) and through `init(from:)` (`viaDecodable`):
    /// they agree when both are values that compare equal, or both are errors. Each engine's check calls it
    /// once per row.
    /// - Throws: ``RowInitializerMismatch`` with `rowIndex` and `row` when they disagree.
    @_spi(RecordEngine)
    public static func compareRowInitializer(
        _ viaRow: Result<Self, any Error>, _ viaDecodable: Result<Self, any Error>, rowIndex: Int,
        row: @autoclosure () -> Row
    ) throws {
        switch (viaRow, viaDecodable) {
        case (.success(let left), .success(let right)) where left == right: return
        case (.failure, .failure): return
        default:
            throw RowInitializerMismatch(
                type: Self.self, rowIndex: rowIndex, row: row(), rowInitializerResult: describe(viaRow),
                decodableResult: describe(viaDecodable))
        }
    }

    private static func describe(_ result: Result<Self, any Error>) -> String {
        switch result {
        case .success(let value): return "\(value)"
        case .failure(let error): return "an error: \(error)"
        }
    }
}

extension FetchableRecord where Self: Record & Equatable {
    /// Reads every row of the record's table as ``Record/fetch(_:where:orderBy:limit:offset:)`` does (with
    /// ``Record/rowDecoder``), through ``init(row:)`` and through `init(from:)`, and throws at the first row
    /// where the two differ. The same check on either engine: pass SQLite's ``Database`` or a
    /// `PostgresConnection`.
    ///
    /// ```swift
    /// try queue.read { db in XCTAssertEqual(try Planet.checkRowInitializer(db), 3) }
    /// try await pool.read { connection in XCTAssertEqual(try Planet.checkRowInitializer(connection), 3) }
    /// ```
    /// - Returns: the number of rows checked.
    /// - Throws: ``RowInitializerMismatch`` naming the row and both results, or the engine's error when the
    ///   table is missing (``DatabaseError`` on SQLite, `PostgresError` on PostgreSQL).
    @discardableResult
    public static func checkRowInitializer(_ db: some DatabaseConnection) throws -> Int {
        try db.checkRowInitializer(of: Self.self)
    }
}

extension Database {
    /// SQLite's side of ``FetchableRecord/checkRowInitializer(_:)``: every row of `type`'s table, as its
    /// fetches read them.
    @_spi(RecordEngine)
    public func checkRowInitializer<R: Record & FetchableRecord & Equatable>(of type: R.Type) throws -> Int {
        try R.check(
            self, sql: RecordSQL.selectAll(from: R.tableName), arguments: [], tableName: R.tableName,
            decoder: R.rowDecoder)
    }
}
