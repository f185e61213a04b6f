#if PostgreSQL
import Foundation
import SQLiteRecord

/// Running a request on PostgreSQL (what `PostgresConnection` answers for the engine-neutral request calls
/// of `QueryInterfaceRequest`): the same request as on SQLite (`City.filter(...).order(...).limit(...)`),
/// compiled by the same compiler in PostgreSQL's dialect: `$n` parameters, `ILIKE` for the text matchers,
/// `= ANY($n)` with one array for a long list. Column names are checked against the table before anything
/// runs, and every value is bound, encoded as ``Record/insert(_:)`` stores it.
///
/// ```swift
/// let big = try City.filter(Column("population") > 1_000_000).order(Column("name").ascending).limit(10)
///     .fetch(connection)
/// // SELECT * FROM "cities" WHERE "population" > $1 ORDER BY "name" ASC LIMIT $2
/// ```
extension QueryInterfaceRequest {
    /// The records the request selects.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column the table does not have,
    ///   ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value PostgreSQL cannot hold (text
    ///   with U+0000), ``RecordError/invalidQuery(table:reason:)`` for what PostgreSQL requests do not have
    ///   (a raw FTS5 pattern) and for a search on a table without its full-text index, all before anything
    ///   runs; ``PostgresError`` for SQL the server refuses (42P01 for
    ///   a missing table); `DecodingError` naming the column whose value does not fit.
    func fetch(_ connection: PostgresConnection) throws -> [Base] {
        let (sql, arguments, shape) = try postgresSQL(connection, .select)
        // A selection of the caller's own may leave a property's column out, as raw SQL may.
        return try Base.decodeAll(
            connection.query(sql, arguments), shape: shape, missingOptionalColumnIsNil: !selectsTableColumns)
    }

    /// The first record the request selects, or nil.
    /// - Throws: as `fetch(_:)`.
    func fetchOne(_ connection: PostgresConnection) throws -> Base? {
        try limitedToOne.fetch(connection).first
    }

    /// The selected columns of every row decoded as `type` (a type of your own, or `Int`, `String`... for a
    /// selection of one column), as on SQLite.
    /// - Throws: as `fetch(_:)`.
    func fetch<T: Decodable>(_ connection: PostgresConnection, as type: T.Type) throws -> [T] {
        let (sql, arguments, shape) = try postgresSQL(connection, .select)
        return try connection.query(sql, arguments).decode(T.self, jsonDecoder: shape.jsonDecoder)
    }

    /// The first selected row decoded as `type`, or nil when there is none; a single value that is NULL
    /// (the `max` of no rows) is nil too.
    /// - Throws: as `fetch(_:)`.
    func fetchOne<T: Decodable>(_ connection: PostgresConnection, as type: T.Type) throws -> T? {
        let (sql, arguments, shape) = try limitedToOne.postgresSQL(connection, .select)
        let rows = try connection.query(sql, arguments)
        guard rows.count > 0 else { return nil }
        if rows.columnNames.count == 1, case .null = rows.result.cell(row: 0, column: 0) { return nil }
        return try rows[0].decode(T.self, jsonDecoder: shape.jsonDecoder)
    }

    /// The number of rows the request selects: `SELECT count(*) FROM "table" WHERE ...`, or counted in a
    /// subquery when the request is grouped, distinct or limited.
    /// - Throws: as `fetch(_:)`, except decoding.
    func count(_ connection: PostgresConnection) throws -> Int {
        let (sql, arguments, _) = try postgresSQL(connection, .count)
        return Int(try connection.query(sql, arguments)[0].decode(Int64.self, at: 0))
    }

    /// True when the request selects at least one row: `SELECT EXISTS (SELECT ...)`.
    /// - Throws: as `count(_:)`.
    func exists(_ connection: PostgresConnection) throws -> Bool {
        let (sql, arguments, _) = try postgresSQL(connection, .exists)
        return try connection.query(sql, arguments)[0].decode(Bool.self, at: 0)
    }

