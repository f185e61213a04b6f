/// The row a fetch is on, lent to ``FetchableRecord/init(row:)``: reads a column by index or by name as the
/// Swift type you ask for. The same row type on every engine: SQLite's fetches lend a row of their statement,
/// PostgresRecord's a row of the server's result, and one `init(row:)` reads both.
///
/// ```swift
/// init(row: borrowing FetchedRow) throws {
///     id = try row[0, as: Int64?.self]           // by index, counted from 0 in the SELECT's order
///     name = try row["name", as: String.self]    // by name, as the engine matches names
/// }
/// ```
///
/// Names match as each engine's decoder matches a coding key: on SQLite ASCII case-insensitively, as SQLite
/// matches column names; on PostgreSQL an exact match first, then ASCII case-insensitively (the first such
/// column), since PostgreSQL's quoted names may differ by case alone.
///
/// Values convert as the engine's decoder converts them (on SQLite the value table in <doc:ValuesAndCoding>,
/// on PostgreSQL PostgresRecord's): exactly, or with a `DecodingError` whose coding path is the column's name
/// and whose message names the column, the stored value and the Swift type (on SQLite its table too, when
/// the library wrote the SELECT):
/// - `valueNotFound` for NULL read as a non-optional type;
/// - `typeMismatch` when the stored type can never hold the Swift type (a BLOB or a `bytea` for an `Int`);
/// - `dataCorrupted` when it can but this value is no valid one (70000 for an `Int16`, a date text that does
///   not parse);
/// - `keyNotFound` for an index past the last column, or a name no column has. An Optional read of a name no
///   column has is nil in a raw-SQL fetch (partial SELECTs work), and `keyNotFound` where the library wrote
///   the SELECT, as for the decoder's Optional keys.
///
/// The library's own value types (the integers, `Double`, `Float`, `Bool`, `String`, `Data`, `Date`, `UUID`,
/// `URL`, `Decimal`: ``FetchedRowReadable``) and their Optionals are read straight from the column (on
/// PostgreSQL, `String`, `Int64`, `Int`, `Double`, `Bool` and `Date` in place from the server's binary values
/// when the column's type is the one that stores them, the others through the decoder's rules); any other
/// `Decodable` type (an enum with a raw value, a nested value stored as JSON) through the decoder's rules for
/// one column.
///
/// ## Lifetime
///
/// The row reads the statement's current row (or the engine's result) in place, through memory that its
/// fetch owns. That is safe because a `FetchedRow` cannot outlive the ``FetchableRecord/init(row:)`` call it
/// is lent to: it is made only by the fetch, which keeps its decoding context, statement and row (or result)
/// for the whole call; it is noncopyable and passed `borrowing`, so the compiler refuses to store it, return
/// it or capture it in an escaping closure; and nothing reachable from the call can step the statement it
/// reads.
public struct FetchedRow: ~Copyable {
    /// Where the row's values come from: SQLite's statement, or another engine's reader. Noncopyable, so
    /// that a read switches over it by borrowing: the engine's reader is then called without a retain.
    enum Source: ~Copyable {
        /// The fetch's decoding state (see ``RowDecodingState``: the row's statement handle, the position of
        /// the next read by name, and the context for errors and strategies) and the column lookup's trail
        /// of names read by name (see ``ColumnLookup/nameTrail``: the column of a name found without hashing
        /// after the first row).
        case statement(RowDecodingState, KeyTrail)
        /// Row `row` of another engine's result, read by that engine's reader.
        case engine(any EngineRowReader, row: Int)
    }

    /// Where the row's values come from.
    let source: Source
    /// The number of columns.
    public let count: Int

    /// The row `context` is on. Made by the context only, for one `init(row:)` call.
    init(context: RowDecodingContext) {
        source = .statement(context.state, context.lookup.nameTrail)
        count = Int(context.lookup.columnCount)
    }

    /// Row `row` of the result `reader` reads: how another engine lends its rows to `init(row:)`. The engine
    /// keeps `reader` and its result alive for the whole call.
    @_spi(RecordEngine)
    public init(engine reader: any EngineRowReader, row: Int) {
        source = .engine(reader, row: row)
        count = reader.columnCount
    }

    /// The fetch's decoding context on SQLite, alive for the whole call this row is lent to; nil on another
    /// engine.
    var context: RowDecodingContext? {
        switch source {
        case .statement(let state, _): state.context
        case .engine: nil
        }
    }

    /// The column names, in order, as the engine reports them (the `AS` alias, or the column name).
    public var columnNames: [String] {
        switch source {
        case .statement(let state, _): state.context.columnNames
        case .engine(let reader, _): reader.resultColumnNames
        }
    }

