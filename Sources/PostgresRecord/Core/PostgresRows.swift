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
    /// The result's column names, in order.
    public let columnNames: [String]
    private var indexes: [String: Int] = [:]

    init(result: PostgresResult, sql: String) {
        self.result = result
        self.sql = sql
        columnNames = result.columnNames
        // The first column of a name wins, as PostgreSQL resolves an ambiguous name in ORDER BY.
        for (index, name) in columnNames.enumerated().reversed() { indexes[name] = index }
    }

    /// The number of rows.
    public var count: Int { result.rowCount }

    /// The rows an INSERT, UPDATE or DELETE touched.
    public var affectedRows: Int { result.affectedRows }

    /// Row `index` (from 0).
    public subscript(index: Int) -> PostgresRow { PostgresRow(rows: self, index: index) }

    /// The names looked up in the first row, in the order they were asked for, with what each found; and
    /// where the next lookup is expected among them. A `Decodable` type asks for its keys in the same order
    /// in every row, so past the first row a lookup is one string comparison (equal literal strings compare
    /// by their bits) instead of a hash. A name asked out of that order is found as in the first row.
    private var lookupOrder: [(name: String, index: Int?)] = []
    private var lookupPosition = 0
    /// True once the first row's lookups are all recorded.
    private var lookupOrderComplete = false

    /// The column named `name`: an exact match first, then ASCII case-insensitively.
    func columnIndex(_ name: String) -> Int? {
        if lookupPosition < lookupOrder.count, lookupOrder[lookupPosition].name == name {
            lookupPosition += 1
            return lookupOrder[lookupPosition - 1].index
        }
        if let first = lookupOrder.first, first.name == name {
            // The next row begins.
            lookupOrderComplete = true
            lookupPosition = 1
            return first.index
        }
        let index = resolve(name)
        if !lookupOrderComplete, lookupPosition == lookupOrder.count, lookupOrder.count < 4 * columnNames.count + 4 {
            lookupOrder.append((name, index))
            lookupPosition += 1
        }
        return index
    }

    private func resolve(_ name: String) -> Int? {
        if let index = indexes[name] { return index }
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }
    }

    /// Every row decoded as `T`, whose coding keys name columns.
    /// - Throws: `DecodingError` naming the column whose value does not fit (see ``PostgresRow/decode(_:)``).
    public func decode<T: Decodable>(_ type: T.Type) throws -> [T] {
        var values: [T] = []
        values.reserveCapacity(count)
        for index in 0..<count { values.append(try self[index].decode(T.self)) }
        return values
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
        // A value of one column (`SELECT count(*)`), rather than a struct of several.
        if rows.columnNames.count == 1, PostgresValueReader.readsDirectly(T.self) { return try decode(T.self, at: 0) }
        return try T(from: PostgresRowDecoder(rows: rows, row: index))
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
