#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

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
extension PostgresConnection {
    @_spi(RecordEngine)
    public func fetchRecords<Base: Record>(_ request: QueryInterfaceRequest<Base>) throws -> [Base] {
        let (sql, arguments, shape) = try request.postgresSQL(self, .select)
        // A selection of the caller's own may leave a property's column out, as raw SQL may.
        return try Base.decodeAll(
            query(sql, arguments), shape: shape, missingOptionalColumnIsNil: !request.selectsTableColumns)
    }

    @_spi(RecordEngine)
    public func fetchValues<Base: Record, T: Decodable>(
        _ request: QueryInterfaceRequest<Base>, as type: T.Type, first: Bool
    ) throws -> [T] {
        let (sql, arguments, shape) = try (first ? request.limitedToOne : request).postgresSQL(self, .select)
        let rows = try query(sql, arguments)
        // The first row's single NULL (the `max` of no rows) is no value.
        if first, rows.count > 0, rows.columnNames.count == 1, case .null = rows.result.cell(row: 0, column: 0) {
            return []
        }
        return try rows.decode(T.self, jsonDecoder: shape.jsonDecoder)
    }

    @_spi(RecordEngine)
    public func countRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, exists: Bool) throws -> Int {
        let (sql, arguments, _) = try request.postgresSQL(self, exists ? .exists : .count)
        let row = try query(sql, arguments)[0]
        return exists ? (try row.decode(Bool.self, at: 0) ? 1 : 0) : Int(try row.decode(Int64.self, at: 0))
    }

    @_spi(RecordEngine)
    public func writeRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, assignments: [ColumnAssignment]?)
        throws -> Int
    {
        let (sql, arguments, _) = try request.postgresSQL(
            self, assignments == nil ? .delete : .update, assignments: assignments ?? [])
        return try run(sql, arguments).affectedRows
    }
}

extension QueryInterfaceRequest {
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
            binding: PostgresRequestBinding<Base>(shape: shape, connection: connection), table: shape.table,
            isWriting: true)
        compiler.joinFilter = leadingCondition
        try compiler.compile(parts, as: statement, assignments: assignments) { shape.key.columns }
        let arguments = try compiler.arguments.checked(table: shape.table)
        let aliases = Set(compiler.aliases)
        do {
            try connection.checkColumns(compiler.columns.filter { !aliases.contains($0) }, of: shape.table)
        } catch {
            throw linkError(error)
        }
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
                    + "connection), or in a DatabaseMigrator<PostgresConnection> with migrator.registerFullTextIndex(\"...\", for: "
                    + "\(Base.self).self)")
        }
    }
}
#endif