    /// True when a column is named `name`, as the engine matches names: on SQLite ASCII case-insensitively;
    /// on PostgreSQL an exact match, or else ASCII case-insensitively.
    public func hasColumn(_ name: String) -> Bool {
        switch source {
        case .statement(let state, _): state.context.lookup.columnIndex(named: name) != nil
        case .engine(let reader, _): reader.hasColumn(name)
        }
    }

    // MARK: Reading a column

    /// Column `index` read by `statement` from SQLite's statement, or by `engine` from another engine's row.
    /// - Throws: `keyNotFound` past the last column, else what the read throws.
    @inline(__always)
    func read<T>(
        _ index: Int, _ statement: (ColumnReader) throws -> T, _ engine: (any EngineRowReader, Int) throws -> T
    ) throws -> T {
        switch source {
        case .statement(let state, _):
            // One unsigned compare for both bounds: a negative index reads as a huge one.
            guard UInt(bitPattern: index) < UInt(bitPattern: count) else { throw noColumn(at: index, state) }
            return try statement(
                ColumnReader(
                    index: Int32(truncatingIfNeeded: index), state: state,
                    keyPosition: ColumnReader.columnNamePosition))
        case .engine(let reader, let row):
            return try engine(reader, row)
        }
    }

    /// Column `index` as ``read(_:_:_:)`` reads it, nil for NULL.
    /// - Throws: `keyNotFound` past the last column, else what the read throws.
    @inline(__always)
    func readIfPresent<T>(
        _ index: Int, _ statement: (ColumnReader) throws -> T, _ engine: (any EngineRowReader, Int) throws -> T
    ) throws -> T? {
        switch source {
        case .statement(let state, _):
            guard UInt(bitPattern: index) < UInt(bitPattern: count) else { throw noColumn(at: index, state) }
            let reader = ColumnReader(
                index: Int32(truncatingIfNeeded: index), state: state, keyPosition: ColumnReader.columnNamePosition)
            return reader.isNull ? nil : try statement(reader)
        case .engine(let reader, let row):
            // Past the last column is no NULL: the engine's read then throws `keyNotFound`.
            return reader.isNull(row: row, column: index) ? nil : try engine(reader, row)
        }
    }

    /// Column `index` as any `Decodable` type, by the engine's rules for one column.
    func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        try read(index, { try $0.decode(type) }, { try $0.decode(type, row: $1, column: index) })
    }

    // MARK: Finding a column

    /// The index of the column named `name`: what the subscripts by name read, through the read by index.
    /// - Throws: `keyNotFound` for a name no column has.
    @usableFromInline
    func columnIndex(named name: String) throws -> Int {
        switch source {
        case .statement(let state, let nameTrail):
            let index = Self.column(named: name, state, nameTrail)
            guard index >= 0 else { throw state.context.columnNotFound(named: name) }
            return Int(index)
        case .engine(let reader, _):
            return try reader.columnIndex(named: name)
        }
    }

    /// The index of the column named `name`, nil for no such column in a raw-SQL fetch: what the Optional
    /// subscripts by name read (partial SELECTs work there; where the library wrote the SELECT, a name no
    /// column has is a misspelling).
    /// - Throws: `keyNotFound` for a name no column has where the library wrote the SELECT.
    @usableFromInline
    func columnIndexIfPresent(named name: String) throws -> Int? {
        switch source {
        case .statement(let state, let nameTrail):
            let index = Self.column(named: name, state, nameTrail)
            guard index >= 0 else {
                if state.context.missingOptionalColumnIsNil { return nil }
                throw state.context.columnNotFound(named: name)
            }
            return Int(index)
        case .engine(let reader, _):
            return try reader.columnIndexIfPresent(named: name)
        }
    }

    /// The SQLite column named `name`, -1 for none: from the trail when this row asks for names in the order
    /// the rows before it did (one string compare, which for the same literal is a compare of its bits), or
    /// else by hashing the name, recorded in the trail for the next row.
    @inline(__always)
    private static func column(named name: String, _ state: RowDecodingState, _ nameTrail: KeyTrail) -> Int32 {
        let position = state.takeKeyPosition()
        if let column = nameTrail.column(forName: name, position: position) { return column }
        return state.context.lookup.column(named: name, position: position)
    }

    /// `keyNotFound` for an index that is no column's.
    @inline(never)
    private func noColumn(at index: Int, _ state: RowDecodingState) -> DecodingError {
        let context = state.context
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
