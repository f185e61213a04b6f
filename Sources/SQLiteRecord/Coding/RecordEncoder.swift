import Foundation

/// The columns a record encodes to, in coding-key order, ready to bind.
public struct EncodedColumns: Sendable, Equatable {
    /// Column names, one per coding key the record encoded.
    public var names: [String] = []
    /// The values, in the same order as ``names``.
    public var values: [SQLiteValue] = []

    /// Empty columns.
    public init() {}

    /// The value encoded for `name`, if any.
    public func value(for name: String) -> SQLiteValue? {
        names.firstIndex(of: name).map { values[$0] }
    }
}

/// Encodes `Encodable` values to column values: each coding key names a column.
///
/// A small public type over the library's own encoder, like Foundation's `JSONEncoder`: its properties are
/// the strategies. Records use ``Record/recordEncoder``; override it in a record type to change how that
/// type is stored.
///
/// By default values are stored as the value table in <doc:ValuesAndCoding> says: Bool as INTEGER 0/1, Date as UTC text
/// `YYYY-MM-DD HH:MM:SS.SSS`, UUID as lowercase hyphenated text, URL as its absolute text, Decimal as INTEGER,
/// REAL or TEXT (whichever keeps every digit and compares as a number), RawRepresentable enums as their raw
/// value, nested structs, arrays and dictionaries as JSON text, and nil as NULL (so an UPDATE clears the
/// column).
public struct RecordEncoder: Sendable {
    /// How dates are stored.
    public enum DateEncodingStrategy: Sendable {
        /// TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC: sorts as text, keeps milliseconds, and SQLite's date
        /// functions read it. The default. Printed by hand, without formatters.
        case sqliteText
        /// REAL seconds since 1970-01-01 00:00:00 UTC (what FMDB writes).
        case unixSeconds
        /// INTEGER milliseconds since 1970-01-01 00:00:00 UTC, rounded to the nearest.
        case unixMilliseconds
        /// TEXT in ISO 8601 with fractional seconds, `2024-05-01T12:30:00.250Z`, printed by Foundation's
        /// `Date.ISO8601FormatStyle`.
        case iso8601
        /// TEXT printed by a `DateFormatter` of your own.
        case formatted(DateFormatter)
        /// Your own function of the date; what it throws is passed on.
        case custom(@Sendable (Date) throws -> SQLiteValue)
    }

    /// How UUIDs are stored.
    public enum UUIDEncodingStrategy: Sendable {
        /// TEXT, lowercase with hyphens, as RFC 9562 recommends: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`. The
        /// default.
        case lowercaseText
        /// A 16-byte BLOB, in the UUID's byte order.
        case blob
    }

    /// How coding keys name columns.
    public enum KeyEncodingStrategy: Sendable, Equatable {
        /// A key's string value is the column name. The default.
        case useDefaultKeys
        /// Keys are converted to snake_case as Foundation's `JSONEncoder` does: `countryId` writes
        /// `country_id`, `imageURL` writes `image_url`.
        case convertToSnakeCase
    }

    /// How dates are stored; ``DateEncodingStrategy/sqliteText`` by default.
    public var dateEncodingStrategy: DateEncodingStrategy = .sqliteText
    /// How UUIDs are stored; ``UUIDEncodingStrategy/lowercaseText`` by default.
    public var uuidEncodingStrategy: UUIDEncodingStrategy = .lowercaseText
    /// How keys name columns; ``KeyEncodingStrategy/useDefaultKeys`` by default.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// Writes nested values (structs, arrays, dictionaries) as JSON text; by default with sorted keys, so
    /// equal values give equal text.
    public var jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An encoder with the default strategies.
    public init() {}

    /// Encodes `value`'s properties to columns.
    /// - Throws: `EncodingError.invalidValue` naming the column when a value cannot be stored (a NaN, a date
    ///   outside the years the text form holds, an integer above Int64.max, a nested value JSON cannot
    ///   hold), or when the value is not a keyed type (a struct with coding keys).
    public func encode<T: Encodable>(_ value: T) throws -> EncodedColumns {
        try encode(value, tableName: nil)
    }

    /// ``encode(_:)``, naming `tableName` in errors.
    func encode<T: Encodable>(_ value: T, tableName: String?) throws -> EncodedColumns {
        try encodeWithKeys(value, tableName: tableName).columns
    }

    /// ``encode(_:)``, naming `tableName` in errors, with the string value of each coding key the columns
    /// came from (they differ from the column names under ``KeyEncodingStrategy/convertToSnakeCase``).
    func encodeWithKeys<T: Encodable>(
        _ value: T, tableName: String?
    ) throws -> (columns: EncodedColumns, keys: [String]) {
        let encoder = ColumnsEncoder(tableName: tableName, options: self)
        // The encoder serves this one value: what the value's own code keeps of it throws from now on.
        defer { encoder.retire() }
        try value.encode(to: encoder)
        if let failure = encoder.failure { throw failure }
        return (encoder.columns, encoder.keys)
    }

    /// ``encode(_:)`` with the default strategies, naming `tableName` in errors.
    static func encode<T: Encodable>(_ value: T, tableName: String?) throws -> EncodedColumns {
        try RecordEncoder().encode(value, tableName: tableName)
    }
}
