#if PostgreSQL
import Foundation
import SQLiteRecord

/// The row a PostgreSQL fetch is on, lent to ``PostgresFetchableRecord/init(row:)``: reads a column by index
/// or by name as the Swift type you ask for.
///
/// ```swift
/// init(row: borrowing PostgresFetchedRow) throws {
///     id = try row[0, as: Int64?.self]           // by index, counted from 0 in the SELECT's order
///     name = try row["name", as: String.self]    // by name: an exact match first, then ASCII case-insensitively
/// }
/// ```
///
/// Values convert as the PostgreSQL decoder converts them (the value table of <doc:PostgreSQL>): exactly, or
/// with a `DecodingError` whose coding path is the column's name and whose message names the column, the
/// stored value and the Swift type:
/// - `valueNotFound` for NULL read as a non-optional type;
/// - `typeMismatch` when the column's type can never hold the Swift type (a `bytea` for an `Int`);
/// - `dataCorrupted` when it can but this value is no valid one (70000 for an `Int16`, 1.5 for an `Int`);
/// - `keyNotFound` for an index past the last column, or a name no column has. An Optional read of a name no
///   column has is nil in raw SQL (`fetch(_:sql:arguments:)`, a request's own selection), as the decoder's
///   `decodeIfPresent` is there, and `keyNotFound` where the library wrote the SELECT from the record's
///   table, where the name is a misspelling.
///
/// `String`, `Int64`, `Int`, `Double`, `Bool` and `Date` (``PostgresFetchedRowReadable``) and their Optionals
/// are read in place from libpq's bytes when the column's type is the one that stores them; every other type
/// and case (an enum by its raw value, a nested value from its JSON, read by the record's JSON decoder) goes
/// through the decoder's rules for one column, so a value and its error are the same on either path.
///
/// The row is noncopyable and passed `borrowing`, so the compiler refuses to store it, return it or capture
/// it in an escaping closure: it reads the fetch's current row, which moves on once the call returns.
public struct PostgresFetchedRow: ~Copyable {
    /// The fetch's reader: result, layout, JSON decoder and current row.
    let reader: PostgresRowReader
    /// The result the row belongs to.
    let result: PostgresResult
    /// The row's index in the result.
    let row: Int
    /// The number of columns.
    public let count: Int

    /// The current row of `reader`. Made by the fetches only, for one `init(row:)` call.
    init(reader: PostgresRowReader) {
        self.reader = reader
        result = reader.result
        row = reader.row
        count = reader.layout.names.count
    }

    /// The column names, in order, as the result names them (the `AS` alias, or the column name).
    public var columnNames: [String] { reader.layout.names }

    /// True when a column is named `name` (an exact match, or ASCII case-insensitively).
    public func hasColumn(_ name: String) -> Bool { reader.layout.columnIndex(name) != nil }

    // MARK: Finding a column

    /// True when `index` is a column's.
    @inline(__always)
    func isColumn(_ index: Int) -> Bool { UInt(bitPattern: index) < UInt(bitPattern: count) }

    /// The index of the column named `name`: past the first row, one string comparison when the rows ask
    /// for their names in the same order (the layout's recorded order, ``PostgresColumnLayout/column(for:renaming:)``).
    /// - Throws: `keyNotFound` for a name no column has.
    @usableFromInline
    func columnIndex(named name: String) throws -> Int {
        guard let index = reader.layout.column(for: PostgresColumnKey(name), renaming: nil) else {
            throw columnNotFound(named: name)
        }
        return index
    }

    /// The index of the column named `name`, nil for no such column in raw SQL: what the Optional reads by
    /// name give (partial SELECTs work there; where the library wrote the SELECT, a name no column has is a
    /// misspelling).
    /// - Throws: `keyNotFound` for a name no column has where the library wrote the SELECT.
    @usableFromInline
    func columnIndexIfPresent(named name: String) throws -> Int? {
        if let index = reader.layout.column(for: PostgresColumnKey(name), renaming: nil) { return index }
        if reader.missingOptionalColumnIsNil { return nil }
        throw columnNotFound(named: name)
    }

    /// True when column `index` is NULL; false past the last column, which the read then reports.
    @usableFromInline
    func isNull(_ index: Int) -> Bool { isColumn(index) && result.isNull(row: row, column: index) }

    // MARK: Reading

