import Foundation

/// A Swift value that can be bound to a statement parameter as one ``SQLiteValue``.
///
/// The library's conformances store integers as INTEGER, `Double` and `Float` as REAL, `Bool` as INTEGER
/// 0 or 1, `String` as TEXT, `Data` as BLOB, `Date` as UTC text `YYYY-MM-DD HH:MM:SS.SSS` (what the record
/// encoder writes by default, so a filter on a date column matches what was saved), `UUID` as lowercase
/// hyphenated TEXT, and `nil` as NULL.
///
/// Two requirements, because a few values have no exact SQLite form: a `UInt64` or `UInt` above
/// `Int64.max` does not fit SQLite's signed 64-bit INTEGER. ``checkedSQLiteValue()`` throws for such a
/// value, and it is what ``StatementArguments`` (so every bound argument) uses. ``sqliteValue`` never throws
/// and so must answer something: for those values it gives what SQLite itself makes of such a literal in SQL
/// (the nearest REAL). A conformance whose values all convert exactly implements ``sqliteValue`` only; the
/// default ``checkedSQLiteValue()`` returns it.
public protocol SQLiteValueConvertible {
    /// The value to bind. For the few values with no exact SQLite form, an approximation; see
    /// ``checkedSQLiteValue()``.
    var sqliteValue: SQLiteValue { get }

    /// The value to bind, exactly.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` when the value has no exact SQLite form, such as a
    ///   `UInt64` above `Int64.max`.
    func checkedSQLiteValue() throws -> SQLiteValue
}

extension SQLiteValueConvertible {
    /// ``sqliteValue``: exact for every type whose values all have an SQLite form.
    public func checkedSQLiteValue() throws -> SQLiteValue { sqliteValue }
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

extension UInt64: SQLiteValueConvertible {
    /// INTEGER; above `Int64.max`, the nearest REAL, as SQLite reads such a literal. Bound arguments use
    /// ``checkedSQLiteValue()``, which throws instead.
    public var sqliteValue: SQLiteValue { SQLiteValue.unsignedInteger(self) }

    /// INTEGER.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` when the value is above `Int64.max`
    ///   (9223372036854775807), the largest INTEGER SQLite stores.
    public func checkedSQLiteValue() throws -> SQLiteValue { try SQLiteValue.checkedUnsignedInteger(self) }
}

extension UInt: SQLiteValueConvertible {
    /// INTEGER; above `Int64.max`, the nearest REAL, as SQLite reads such a literal. Bound arguments use
    /// ``checkedSQLiteValue()``, which throws instead.
    public var sqliteValue: SQLiteValue { SQLiteValue.unsignedInteger(self) }

    /// INTEGER.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` when the value is above `Int64.max`
    ///   (9223372036854775807), the largest INTEGER SQLite stores.
    public func checkedSQLiteValue() throws -> SQLiteValue { try SQLiteValue.checkedUnsignedInteger(self) }
}

extension SQLiteValue {
    /// INTEGER when `value` fits, else the nearest REAL.
    static func unsignedInteger<T: UnsignedInteger & FixedWidthInteger>(_ value: T) -> SQLiteValue {
        Int64(exactly: value).map { .integer($0) } ?? .real(Double(value))
    }

    /// INTEGER, or an error naming the value when it is above `Int64.max`.
    static func checkedUnsignedInteger<T: UnsignedInteger & FixedWidthInteger>(_ value: T) throws -> SQLiteValue {
        guard let integer = Int64(exactly: value) else {
            throw DatabaseError(
                resultCode: .mismatch,
                message: "\(T.self) \(value) is above Int64.max (9223372036854775807), the largest INTEGER SQLite "
                    + "stores; store it as TEXT or as a bit pattern (Int64(bitPattern:)) instead")
        }
        return .integer(integer)
    }
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
    public var sqliteValue: SQLiteValue { .text(UUIDText.lowercase(self)) }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// The wrapped value's, or NULL.
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }

    /// The wrapped value's checked value, or NULL.
    /// - Throws: what the wrapped value's ``SQLiteValueConvertible/checkedSQLiteValue()`` throws.
    public func checkedSQLiteValue() throws -> SQLiteValue {
        guard let self else { return .null }
        return try self.checkedSQLiteValue()
    }
}

extension Decimal: SQLiteValueConvertible {
    /// The value as the record encoder writes a `Decimal`, so that SQLite compares and sorts it as a number
    /// while every digit reads back: INTEGER when it is a whole number within `Int64`; REAL when the nearest
    /// `Double`, printed in its shortest form (`9.99`, `0.1`, `1e+30`), is this same `Decimal`; TEXT with
    /// every digit otherwise (more significant digits than a `Double` holds: `1234567890.123456789`). NaN is
    /// REAL NaN, which binding refuses. See the ValuesAndCoding article for what each storage means in a
    /// table.
    public var sqliteValue: SQLiteValue {
        if isNaN { return .real(.nan) }
        let text = description
        if let integer = Int64(text) { return .integer(integer) }
        // description is locale-independent ("." always); the decoder reads a REAL back through its shortest
        // text, so a REAL is chosen only when that text is this value again.
        if let real = Double(text), real.isFinite,
            Decimal(string: String(real), locale: Locale(identifier: "en_US_POSIX")) == self
        {
            return .real(real)
        }
        return .text(text)
    }
}

extension URL: SQLiteValueConvertible {
    /// TEXT: the absolute string, as the record encoder writes a `URL`.
    public var sqliteValue: SQLiteValue { .text(absoluteString) }
}

extension SQLiteValueConvertible where Self: RawRepresentable, Self.RawValue: SQLiteValueConvertible {
    /// The raw value's, as the record encoder stores a RawRepresentable enum: declare the conformance
    /// (`extension Status: SQLiteValueConvertible {}`) and the enum works in `where:` filters and arguments.
    public var sqliteValue: SQLiteValue { rawValue.sqliteValue }

    /// The raw value's checked conversion.
    public func checkedSQLiteValue() throws -> SQLiteValue { try rawValue.checkedSQLiteValue() }
}
