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
#endif
