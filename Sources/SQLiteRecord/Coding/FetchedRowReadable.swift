import Foundation

/// A type that ``FetchedRow`` reads straight from a column, without going through the decoder: `Bool`,
/// `String`, `Double`, `Float`, the integers, `Date`, `Data`, `UUID`, `URL` and `Decimal`. ``FetchedRow``'s
/// subscripts read these types and their Optionals through this protocol; any other `Decodable` type reads
/// through the decoder's rules for one column.
///
/// Each type converts its column as the engine's decoder converts it (on SQLite the value table in
/// <doc:ValuesAndCoding>, implemented once, in the column reader, under the fetch's ``RowDecoder``
/// strategies; on PostgreSQL PostgresRecord's value table, `String`, `Int64`, `Int`, `Double`, `Bool` and
/// `Date` in place from the server's binary values), with the decoder's `DecodingError`s. The per-type notes
/// below are SQLite's. The library's types are the ones that conform: read a type of your own through its
/// `Decodable` conformance.
///
/// Both requirements are implementation details of the subscripts; do not implement them or call them. Each
/// conformance implements them itself, with no default in an extension, so that the witness table is one of
/// plain functions: the optimizer then turns a subscript read in the caller's module into a direct call to
/// the type's own read, where a generic default would be called through the witness table.
public protocol FetchedRowReadable: Decodable {
    /// Column `index` of `row` as this type.
    /// - Throws: what ``FetchedRow``'s subscripts throw: `keyNotFound` past the last column,
    ///   `valueNotFound` for NULL, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self

    /// Column `index` of `row` as this type, nil for NULL.
    /// - Throws: what ``FetchedRow``'s subscripts throw: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self?
}

// MARK: The library's types

extension Bool: FetchedRowReadable {
    /// INTEGER or REAL 0 and 1; TEXT `1`, `true`, `t`, `yes`, `y`, `0`, `false`, `f`, `no`, `n` in any case.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.bool() }, { try $0.bool(row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.bool() }, { try $0.bool(row: $1, column: index) })
    }
}

extension String: FetchedRowReadable {
    /// TEXT; INTEGER and REAL as their decimal text.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.string() }, { try $0.string(row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.string() }, { try $0.string(row: $1, column: index) })
    }
}

extension Double: FetchedRowReadable {
    /// REAL, or an INTEGER a `Double` holds exactly.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.double() }, { try $0.double(row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.double() }, { try $0.double(row: $1, column: index) })
    }
}

extension Float: FetchedRowReadable {
    /// REAL within `Float`'s range, rounded as `Float` rounds, or an INTEGER a `Float` holds exactly.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.float() }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.float() }, { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension Int: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(Int.self) }, { try $0.int(row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.integer(Int.self) }, { try $0.int(row: $1, column: index) })
    }
}

extension Int8: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(Int8.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(Int8.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension Int16: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(Int16.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(Int16.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension Int32: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(Int32.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(Int32.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension Int64: FetchedRowReadable {
    /// INTEGER, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(Int64.self) }, { try $0.int64(row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.integer(Int64.self) }, { try $0.int64(row: $1, column: index) })
    }
}

extension UInt: FetchedRowReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(UInt.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(UInt.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension UInt8: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(UInt8.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(UInt8.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension UInt16: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(UInt16.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(UInt16.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension UInt32: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(UInt32.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(UInt32.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension UInt64: FetchedRowReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.integer(UInt64.self) }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(
            index, { try $0.integer(UInt64.self) },
            { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension Date: FetchedRowReadable {
    /// By the fetch's ``RowDecoder/DateDecodingStrategy``; under the automatic one, TEXT SQLite's date functions read,
    /// or INTEGER and REAL unix seconds.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.date() }, { try $0.date(row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.date() }, { try $0.date(row: $1, column: index) })
    }
}

extension Data: FetchedRowReadable {
    /// BLOB, or TEXT as its UTF-8 bytes.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.data() }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.data() }, { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension UUID: FetchedRowReadable {
    /// TEXT in any case, with or without hyphens or braces, or a 16-byte BLOB.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.uuid() }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.uuid() }, { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension URL: FetchedRowReadable {
    /// TEXT holding an absolute or relative URL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.url() }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.url() }, { try $0.decode(Self.self, row: $1, column: index) })
    }
}

extension Decimal: FetchedRowReadable {
    /// TEXT holding a decimal number, INTEGER, or REAL through its shortest decimal text.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.read(index, { try $0.decimal() }, { try $0.decode(Self.self, row: $1, column: index) })
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.readIfPresent(index, { try $0.decimal() }, { try $0.decode(Self.self, row: $1, column: index) })
    }
}
