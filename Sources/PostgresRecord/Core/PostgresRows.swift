#if PostgreSQL
import Foundation

/// The rows a query returned, read in PostgreSQL's binary form: decode a row as a `Decodable` type, or one
/// column's value.
///
/// ```swift
/// let rows = try connection.query("SELECT name, population FROM countries WHERE iso = $1", ["FR"])
/// let name = try rows[0].decode(String.self, column: "name")
/// let countries = try rows.decode(Country.self)
/// ```
public final class PostgresRows {
    let result: PostgresResult
    /// The SQL that returned these rows, for messages.
    let sql: String
    /// The columns, and the order the rows' coding keys are asked in: shared by every result of `sql` on
    /// its connection whose columns are the same.
    let layout: PostgresColumnLayout

    /// The result's column names, in order.
    public var columnNames: [String] { layout.names }

    init(result: PostgresResult, sql: String, layout: PostgresColumnLayout) {
        self.result = result
        self.sql = sql
        self.layout = layout
    }

    /// The number of rows.
    public var count: Int { result.rowCount }

    /// The rows an INSERT, UPDATE or DELETE touched.
    public var affectedRows: Int { result.affectedRows }

    /// Row `index` (from 0).
    public subscript(index: Int) -> PostgresRow { PostgresRow(rows: self, index: index) }

    /// The column named `name` (see ``PostgresColumnLayout/columnIndex(_:)``).
    func columnIndex(_ name: String) -> Int? { layout.columnIndex(name) }

    /// Every row decoded as `T`, whose coding keys name columns.
    /// - Throws: `DecodingError` naming the column whose value does not fit (see ``PostgresRow/decode(_:)``).
    public func decode<T: Decodable>(_ type: T.Type) throws -> [T] {
        try decode(T.self, jsonDecoder: PostgresValueReader.defaultJSONDecoder)
    }

    /// Every row decoded as `T`, nested values read by `jsonDecoder`.
    /// - Throws: as ``decode(_:)``.
    func decode<T: Decodable>(_ type: T.Type, jsonDecoder: JSONDecoder) throws -> [T] {
        if result.columnCount == 1, PostgresValueReader.readsDirectly(T.self) {
            let name = columnNames[0]
            return try (0..<count).map { row in
                try PostgresValueReader.read(
                    T.self, result.cell(row: row, column: 0), column: name, codingPath: [PostgresColumnKey(name)],
                    jsonDecoder: jsonDecoder)
            }
        }
        return try PostgresRowDecoding.decodeAll(
            T.self, self, columnNames: nil, jsonDecoder: jsonDecoder, missingOptionalColumnIsNil: true)
    }
}

/// One row of ``PostgresRows``.
public struct PostgresRow {
    /// The rows it belongs to.
    public let rows: PostgresRows
    /// Its index among them.
    public let index: Int

    /// The row decoded as `T`, whose coding keys name columns: the value table of <doc:PostgreSQL> applies
    /// to each.
    /// - Throws: `DecodingError.typeMismatch` when a column's type can never hold the property's type,
    ///   `.dataCorrupted` when it can but this value does not fit (out of range, a fraction), `.valueNotFound`
    ///   for NULL into a non-optional, `.keyNotFound` for a key the row has no column for; each names the
    ///   column.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(T.self, jsonDecoder: PostgresValueReader.defaultJSONDecoder)
    }

    /// The row decoded as `T`, nested values read by `jsonDecoder`.
    /// - Throws: as ``decode(_:)``.
    func decode<T: Decodable>(_ type: T.Type, jsonDecoder: JSONDecoder) throws -> T {
        // A value of one column (`SELECT count(*)`), rather than a struct of several.
        if rows.result.columnCount == 1, PostgresValueReader.readsDirectly(T.self) {
            let name = rows.columnNames[0]
            return try PostgresValueReader.read(
                T.self, rows.result.cell(row: index, column: 0), column: name, codingPath: [PostgresColumnKey(name)],
                jsonDecoder: jsonDecoder)
        }
        if let rowType = PostgresRowInitializer.type(of: T.self) {
            let reader = PostgresRowReader(
                rows: rows, row: index, columnNames: nil, jsonDecoder: jsonDecoder, missingOptionalColumnIsNil: true)
            return try PostgresRowInitializer.make(rowType, reader, as: T.self)
        }
        return try T(from: PostgresRowDecoder(rows: rows, row: index, jsonDecoder: jsonDecoder))
    }

    /// The value of the column named `column`, converted to `T` by the value table.
    /// - Throws: as ``decode(_:)``.
    public func decode<T: Decodable>(_ type: T.Type, column: String) throws -> T {
        let key = PostgresColumnKey(column)
        guard let at = rows.columnIndex(column) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: [],
                    debugDescription: "No column \"\(column)\" in the row; it has \(rows.columnNames)"))
        }
        return try PostgresValueReader.read(T.self, rows.result.cell(row: index, column: at), column: column, codingPath: [key])
    }

    /// The value of column `at` (from 0), converted to `T` by the value table.
    /// - Throws: as ``decode(_:)``.
    public func decode<T: Decodable>(_ type: T.Type, at column: Int) throws -> T {
        let name = column < rows.columnNames.count && column >= 0 ? rows.columnNames[column] : "#\(column)"
        return try PostgresValueReader.read(
            T.self, rows.result.cell(row: index, column: column), column: name, codingPath: [PostgresColumnKey(name)])
    }
}
#endif
