import Foundation

// The reads of a FetchedRow: one subscript per type and its Optional, by index and by name, so that a read in
// the caller's module is a direct call to code that reads the column, with no generic dispatch (a generic
// subscript runs unspecialized across the module boundary). Each type has the same four forms; a type not
// listed reads through the Decodable subscripts at the end.

extension FetchedRow {

    /// Column `index` as `Bool`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Bool.Type) -> Bool {
        get throws { try reader(index).bool() }
    }

    /// Column `index` as `Bool`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Bool?.Type) -> Bool? {
        get throws { try optionalReader(index)?.bool() }
    }

    /// The column named `name` as `Bool`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Bool.Type) -> Bool {
        get throws { try reader(name).bool() }
    }

    /// The column named `name` as `Bool`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Bool?.Type) -> Bool? {
        get throws { try optionalReader(name)?.bool() }
    }

    /// Column `index` as `String`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: String.Type) -> String {
        get throws { try reader(index).string() }
    }

    /// Column `index` as `String`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: String?.Type) -> String? {
        get throws { try optionalReader(index)?.string() }
    }

    /// The column named `name` as `String`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: String.Type) -> String {
        get throws { try reader(name).string() }
    }

    /// The column named `name` as `String`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: String?.Type) -> String? {
        get throws { try optionalReader(name)?.string() }
    }

    /// Column `index` as `Double`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Double.Type) -> Double {
        get throws { try reader(index).double() }
    }

    /// Column `index` as `Double`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Double?.Type) -> Double? {
        get throws { try optionalReader(index)?.double() }
    }

    /// The column named `name` as `Double`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Double.Type) -> Double {
        get throws { try reader(name).double() }
    }

    /// The column named `name` as `Double`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Double?.Type) -> Double? {
        get throws { try optionalReader(name)?.double() }
    }

    /// Column `index` as `Float`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Float.Type) -> Float {
        get throws { try reader(index).float() }
    }

    /// Column `index` as `Float`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Float?.Type) -> Float? {
        get throws { try optionalReader(index)?.float() }
    }

    /// The column named `name` as `Float`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Float.Type) -> Float {
        get throws { try reader(name).float() }
    }

    /// The column named `name` as `Float`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Float?.Type) -> Float? {
        get throws { try optionalReader(name)?.float() }
    }

    /// Column `index` as `Int`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int.Type) -> Int {
        get throws { try reader(index).integer(Int.self) }
    }

    /// Column `index` as `Int`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int?.Type) -> Int? {
        get throws { try optionalReader(index)?.integer(Int.self) }
    }

    /// The column named `name` as `Int`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int.Type) -> Int {
        get throws { try reader(name).integer(Int.self) }
    }

    /// The column named `name` as `Int`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int?.Type) -> Int? {
        get throws { try optionalReader(name)?.integer(Int.self) }
    }

    /// Column `index` as `Int8`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int8.Type) -> Int8 {
        get throws { try reader(index).integer(Int8.self) }
    }

    /// Column `index` as `Int8`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int8?.Type) -> Int8? {
        get throws { try optionalReader(index)?.integer(Int8.self) }
    }

    /// The column named `name` as `Int8`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int8.Type) -> Int8 {
        get throws { try reader(name).integer(Int8.self) }
    }

    /// The column named `name` as `Int8`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int8?.Type) -> Int8? {
        get throws { try optionalReader(name)?.integer(Int8.self) }
    }

    /// Column `index` as `Int16`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int16.Type) -> Int16 {
        get throws { try reader(index).integer(Int16.self) }
    }

    /// Column `index` as `Int16`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int16?.Type) -> Int16? {
        get throws { try optionalReader(index)?.integer(Int16.self) }
    }

    /// The column named `name` as `Int16`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int16.Type) -> Int16 {
        get throws { try reader(name).integer(Int16.self) }
    }

    /// The column named `name` as `Int16`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int16?.Type) -> Int16? {
        get throws { try optionalReader(name)?.integer(Int16.self) }
    }

    /// Column `index` as `Int32`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int32.Type) -> Int32 {
        get throws { try reader(index).integer(Int32.self) }
    }

    /// Column `index` as `Int32`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int32?.Type) -> Int32? {
        get throws { try optionalReader(index)?.integer(Int32.self) }
    }

    /// The column named `name` as `Int32`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int32.Type) -> Int32 {
        get throws { try reader(name).integer(Int32.self) }
    }

    /// The column named `name` as `Int32`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int32?.Type) -> Int32? {
        get throws { try optionalReader(name)?.integer(Int32.self) }
    }

    /// Column `index` as `Int64`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int64.Type) -> Int64 {
        get throws { try reader(index).integer(Int64.self) }
    }

    /// Column `index` as `Int64`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Int64?.Type) -> Int64? {
        get throws { try optionalReader(index)?.integer(Int64.self) }
    }

    /// The column named `name` as `Int64`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int64.Type) -> Int64 {
        get throws { try reader(name).integer(Int64.self) }
    }

    /// The column named `name` as `Int64`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Int64?.Type) -> Int64? {
        get throws { try optionalReader(name)?.integer(Int64.self) }
    }

    /// Column `index` as `UInt`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt.Type) -> UInt {
        get throws { try reader(index).integer(UInt.self) }
    }

    /// Column `index` as `UInt`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt?.Type) -> UInt? {
        get throws { try optionalReader(index)?.integer(UInt.self) }
    }

    /// The column named `name` as `UInt`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt.Type) -> UInt {
        get throws { try reader(name).integer(UInt.self) }
    }

    /// The column named `name` as `UInt`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt?.Type) -> UInt? {
        get throws { try optionalReader(name)?.integer(UInt.self) }
    }

    /// Column `index` as `UInt8`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt8.Type) -> UInt8 {
        get throws { try reader(index).integer(UInt8.self) }
    }

    /// Column `index` as `UInt8`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt8?.Type) -> UInt8? {
        get throws { try optionalReader(index)?.integer(UInt8.self) }
    }

    /// The column named `name` as `UInt8`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt8.Type) -> UInt8 {
        get throws { try reader(name).integer(UInt8.self) }
    }

    /// The column named `name` as `UInt8`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt8?.Type) -> UInt8? {
        get throws { try optionalReader(name)?.integer(UInt8.self) }
    }

    /// Column `index` as `UInt16`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt16.Type) -> UInt16 {
        get throws { try reader(index).integer(UInt16.self) }
    }

    /// Column `index` as `UInt16`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt16?.Type) -> UInt16? {
        get throws { try optionalReader(index)?.integer(UInt16.self) }
    }

    /// The column named `name` as `UInt16`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt16.Type) -> UInt16 {
        get throws { try reader(name).integer(UInt16.self) }
    }

    /// The column named `name` as `UInt16`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt16?.Type) -> UInt16? {
        get throws { try optionalReader(name)?.integer(UInt16.self) }
    }

    /// Column `index` as `UInt32`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt32.Type) -> UInt32 {
        get throws { try reader(index).integer(UInt32.self) }
    }

    /// Column `index` as `UInt32`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt32?.Type) -> UInt32? {
        get throws { try optionalReader(index)?.integer(UInt32.self) }
    }

    /// The column named `name` as `UInt32`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt32.Type) -> UInt32 {
        get throws { try reader(name).integer(UInt32.self) }
    }

    /// The column named `name` as `UInt32`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt32?.Type) -> UInt32? {
        get throws { try optionalReader(name)?.integer(UInt32.self) }
    }

    /// Column `index` as `UInt64`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt64.Type) -> UInt64 {
        get throws { try reader(index).integer(UInt64.self) }
    }

    /// Column `index` as `UInt64`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UInt64?.Type) -> UInt64? {
        get throws { try optionalReader(index)?.integer(UInt64.self) }
    }

    /// The column named `name` as `UInt64`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt64.Type) -> UInt64 {
        get throws { try reader(name).integer(UInt64.self) }
    }

    /// The column named `name` as `UInt64`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UInt64?.Type) -> UInt64? {
        get throws { try optionalReader(name)?.integer(UInt64.self) }
    }

    /// Column `index` as `Date`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Date.Type) -> Date {
        get throws { try reader(index).date() }
    }

    /// Column `index` as `Date`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Date?.Type) -> Date? {
        get throws { try optionalReader(index)?.date() }
    }

    /// The column named `name` as `Date`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Date.Type) -> Date {
        get throws { try reader(name).date() }
    }

    /// The column named `name` as `Date`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Date?.Type) -> Date? {
        get throws { try optionalReader(name)?.date() }
    }

    /// Column `index` as `Data`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Data.Type) -> Data {
        get throws { try reader(index).data() }
    }

    /// Column `index` as `Data`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Data?.Type) -> Data? {
        get throws { try optionalReader(index)?.data() }
    }

    /// The column named `name` as `Data`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Data.Type) -> Data {
        get throws { try reader(name).data() }
    }

    /// The column named `name` as `Data`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Data?.Type) -> Data? {
        get throws { try optionalReader(name)?.data() }
    }

    /// Column `index` as `UUID`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UUID.Type) -> UUID {
        get throws { try reader(index).uuid() }
    }

    /// Column `index` as `UUID`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: UUID?.Type) -> UUID? {
        get throws { try optionalReader(index)?.uuid() }
    }

    /// The column named `name` as `UUID`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UUID.Type) -> UUID {
        get throws { try reader(name).uuid() }
    }

    /// The column named `name` as `UUID`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: UUID?.Type) -> UUID? {
        get throws { try optionalReader(name)?.uuid() }
    }

    /// Column `index` as `URL`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: URL.Type) -> URL {
        get throws { try reader(index).url() }
    }

    /// Column `index` as `URL`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: URL?.Type) -> URL? {
        get throws { try optionalReader(index)?.url() }
    }

    /// The column named `name` as `URL`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: URL.Type) -> URL {
        get throws { try reader(name).url() }
    }

    /// The column named `name` as `URL`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: URL?.Type) -> URL? {
        get throws { try optionalReader(name)?.url() }
    }

    /// Column `index` as `Decimal`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Decimal.Type) -> Decimal {
        get throws { try reader(index).decimal() }
    }

    /// Column `index` as `Decimal`, nil for NULL.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `typeMismatch`
    ///   or `dataCorrupted` for a value that does not convert exactly.
    public subscript(index: Int, as type: Decimal?.Type) -> Decimal? {
        get throws { try optionalReader(index)?.decimal() }
    }

    /// The column named `name` as `Decimal`.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Decimal.Type) -> Decimal {
        get throws { try reader(name).decimal() }
    }

    /// The column named `name` as `Decimal`, nil for NULL (or for no such column in a raw-SQL fetch).
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` for a name no column has where the
    ///   library wrote the SELECT, `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript(name: String, as type: Decimal?.Type) -> Decimal? {
        get throws { try optionalReader(name)?.decimal() }
    }

    /// Column `index` as any `Decodable` type, by the decoder's rules for one column: an enum by its raw
    /// value, a nested struct, array or dictionary from JSON text; an Optional type reads NULL as nil.
    /// - Throws: `DecodingError` as ``FetchedRow`` lists: `keyNotFound` past the last column, `valueNotFound`,
    ///   `typeMismatch` or `dataCorrupted` for a value that does not convert exactly.
    public subscript<T: Decodable>(index: Int, as type: T.Type) -> T {
        get throws { try reader(index).decode(type) }
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
        if let absent = T.self as? any ExpressibleByNilLiteral.Type {
            guard let reader = try optionalReader(name) else {
                if let none = absent.init(nilLiteral: ()) as? T { return none }
                throw context.columnNotFound(named: name)
            }
            return try reader.decode(type)
        }
        return try reader(name).decode(type)
    }
}
