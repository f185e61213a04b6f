#if PostgreSQL
import Foundation
import SQLiteRecord

extension Record {
    /// The records a query of your own returns, with `$1`, `$2`... bound to `arguments`.
    /// - Throws: ``PostgresError`` for SQL the server rejects, `DecodingError` as `fetch(_:where:orderBy:limit:offset:)`.
    public static func fetch(
        _ connection: PostgresConnection, sql: String, arguments: [PostgresValue] = []
    ) throws -> [Self] {
        try decodeAll(
            connection.query(sql, arguments), shape: try PostgresRecordShape.of(Self.self),
            missingOptionalColumnIsNil: true)
    }

    /// ``fetch(_:sql:arguments:)`` in a read-only transaction of a pool (on a replica pool, a replica).
    /// - Throws: as ``fetch(_:sql:arguments:)``.
    public static func fetch(
        _ pool: some AsyncDatabaseWriter<PostgresConnection>, sql: String, arguments: [PostgresValue] = []
    ) async throws -> [Self] where Self: Sendable {
        try await pool.read { connection in try fetch(connection, sql: sql, arguments: arguments) }
    }

    /// Every row of `rows` decoded as a record of this type, through one decoder (see
    /// ``PostgresRowDecoding``). `missingOptionalColumnIsNil` is true for raw SQL, false (the default) where
    /// the library wrote the SELECT from the table (``PostgresRowReader/missingOptionalColumnIsNil``).
    static func decodeAll(
        _ rows: PostgresRows, shape: PostgresRecordShape, missingOptionalColumnIsNil: Bool = false
    ) throws -> [Self] {
        try PostgresRowDecoding.decodeAll(
            Self.self, rows, columnNames: shape.decoderNames, jsonDecoder: shape.jsonDecoder,
            missingOptionalColumnIsNil: missingOptionalColumnIsNil)
    }

    /// Row `row` of `rows`, a SELECT the library wrote from the table, decoded as a record of this type.
    static func decode(_ rows: PostgresRows, row: Int, shape: PostgresRecordShape) throws -> Self {
        try PostgresRowDecoding.decodeOne(
            Self.self, rows, row: row, columnNames: shape.decoderNames, jsonDecoder: shape.jsonDecoder,
            missingOptionalColumnIsNil: false)
    }
}

/// The condition and arguments of a `where:` dictionary, its columns checked against the table's.
struct PostgresFilter {
    /// The columns, sorted, and whether each is compared with NULL (`IS NULL`, no argument).
    let columns: [String]
    let nulls: [Bool]
    let arguments: [PostgresValue]

    /// `"a" = $1 AND "b" IS NULL`, numbered from `$1`.
    var condition: String { RecordSQL.equalities(zip(columns, nulls).map { ($0, $1) }, dialect: .postgres) }

    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key the table has no column
    ///   for, `EncodingError` for a value PostgreSQL cannot store (nested values are written by the record's
    ///   JSON encoder, as a save writes them).
    init(_ conditions: [String: (any Encodable)?], shape: PostgresRecordShape, connection: PostgresConnection) throws {
        // Sorted, so that one set of keys gives one SQL text and one prepared statement.
        let names = conditions.keys.sorted()
        try connection.checkColumns(names, of: shape.table)
        var arguments: [PostgresValue] = []
        var nulls: [Bool] = []
        nulls.reserveCapacity(names.count)
        for name in names {
            // Refused as a request's filter value is on both engines: the table, the column, the type, why.
            let value: PostgresValue
            do {
                value = try conditions[name].flatMap { $0 }.map {
                    try PostgresValueWriter.value(
                        $0, codingPath: [PostgresColumnKey(name)], jsonEncoder: shape.jsonEncoder)
                } ?? .null
            } catch let EncodingError.invalidValue(refused, context) {
                throw RecordError.invalidQueryValue(
                    table: shape.table, column: name, type: "\(type(of: refused))", reason: context.debugDescription)
            }
            nulls.append(value.isNull)
            if !value.isNull { arguments.append(value) }
        }
        columns = names
        self.nulls = nulls
        self.arguments = arguments
    }
}

extension PostgresConnection {
    /// The table's column names, in order, from `information_schema.columns` (the first schema of the
    /// search path that has the table); kept until the next `execute(_:)` of DDL on this connection.
    /// - Throws: ``PostgresError``.
    public func columns(of table: String) throws -> [String] {
        if let known = tableColumnsCache[table] { return known }
        let rows = try query(
            """
            SELECT column_name::text FROM information_schema.columns
            WHERE table_name = $1 AND table_schema = (
                SELECT n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.oid = to_regclass(quote_ident($1)))
            ORDER BY ordinal_position
            """, [try PostgresValue(text: table)])
        let names = try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }
        if !names.isEmpty { tableColumnsCache[table] = names }
        return names
    }

    /// Throws ``RecordError/unknownColumn(table:column:columns:)`` for the first of `names` the table does
    /// not have. A table with no columns found (missing) is left for the server to report. A name longer than
    /// PostgreSQL's identifiers is compared as the server stores it, cut to its first 63 bytes.
    func checkColumns(_ names: [String], of table: String) throws {
        guard !names.isEmpty else { return }
        var columns = try self.columns(of: table)
        guard !columns.isEmpty else { return }
        for name in names where !columns.contains(PostgresColumnLayout.storedName(name)) {
            // Another connection may have added the column since this one read the table.
            tableColumnsCache[table] = nil
            columns = try self.columns(of: table)
            if !columns.contains(PostgresColumnLayout.storedName(name)) {
                throw RecordError.unknownColumn(table: table, column: name, columns: columns)
            }
        }
    }

    /// ``checkColumns(_:of:)`` for the columns of an association's link, with the error SQLite's check of the
    /// link gives: ``RecordError/invalidAssociation(association:reason:)`` naming the declaration, the table
    /// and its columns, and for a foreign key column, that `using:` names it.
    func checkColumns(_ names: [String], of table: String, for link: AssociationLink, areForeignKeys: Bool) throws {
        do {
            try checkColumns(names, of: table)
        } catch RecordError.unknownColumn(let table, let column, let columns) {
            throw RecordError.invalidAssociation(
                association: link.description,
                reason: AssociationLink.missingColumnReason(
                    column, table: table, columns: columns, isForeignKey: areForeignKeys))
        }
    }

}
#endif
