#if PostgreSQL
import Foundation

/// A type that ``PostgresFetchedRow`` reads in place from libpq's bytes when the column's type is the one
/// that stores it: `String`, `Int64`, `Int`, `Double`, `Bool` and `Date`. The row's subscripts read these
/// types and their Optionals through this protocol; any other `Decodable` type, and these in any other case,
/// read through the PostgreSQL decoder's rules for one column, with the same values and errors.
///
/// Both requirements are implementation details of the subscripts; do not implement them or call them.
public protocol PostgresFetchedRowReadable: Decodable {
    /// Column `index` of `row` as this type.
    /// - Throws: what ``PostgresFetchedRow``'s subscripts throw: `keyNotFound` past the last column,
    ///   `valueNotFound` for NULL, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self

    /// Column `index` of `row` as this type, nil for NULL.
    /// - Throws: what ``PostgresFetchedRow``'s subscripts throw: `keyNotFound` past the last column,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self?
}

extension String: PostgresFetchedRowReadable {
    /// `text`, `varchar`, `char(n)`, `name` in place; otherwise as the decoder reads a `String`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self {
        try row.string(at: index)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self? {
        row.isNull(index) ? nil : try row.string(at: index)
    }
}

extension Int64: PostgresFetchedRowReadable {
    /// `smallint`, `integer`, `bigint` in place; otherwise as the decoder reads an `Int64`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self {
        try row.int64(at: index)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self? {
        row.isNull(index) ? nil : try row.int64(at: index)
    }
}

extension Int: PostgresFetchedRowReadable {
    /// `smallint`, `integer`, `bigint` in place; otherwise as the decoder reads an `Int`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self {
        try row.int(at: index)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self? {
        row.isNull(index) ? nil : try row.int(at: index)
    }
}

extension Double: PostgresFetchedRowReadable {
    /// `double precision` in place; otherwise as the decoder reads a `Double`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self {
        try row.double(at: index)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self? {
        row.isNull(index) ? nil : try row.double(at: index)
    }
}

extension Bool: PostgresFetchedRowReadable {
    /// `boolean` in place; otherwise as the decoder reads a `Bool`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self {
        try row.bool(at: index)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self? {
        row.isNull(index) ? nil : try row.bool(at: index)
    }
}

extension Date: PostgresFetchedRowReadable {
    /// `timestamptz` and `timestamp` in place; otherwise as the decoder reads a `Date`.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _read(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self {
        try row.date(at: index)
    }

    /// The same, nil for NULL.
    /// - Throws: `DecodingError` as ``PostgresFetchedRow``'s subscripts throw it.
    public static func _readIfPresent(from row: borrowing PostgresFetchedRow, at index: Int) throws -> Self? {
        row.isNull(index) ? nil : try row.date(at: index)
    }
}
#endif