    /// Column `index` as `T` by the value table, for what the fast paths leave: other column types, NULL,
    /// errors, other Swift types.
    /// - Throws: `keyNotFound` past the last column, else as ``PostgresValueReader/read(_:_:column:codingPath:jsonDecoder:)``.
    @usableFromInline
    @inline(never)
    func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        guard isColumn(index) else { throw noColumn(at: index) }
        let name = reader.layout.names[index]
        return try PostgresValueReader.read(
            T.self, result.cell(row: row, column: index), column: name, codingPath: [PostgresColumnKey(name)],
            jsonDecoder: reader.jsonDecoder)
    }

    /// The column named `name` as `T`; for an Optional `T`, nil for no such column.
    /// - Throws: as ``decode(_:at:)``, `keyNotFound` for a name no column has and a non-optional `T`.
    @usableFromInline
    func decode<T: Decodable>(_ type: T.Type, named name: String) throws -> T {
        if let optional = T.self as? any NilValue.Type, let none = optional.nilValue as? T {
            guard let index = try columnIndexIfPresent(named: name) else { return none }
            return try decode(T.self, at: index)
        }
        return try decode(T.self, at: columnIndex(named: name))
    }

    /// `keyNotFound` for a name that is no column's, listing the columns the row has.
    @inline(never)
    private func columnNotFound(named name: String) -> DecodingError {
        DecodingError.keyNotFound(
            PostgresColumnKey(name),
            DecodingError.Context(
                codingPath: [],
                debugDescription:
                    "No column \"\(name)\" in the row; it has \(columnNames.map { "\"\($0)\"" }.joined(separator: ", "))"
            ))
    }

    /// `keyNotFound` for an index that is no column's.
    @inline(never)
    private func noColumn(at index: Int) -> DecodingError {
        DecodingError.keyNotFound(
            PostgresColumnKey("\(index)"),
            DecodingError.Context(
                codingPath: [],
                debugDescription:
                    "No column \(index) in the row; it has \(count) column(s): "
                    + columnNames.map { "\"\($0)\"" }.joined(separator: ", ")))
    }

    // MARK: In-place reads of the readable types

    @usableFromInline
    func string(at index: Int) throws -> String {
        if let value = result.string(row: row, column: index) { return value }
        return try decode(String.self, at: index)
    }

    @usableFromInline
    func int64(at index: Int) throws -> Int64 {
        if let value = result.int64(row: row, column: index) { return value }
        return try decode(Int64.self, at: index)
    }

    @usableFromInline
    func int(at index: Int) throws -> Int {
        if let value = result.int64(row: row, column: index), let exact = Int(exactly: value) { return exact }
        return try decode(Int.self, at: index)
    }

    @usableFromInline
    func double(at index: Int) throws -> Double {
        if let value = result.double(row: row, column: index) { return value }
        return try decode(Double.self, at: index)
    }

    @usableFromInline
    func bool(at index: Int) throws -> Bool {
        if let value = result.bool(row: row, column: index) { return value }
        return try decode(Bool.self, at: index)
    }

    @usableFromInline
    func date(at index: Int) throws -> Date {
        if let micros = result.timestampMicroseconds(row: row, column: index) {
            return PostgresValueReader.date(microseconds: micros)
        }
        return try decode(Date.self, at: index)
    }
}

// The subscripts. A PostgresFetchedRowReadable type matches the first four ahead of the Decodable ones: Swift
// ranks them above because PostgresFetchedRowReadable refines Decodable. The four are inlinable so that they
// are specialized in the caller's module, where the type is known: a read is then a direct call to that
// type's own read.

extension PostgresFetchedRow {
    /// Column `index` (counted from 0 in the SELECT's order) as `type`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow`` lists: `keyNotFound` past the last column,
    ///   `valueNotFound` for NULL, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: PostgresFetchedRowReadable>(index: Int, as type: T.Type) -> T {
        get throws { try T._read(from: self, at: index) }
    }

    /// Column `index` (counted from 0 in the SELECT's order) as `type`, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow`` lists: `keyNotFound` past the last column,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: PostgresFetchedRowReadable>(index: Int, as type: T?.Type) -> T? {
        get throws { try T._readIfPresent(from: self, at: index) }
    }

    /// The column named `name` (an exact match first, then ASCII case-insensitively) as `type`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow`` lists: `keyNotFound` for a name no column has,
    ///   `valueNotFound` for NULL, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: PostgresFetchedRowReadable>(name: String, as type: T.Type) -> T {
        get throws { try T._read(from: self, at: columnIndex(named: name)) }
    }

    /// The column named `name` (an exact match first, then ASCII case-insensitively) as `type`, nil for NULL
    /// or, in raw SQL, for no such column.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow`` lists: `typeMismatch` or `dataCorrupted` for a
    ///   value that does not convert exactly; `keyNotFound` for a name no column has where the library wrote
    ///   the SELECT.
    @inlinable
    public subscript<T: PostgresFetchedRowReadable>(name: String, as type: T?.Type) -> T? {
        get throws {
            guard let index = try columnIndexIfPresent(named: name) else { return nil }
            return try T._readIfPresent(from: self, at: index)
        }
    }

    /// Column `index` as any `Decodable` type, by the decoder's rules for one column: an enum by its raw
    /// value, a nested struct, array or dictionary from its JSON (read by the record's JSON decoder), the
    /// other types of the value table (`Int16`, `UUID`, `Decimal`...); an Optional type reads NULL as nil.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow`` lists: `keyNotFound` past the last column,
    ///   `valueNotFound`, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript<T: Decodable>(index: Int, as type: T.Type) -> T {
        get throws { try decode(T.self, at: index) }
    }

    /// The column named `name` as any `Decodable` type, by the decoder's rules for one column; an Optional
    /// type reads NULL, or no such column, as nil.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow`` lists: `keyNotFound` for a name no column has,
    ///   `valueNotFound`, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript<T: Decodable>(name: String, as type: T.Type) -> T {
        get throws { try decode(T.self, named: name) }
    }
}
#endif
