import Foundation

// The reads of a FetchedRow: by index and by name, as a type the row reads straight from the column
// (FetchedRowReadable) or its Optional, and as any other Decodable type through the decoder's rules for one
// column. A FetchedRowReadable type matches the first four subscripts ahead of the Decodable ones: Swift
// ranks them above because FetchedRowReadable refines Decodable.
//
// The four are inlinable so that they are specialized in the caller's module, where the type is known: a
// read there is then a direct call to that type's own read (see FetchedRowReadable), and a read by name one
// more, to find the column. Unspecialized, each read would pass the type's metadata and witness table and
// return its value through memory.

extension FetchedRow {
    /// Column `index` (counted from 0 in the SELECT's order) as `type`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`
    ///   for NULL, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: FetchedRowReadable>(index: Int, as type: T.Type) -> T {
        get throws { try T._read(from: self, at: index) }
    }

    /// Column `index` (counted from 0 in the SELECT's order) as `type`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: FetchedRowReadable>(index: Int, as type: T?.Type) -> T? {
        get throws { try T._readIfPresent(from: self, at: index) }
    }

    /// The column named `name` (ASCII case-insensitively, as SQLite matches names) as `type`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has,
    ///   `valueNotFound` for NULL, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: FetchedRowReadable>(name: String, as type: T.Type) -> T {
        get throws { try T._read(from: self, at: columnIndex(named: name)) }
    }

    /// The column named `name` (ASCII case-insensitively, as SQLite matches names) as `type`, nil for NULL
    /// (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    @inlinable
    public subscript<T: FetchedRowReadable>(name: String, as type: T?.Type) -> T? {
        get throws {
            guard let index = try columnIndexIfPresent(named: name) else { return nil }
            return try T._readIfPresent(from: self, at: index)
        }
    }

    /// Column `index` as any `Decodable` type, by the decoder's rules for one column: an enum by its raw
    /// value, a nested struct, array or dictionary from JSON text; an Optional type reads NULL as nil.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript<T: Decodable>(index: Int, as type: T.Type) -> T {
        get throws { try decode(type, at: index) }
    }

    /// The column named `name` as any `Decodable` type, by the decoder's rules for one column.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript<T: Decodable>(name: String, as type: T.Type) -> T {
        get throws { try decode(type, named: name) }
    }

    /// The column named `name` as `T`; for an Optional `T`, nil for NULL, or for no such column in a raw-SQL
    /// fetch, as the Optional subscripts read.
    private func decode<T: Decodable>(_ type: T.Type, named name: String) throws -> T {
        if let absent = T.self as? any ExpressibleByNilLiteral.Type, let none = absent.init(nilLiteral: ()) as? T {
            guard let index = try columnIndexIfPresent(named: name) else { return none }
            return try readIfPresent(index, { try $0.decode(type) }, { try $0.decode(type, row: $1, column: index) })
                ?? none
        }
        return try decode(type, at: columnIndex(named: name))
    }
}
