import Foundation

/// A Swift value that can be bound to a statement parameter as one ``SQLiteValue``.
///
/// The library's conformances store integers as INTEGER, `Double` and `Float` as REAL, `Bool` as INTEGER
/// 0 or 1, `String` as TEXT, `Data` as BLOB, `Date` as UTC text `YYYY-MM-DD HH:MM:SS.SSS` (what the record
/// encoder writes by default, so a filter on a date column matches what was saved), `UUID` as lowercase
/// hyphenated TEXT, and `nil` as NULL.
public protocol SQLiteValueConvertible {
    /// The value to bind.
    var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteValueConvertible {
    /// The value itself.
    public var sqliteValue: SQLiteValue { self }
}

extension Int: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int8: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int16: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int32: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int64: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(self) }
}

extension UInt8: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension UInt16: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension UInt32: SQLiteValueConvertible {
    /// INTEGER.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Double: SQLiteValueConvertible {
    /// REAL.
    public var sqliteValue: SQLiteValue { .real(self) }
}

extension Float: SQLiteValueConvertible {
    /// REAL, widened exactly to `Double`.
    public var sqliteValue: SQLiteValue { .real(Double(self)) }
}

extension Bool: SQLiteValueConvertible {
    /// INTEGER 1 for true, 0 for false.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension String: SQLiteValueConvertible {
    /// TEXT.
    public var sqliteValue: SQLiteValue { .text(self) }
}

extension Data: SQLiteValueConvertible {
    /// BLOB.
    public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Date: SQLiteValueConvertible {
    /// TEXT in ``SQLiteDateFormat``'s UTC form; REAL unix seconds for a date outside years 0000-9999.
    public var sqliteValue: SQLiteValue {
        SQLiteDateFormat.string(from: self).map { .text($0) } ?? .real(timeIntervalSince1970)
    }
}

extension UUID: SQLiteValueConvertible {
    /// Lowercase hyphenated TEXT, as RFC 9562 recommends.
    public var sqliteValue: SQLiteValue { .text(uuidString.lowercased()) }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// The wrapped value's, or NULL.
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