    /// Deletes every row the request selects, without decoding them (callbacks are not called, as on
    /// SQLite). A request with a limit deletes the rows it would fetch, in its order (`WHERE "id" IN (SELECT
    /// "id" ... LIMIT $n)`, by the record type's key).
    /// - Returns: how many rows were deleted.
    /// - Throws: as `fetch(_:)`, ``RecordError/invalidQuery(table:reason:)`` for a
    ///   grouped request, ``PostgresError`` (23503 when another row still references one).
    @discardableResult
    func deleteAll(_ connection: PostgresConnection) throws -> Int {
        let (sql, arguments, _) = try postgresSQL(connection, .delete)
        return try connection.execute(sql, arguments)
    }

    /// Sets columns of every row the request selects in one UPDATE, without decoding them:
    /// `updateAll(connection, Column("population").set(to: Column("population") + 1))`.
    /// - Returns: how many rows were updated; 0, running nothing, when `assignments` is empty.
    /// - Throws: as `deleteAll(_:)`, and ``PostgresError`` for a constraint the new
    ///   values break.
    @discardableResult
    func updateAll(_ connection: PostgresConnection, _ assignments: ColumnAssignment...) throws -> Int {
        try updateAll(connection, assignments)
    }

    /// `updateAll(_:_:)` with the assignments in an array.
    /// - Throws: as `deleteAll(_:)`.
    @discardableResult
    func updateAll(_ connection: PostgresConnection, _ assignments: [ColumnAssignment]) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        let (sql, arguments, _) = try postgresSQL(connection, .update, assignments: assignments)
        return try connection.execute(sql, arguments)
    }

    /// The request as PostgreSQL SQL and its arguments, its columns checked against the table (aliases of
    /// the selection count as columns for ORDER BY and HAVING). A `leadingCondition` (SQL numbering its
    /// parameters from `$1`, with its arguments) is written first in a SELECT's WHERE clause, ANDed with the
    /// request's filter.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)``,
    ///   ``RecordError/invalidQueryValue(table:column:type:reason:)``, ``RecordError/invalidQuery(table:reason:)``,
    ///   ``PostgresError`` reading the table's columns.
    func postgresSQL(
        _ connection: PostgresConnection, _ statement: RequestStatement, assignments: [ColumnAssignment] = [],
        leadingCondition: (sql: String, arguments: PostgresArguments)? = nil
    ) throws -> (sql: String, arguments: [PostgresValue], shape: PostgresRecordShape) {
        let shape = try PostgresRecordShape.of(Base.self)
        var compiler = RequestCompiler(
            binding: PostgresRequestBinding<Base>(shape: shape), table: shape.table, isWriting: true)
        compiler.joinFilter = leadingCondition
        try compiler.compile(parts, as: statement, assignments: assignments) { shape.key.columns }
        let arguments = try compiler.arguments.checked(table: shape.table)
        let aliases = Set(compiler.aliases)
        try connection.checkColumns(compiler.columns.filter { !aliases.contains($0) }, of: shape.table)
        if let index = fullTextIndexName { try checkFullTextIndex(index, connection, table: shape.table) }
        return (compiler.sql, arguments, shape)
    }

    /// Throws, before anything runs, when the table has no column `index`, the `tsvector` column a search
    /// reads: the index was never created, and the server's "column does not exist" would not say how to
    /// create it.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` naming the column and the calls that create it.
    private func checkFullTextIndex(_ index: String, _ connection: PostgresConnection, table: String) throws {
        do {
            try connection.checkColumns([index], of: table)
        } catch RecordError.unknownColumn {
            throw RecordError.invalidQuery(
                table: table,
                reason: "a search needs the full-text index of \(Base.self), the tsvector column \"\(index)\", "
                    + "which the table does not have: create it with try \(Base.self).createFullTextIndex(in: "
                    + "connection), or in a PostgresMigrator with migrator.registerFullTextIndex(\"...\", for: "
                    + "\(Base.self).self)")
        }
    }
}
#endif
