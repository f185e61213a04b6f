import Foundation

/// A type that ``FetchedRow`` reads straight from a column, without going through the decoder: `Bool`,
/// `String`, `Double`, `Float`, the integers, `Date`, `Data`, `UUID`, `URL` and `Decimal`. ``FetchedRow``'s
/// subscripts read these types and their Optionals through this protocol; any other `Decodable` type reads
/// through the decoder's rules for one column.
///
/// Each type converts its column as the decoder converts it (the value table in <doc:ValuesAndCoding>,
/// implemented once, in the column reader), under the fetch's ``RowDecoder`` strategies, with the decoder's
/// `DecodingError`s. The library's types are the ones that conform: read a type of your own through its
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
        try row.reader(index).bool()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.bool()
    }
}

extension String: FetchedRowReadable {
    /// TEXT; INTEGER and REAL as their decimal text.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).string()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.string()
    }
}

extension Double: FetchedRowReadable {
    /// REAL, or an INTEGER a `Double` holds exactly.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).double()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.double()
    }
}

extension Float: FetchedRowReadable {
    /// REAL within `Float`'s range, rounded as `Float` rounds, or an INTEGER a `Float` holds exactly.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).float()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.float()
    }
}

extension Int: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(Int.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(Int.self)
    }
}

extension Int8: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(Int8.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(Int8.self)
    }
}

extension Int16: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(Int16.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(Int16.self)
    }
}

extension Int32: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(Int32.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(Int32.self)
    }
}

extension Int64: FetchedRowReadable {
    /// INTEGER, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(Int64.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(Int64.self)
    }
}

extension UInt: FetchedRowReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(UInt.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(UInt.self)
    }
}

extension UInt8: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(UInt8.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(UInt8.self)
    }
}

extension UInt16: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(UInt16.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(UInt16.self)
    }
}

extension UInt32: FetchedRowReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(UInt32.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(UInt32.self)
    }
}

extension UInt64: FetchedRowReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).integer(UInt64.self)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.integer(UInt64.self)
    }
}

extension Date: FetchedRowReadable {
    /// By the fetch's ``RowDecoder/DateDecodingStrategy``; under the automatic one, TEXT SQLite's date functions read,
    /// or INTEGER and REAL unix seconds.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).date()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.date()
    }
}

extension Data: FetchedRowReadable {
    /// BLOB, or TEXT as its UTF-8 bytes.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).data()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.data()
    }
}

extension UUID: FetchedRowReadable {
    /// TEXT in any case, with or without hyphens or braces, or a 16-byte BLOB.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).uuid()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.uuid()
    }
}

extension URL: FetchedRowReadable {
    /// TEXT holding an absolute or relative URL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).url()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.url()
    }
}

extension Decimal: FetchedRowReadable {
    /// TEXT holding a decimal number, INTEGER, or REAL through its shortest decimal text.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing FetchedRow, at index: Int) throws -> Self {
        try row.reader(index).decimal()
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing FetchedRow, at index: Int) throws -> Self? {
        try row.optionalReader(index)?.decimal()
    }
}
