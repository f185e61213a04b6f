/// One result row: its column names and values, read by index or by name, raw or as a Swift type.
///
/// ```swift
/// if let row = try db.fetchOne(sql: "SELECT name, population FROM cities WHERE id = ?", arguments: [1]) {
///     let name = try row["name", as: String.self]
///     let population = try row["population", as: Int.self]
///     let founded = try row["founded_at", as: Date?.self]   // throws: the row has no such column
/// }
/// ```
///
/// A row holds its values: it stays valid after the statement moves on, and is `Sendable`. Names match as
/// SQLite matches column names, ASCII case-insensitively; when two columns share a name (a join), the
/// leftmost wins. Typed reads convert as ``SQLiteValueReadable`` says: exactly, or with a thrown error.
public struct Row: Sendable {
    /// The column names and the lookups by name, shared by every row of a statement.
    let layout: RowLayout
    /// The values, in column order.
    public let values: [SQLiteValue]

    init(layout: RowLayout, values: [SQLiteValue]) {
        self.layout = layout
        self.values = values
    }

    /// A row of `values` under `columnNames` (same count), for an engine whose results are not SQLite's:
    /// what its messages show (``RowInitializerMismatch/row``).
    @_spi(RecordEngine)
    public init(columnNames: [String], values: [SQLiteValue]) {
        self.init(layout: RowLayout(columnNames: columnNames, sql: nil), values: values)
    }

    /// Copies the current row of `statement`, whose columns `layout` describes.
    init(statement: Statement, layout: RowLayout) {
        self.layout = layout
        self.values = (0..<Int32(layout.columnNames.count)).map { statement.value(at: $0) }
    }

    /// The column names, in order, as SQLite reports them (the `AS` alias, or the column name).
    public var columnNames: [String] { layout.columnNames }

    /// The number of columns.
    public var count: Int { values.count }

    /// True when the row has a column named `name` (ASCII case-insensitively).
    public func hasColumn(_ name: String) -> Bool { layout.index(of: name) != nil }

    /// The value of column `index`, counted from 0. `index` must be less than ``count``, as with an array.
    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// The value of the column named `name` (ASCII case-insensitively), or nil when the row has no such
    /// column. A NULL value is ``SQLiteValue/null``, not nil.
    public subscript(name: String) -> SQLiteValue? {
        layout.index(of: name).map { values[$0] }
    }

    /// The value of column `index` as `T`, converted exactly.
    /// - Throws: ``DatabaseError`` with `SQLITE_RANGE` when there is no column `index`, or with
    ///   `SQLITE_MISMATCH` when the stored value does not convert exactly to `T` (NULL into a non-optional,
    ///   `70000` into an `Int16`, `1.5` into an `Int`, `2` into a `Bool`); the message names the column, the
    ///   stored value and `T`.
    public subscript<T: SQLiteValueReadable>(index: Int, as type: T.Type) -> T {
        get throws {
            guard values.indices.contains(index) else {
                throw DatabaseError(
                    resultCode: .range,
                    message: "no column \(index) in a row of \(values.count) column(s): \(listedColumns)",
                    sql: layout.sql)
            }
            return try convert(at: index, as: type)
        }
    }

    /// The value of the column named `name` (ASCII case-insensitively) as `T`, converted exactly. Ask for an
    /// Optional type to accept NULL: `row["founded_at", as: Date?.self]`.
    /// - Throws: ``DatabaseError`` with `SQLITE_RANGE` when the row has no such column (the message lists the
    ///   columns it has), or with `SQLITE_MISMATCH` when the stored value does not convert exactly to `T`.
    public subscript<T: SQLiteValueReadable>(name: String, as type: T.Type) -> T {
        get throws {
            guard let index = layout.index(of: name) else {
                throw DatabaseError(
                    resultCode: .range, message: "no column named \"\(name)\" in the row; it has \(listedColumns)",
                    sql: layout.sql)
            }
            return try convert(at: index, as: type)
        }
    }

    private func convert<T: SQLiteValueReadable>(at index: Int, as type: T.Type) throws -> T {
        let value = values[index]
        if let converted = T(sqliteValue: value) { return converted }
        throw Self.mismatch(value, column: layout.describeColumn(at: index), type: type, sql: layout.sql)
    }

    /// The error for `value`, read from `column`, that does not convert to `type`.
    static func mismatch(_ value: SQLiteValue, column: String, type: Any.Type, sql: String?) -> DatabaseError {
        let message: String
        if value == .null {
            message = "\(column) is NULL, which \(type) cannot hold; read it as \(type)? to accept NULL"
        } else {
            message = "\(column) holds \(value), which does not convert exactly to \(type)"
        }
        return DatabaseError(resultCode: .mismatch, message: message, sql: sql)
    }

    private var listedColumns: String {
        columnNames.isEmpty ? "no columns" : "columns " + columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension Row: Hashable {
    /// True when both rows have the same column names and the same values.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.values == rhs.values && (lhs.layout === rhs.layout || lhs.columnNames == rhs.columnNames)
    }

    /// Hashes the column names and values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(values)
    }
}

extension Row: CustomStringConvertible {
    /// The columns and values as `[id: 1, name: 'Paris', founded_at: NULL]`.
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1.shortDescription)" }.joined(separator: ", ") + "]"
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// A row from column names and values, in the order written: `["id": 1, "name": "Paris"]`. For tests
    /// and for code that builds rows by hand.
    public init(dictionaryLiteral elements: (String, SQLiteValue)...) {
        self.init(layout: RowLayout(columnNames: elements.map(\.0), sql: nil), values: elements.map(\.1))
    }
}

/// The column names of a statement's rows and the lookups by name, built once per statement rather than
/// once per row. Immutable, hence `Sendable`.
final class RowLayout: Sendable {
    let columnNames: [String]
    /// The SQL the rows come from, for error messages.
    let sql: String?
    /// The leftmost column of each name, under the spelling it has there: the lookup most reads hit.
    private let exactIndexes: [String: Int]
    /// ASCII-lowercased name to its leftmost index, for reads that spell the name in another case.
    private let foldedIndexes: [String: Int]

    init(columnNames: [String], sql: String?) {
        self.columnNames = columnNames
        self.sql = sql
        var exact: [String: Int] = [:]
        var folded: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() {
            let key = Self.asciiLowercased(name)
            // Only the leftmost spelling of a name goes in `exact`: `ID` must not find a later "ID" before an
            // earlier "id".
            if folded[key] == nil {
                folded[key] = index
                exact[name] = index
            }
        }
        exactIndexes = exact
        foldedIndexes = folded
    }

    convenience init(statement: Statement) {
        self.init(columnNames: statement.columnNames, sql: statement.sql)
    }

    /// The index of the column named `name`, compared as SQLite compares names: ASCII case-insensitively.
    func index(of name: String) -> Int? {
        exactIndexes[name] ?? foldedIndexes[Self.asciiLowercased(name)]
    }

    /// `column "name"`, or `column 3` for a column with no name.
    func describeColumn(at index: Int) -> String {
        let name = columnNames[index]
        return name.isEmpty ? "column \(index)" : "column \"\(name)\""
    }

    /// `name` with A-Z lowered and every other character kept, as SQLite folds identifiers.
    static func asciiLowercased(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
