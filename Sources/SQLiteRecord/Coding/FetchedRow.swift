/// The row a fetch is on, lent to ``FetchableRecord/init(row:)``: reads a column by index or by name as the
/// Swift type you ask for.
///
/// ```swift
/// init(row: borrowing FetchedRow) throws {
///     id = try row[0, as: Int64?.self]           // by index, counted from 0 in the SELECT's order
///     name = try row["name", as: String.self]    // by name, ASCII case-insensitively, as SQLite matches
/// }
/// ```
///
/// Values convert as the decoder converts them (the value table in <doc:ValuesAndCoding>): exactly, or with a
/// `DecodingError` whose coding path is the column's name and whose message names the column, its table
/// when the library wrote the SELECT, the stored value and the Swift type:
/// - `valueNotFound` for NULL read as a non-optional type;
/// - `typeMismatch` when the stored type can never hold the Swift type (a BLOB for an `Int`);
/// - `dataCorrupted` when it can but this value is no valid one (70000 for an `Int16`, a date text that does
///   not parse);
/// - `keyNotFound` for an index past the last column, or a name no column has. An Optional read of a name no
///   column has is nil in a raw-SQL fetch (partial SELECTs work), and `keyNotFound` where the library wrote
///   the SELECT, as for the decoder's Optional keys.
///
/// The library's own value types (the integers, `Double`, `Float`, `Bool`, `String`, `Data`, `Date`, `UUID`,
/// `URL`, `Decimal`: ``FetchedRowReadable``) and their Optionals are read straight from the column; any
/// other `Decodable` type (an enum with a raw value, a nested value stored as JSON) through the decoder's
/// rules for one column.
///
/// ## Lifetime
///
/// The row reads the statement's current row in place, through raw memory that its fetch owns. That is safe
/// because a `FetchedRow` cannot outlive the ``FetchableRecord/init(row:)`` call it is lent to: it is made
/// only by the fetch, which keeps its decoding context, statement and row for the whole call; it is
/// noncopyable and passed `borrowing`, so the compiler refuses to store it, return it or capture it in an
/// escaping closure; and nothing reachable from the call can step the statement it reads.
public struct FetchedRow: ~Copyable {
    /// The fetch's decoding state (see ``RowDecodingState``): the row's statement handle, the position of the
    /// next read by name, and the context for errors and strategies.
    let state: RowDecodingState
    /// The column lookup's trail of names read by name (see ``ColumnLookup/nameTrail``): the column of a
    /// name found without hashing after the first row.
    let nameTrail: KeyTrail
    /// The number of columns.
    public let count: Int

    /// The row `context` is on. Made by the context only, for one `init(row:)` call.
    init(context: RowDecodingContext) {
        state = context.state
        nameTrail = context.lookup.nameTrail
        count = Int(context.lookup.columnCount)
    }

    /// The fetch's context: alive for the whole call this row is lent to.
    var context: RowDecodingContext { state.context }

    /// The column names, in order, as SQLite reports them (the `AS` alias, or the column name).
    public var columnNames: [String] { context.columnNames }

    /// True when a column is named `name` (ASCII case-insensitively).
    public func hasColumn(_ name: String) -> Bool { context.lookup.columnIndex(named: name) != nil }

    // MARK: Finding a column

    /// The reader of column `index`.
    @inline(__always)
    func reader(_ index: Int) throws -> ColumnReader {
        // One unsigned compare for both bounds: a negative index reads as a huge one.
        guard UInt(bitPattern: index) < UInt(bitPattern: count) else { throw noColumn(at: index) }
        return ColumnReader(
            index: Int32(truncatingIfNeeded: index), state: state, keyPosition: ColumnReader.columnNamePosition)
    }

    /// The reader of column `index`, nil for NULL.
    @inline(__always)
    func optionalReader(_ index: Int) throws -> ColumnReader? {
        let reader = try reader(index)
        return reader.isNull ? nil : reader
    }

    /// The index of the column named `name`: what the subscripts by name read, through the read by index.
    /// - Throws: `keyNotFound` for a name no column has.
    @usableFromInline
    func columnIndex(named name: String) throws -> Int {
        let index = column(named: name)
        guard index >= 0 else { throw context.columnNotFound(named: name) }
        return Int(index)
    }

    /// The index of the column named `name`, nil for no such column in a raw-SQL fetch: what the Optional
    /// subscripts by name read (partial SELECTs work there; where the library wrote the SELECT, a name no
    /// column has is a misspelling).
    /// - Throws: `keyNotFound` for a name no column has where the library wrote the SELECT.
    @usableFromInline
    func columnIndexIfPresent(named name: String) throws -> Int? {
        let index = column(named: name)
        guard index >= 0 else {
            if context.missingOptionalColumnIsNil { return nil }
            throw context.columnNotFound(named: name)
        }
        return Int(index)
    }

    /// The column named `name`, -1 for none: from the trail when this row asks for names in the order the
    /// rows before it did (one string compare, which for the same literal is a compare of its bits), or else
    /// by hashing the name, recorded in the trail for the next row.
    @inline(__always)
    private func column(named name: String) -> Int32 {
        let position = state.takeKeyPosition()
        if let column = nameTrail.column(forName: name, position: position) { return column }
        return context.lookup.column(named: name, position: position)
    }

    /// `keyNotFound` for an index that is no column's.
    @inline(never)
    private func noColumn(at index: Int) -> DecodingError {
        let text =
            "No column \(index) in the row\(context.tableName.map { " of table \"\($0)\"" } ?? ""); it has "
            + "\(count) column(s): " + context.columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        return DecodingError.keyNotFound(ColumnIndexKey(index), .init(codingPath: [], debugDescription: text))
    }
}

extension RowDecodingContext {
    /// `keyNotFound` for a name that is no column's, listing the columns the row has.
    @inline(never)
    func columnNotFound(named name: String) -> DecodingError {
        let place = tableName.map { " in table \"\($0)\"" } ?? " in the row"
        let text =
            "No column \"\(name)\"\(place); the row has columns: "
            + columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        return DecodingError.keyNotFound(
            ColumnCodingKey(stringValue: name), .init(codingPath: [], debugDescription: text))
    }
}

/// The coding key of a column asked for by index, for errors.
private struct ColumnIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
