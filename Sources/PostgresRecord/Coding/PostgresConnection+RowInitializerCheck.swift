#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

extension FetchableRecord where Self: Equatable {
    /// Reads every row `sql` returns through ``init(row:)`` and through `Decodable`'s `init(from:)`, and
    /// throws at the first row where the two differ: PostgreSQL's form of SQLite's
    /// `checkRowInitializer(_:sql:arguments:decoder:)`, a test that keeps a hand-written row initializer in
    /// step with the type's `Decodable` conformance.
    ///
    /// ```swift
    /// XCTAssertEqual(try Planet.checkRowInitializer(connection, sql: "SELECT * FROM planets WHERE id < $1", arguments: [4]), 3)
    /// ```
    /// Two results agree when both are values that compare equal, or both are errors. As in
    /// `fetch(_:sql:arguments:)`, an Optional property with no column in the result is nil on both paths.
    /// - Parameters:
    ///   - sql: the query, with `$1`, `$2`... bound to `arguments`.
    ///   - decoder: its `jsonDecoder` reads nested values (JSONB columns) on both paths.
    /// - Returns: the number of rows checked.
    /// - Throws: ``RowInitializerMismatch`` naming the row and both results, or ``PostgresError`` for SQL
    ///   the server rejects.
    @discardableResult
    public static func checkRowInitializer(
        _ connection: PostgresConnection, sql: String, arguments: [PostgresValue] = [],
        decoder: RowDecoder = RowDecoder()
    ) throws -> Int {
        try connection.checkRowInitializer(
            Self.self, rows: connection.query(sql, arguments), columnNames: nil, jsonDecoder: decoder.jsonDecoder,
            missingOptionalColumnIsNil: true)
    }
}

extension PostgresConnection {
    /// PostgreSQL's side of `checkRowInitializer(_:)`: every row of `type`'s table, read as its fetches read
    /// them (its column renaming and JSON decoder; an Optional with no column throws).
    @_spi(RecordEngine)
    public func checkRowInitializer<R: Record & FetchableRecord & Equatable>(of type: R.Type) throws -> Int {
        let shape = try PostgresRecordShape.of(R.self)
        return try checkRowInitializer(
            R.self, rows: query(RecordSQL.selectAll(from: shape.table)), columnNames: shape.decoderNames,
            jsonDecoder: shape.jsonDecoder, missingOptionalColumnIsNil: false)
    }

    /// Each row of `rows` read both ways, through a reader of its own for each (a check, not a hot path).
    /// - Throws: ``RowInitializerMismatch`` at the first row read differently.
    func checkRowInitializer<R: FetchableRecord & Equatable>(
        _ type: R.Type, rows: PostgresRows, columnNames: [String: String]?, jsonDecoder: JSONDecoder,
        missingOptionalColumnIsNil: Bool
    ) throws -> Int {
        func reader(_ row: Int) -> PostgresRowReader {
            PostgresRowReader(
                rows: rows, row: row, columnNames: columnNames, jsonDecoder: jsonDecoder,
                missingOptionalColumnIsNil: missingOptionalColumnIsNil)
        }
        for row in 0..<rows.count {
            try R.compareRowInitializer(
                Result { try PostgresRowInitializer.make(R.self, reader(row), as: R.self) },
                Result { try R(from: PostgresRowDecoder(decoding: PostgresRowDecoding(reader: reader(row)))) },
                rowIndex: row, row: Self.messageRow(rows, row: row))
        }
        return rows.count
    }

    /// Row `row` of `rows` as a ``Row`` for ``RowInitializerMismatch``: numbers, text and bytes as SQLite's
    /// values, every other type as its summary (`TIMESTAMPTZ 757382400000000 µs after 2000-01-01`).
    private static func messageRow(_ rows: PostgresRows, row: Int) -> Row {
        let values = rows.columnNames.indices.map { column -> SQLiteValue in
            switch rows.result.cell(row: row, column: column) {
            case .null: return .null
            case .integer(let value, _): return .integer(value)
            case .double(let value): return .real(value)
            case .float(let value): return .real(Double(value))
            case .bool(let value): return .integer(value ? 1 : 0)
            case .text(let value, _): return .text(value)
            case .bytea(let data): return .blob(data)
            case let cell: return .text(cell.summary)
            }
        }
        return Row(columnNames: rows.columnNames, values: values)
    }
}
#endif
