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

    init(result: PostgresResult, sql: String) {
        self.result = result
        self.sql = sql
        columnNames = result.columnNames
    }

    /// The number of rows.
    public var count: Int { result.rowCount }

    /// The rows an INSERT, UPDATE or DELETE touched.
    public var affectedRows: Int { result.affectedRows }

    /// Row `index` (from 0).
    public subscript(index: Int) -> PostgresRow { PostgresRow(rows: self, index: index) }

    /// The column a coding key reads: the key's string, the column name it stands for, and that column's
    /// index (nil when the result has no such column).
    struct KeyColumn {
        let key: String
        let name: String
        let index: Int?
    }

    /// The coding keys looked up in the first row, in the order a `Decodable` type asked for them, with the
    /// column each found; and where the next lookup is expected among them. A synthesized `init(from:)`
    /// asks for its keys in the same order in every row, so past the first row a key's column is one string
    /// comparison (equal literal strings compare by their bits): no renaming lookup, no name search. The
    /// order belongs to one key type and one renaming (`keyType`); a key asked out of that order, or of
    /// another key type (a `superDecoder` of a class), is found as in the first row.
    private var keyOrder: [KeyColumn] = []
    private var keyPosition = 0
    /// True once the first row's lookups are all recorded.
    private var keyOrderComplete = false
    /// The key type and whether keys are renamed, of the recorded order.
    private var keyType: (type: ObjectIdentifier, renamed: Bool)?

    /// The column of coding key `key` of type `Key`, renamed through `names` (coding key to column name)
    /// when given: an exact match of the name first, then ASCII case-insensitively.
    func column<Key: CodingKey>(for key: Key, names: [String: String]?) -> KeyColumn {
        let string = key.stringValue
        let type = (ObjectIdentifier(Key.self), names != nil)
        if let keyType, keyType == type {
            if keyPosition < keyOrder.count, keyOrder[keyPosition].key == string {
                keyPosition += 1
                return keyOrder[keyPosition - 1]
            }
            if let first = keyOrder.first, first.key == string {
                // The next row begins.
                keyOrderComplete = true
                keyPosition = 1
                return first
            }
        } else if keyType != nil {
            // Another key type: found without the recorded order, which stays for the type that made it.
            let name = names?[string] ?? string
            return KeyColumn(key: string, name: name, index: columnIndex(name))
        } else {
            keyType = type
        }
        let name = names?[string] ?? string
        let found = KeyColumn(key: string, name: name, index: columnIndex(name))
        if !keyOrderComplete, keyPosition == keyOrder.count, keyOrder.count < 4 * columnNames.count + 4 {
            keyOrder.append(found)
            keyPosition += 1
        }
        return found
    }

    /// The column named `name`: an exact match first (the first column of a name wins, as PostgreSQL
    /// resolves an ambiguous name in ORDER BY), then ASCII case-insensitively. A linear search: it runs for
    /// the first row's keys only, and a result has a few dozen columns at most, where it is cheaper than
    /// building a hash table per result.
    func columnIndex(_ name: String) -> Int? {
        if let index = columnNames.firstIndex(of: name) { return index }
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
