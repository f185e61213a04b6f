import Foundation

/// A Swift value that can be read from one ``SQLiteValue``: what ``Row``'s typed subscripts and
/// ``Database/scalar(_:sql:arguments:)`` return.
///
/// A conversion happens only when it is exact; anything that would lose information fails, and the caller
/// throws an error naming the column, the stored value and the type. The library's conformances follow
/// the value table of the design notes:
///
/// | Type | accepted storage |
/// | --- | --- |
/// | `Int`, `Int8`...`Int64`, `UInt`...`UInt64` | INTEGER in range; REAL with no fractional part, in range |
/// | `Double`, `Float` | REAL, INTEGER (`Float` from REAL rounds as `Float` does; a REAL beyond `Float`'s range, or an INTEGER the type cannot hold exactly, fails) |
/// | `Bool` | INTEGER or REAL 0 and 1; TEXT `0`, `1`, `true`, `false`, `t`, `f`, `yes`, `no`, `y`, `n`, any case |
/// | `String` | TEXT; INTEGER and REAL as their decimal text |
/// | `Data` | BLOB; TEXT as its UTF-8 bytes |
/// | `Date` | TEXT in a form SQLite's date functions read, and ISO 8601's `+HHMM` and `+HH` offsets; INTEGER or REAL unix seconds |
/// | `UUID` | TEXT in any case, with or without hyphens or braces; a 16-byte BLOB |
/// | `SQLiteValue` | anything, as stored |
/// | `Optional` | NULL as `nil`, anything else as the wrapped type |
///
/// NULL converts only to `Optional` and ``SQLiteValue``.
/// See <https://www.sqlite.org/datatype3.html> for SQLite's storage classes.
public protocol SQLiteValueReadable {
    /// Converts `sqliteValue` exactly, or fails (nil) when the conversion would lose information or the
    /// storage class does not hold this type.
    init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueReadable {
    /// The value itself.
    public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Optional: SQLiteValueReadable where Wrapped: SQLiteValueReadable {
    /// `nil` for NULL; otherwise the wrapped type's conversion, failing when it fails.
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
            return
        }
        guard let wrapped = Wrapped(sqliteValue: sqliteValue) else { return nil }
        self = .some(wrapped)
    }
}

extension SQLiteValue {
    /// An INTEGER in `T`'s range, or a REAL with no fractional part in `T`'s range.
    func exactInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        switch self {
        case .integer(let value):
            return T(exactly: value)
        case .real(let value):
            // T(exactly:) is nil for NaN, infinities, fractions and values out of range.
            return T(exactly: value)
        default:
            return nil
        }
    }
}

extension Int: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension Int8: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension Int16: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension Int32: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension Int64: SQLiteValueReadable {
    /// INTEGER, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension UInt: SQLiteValueReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension UInt8: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension UInt16: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension UInt32: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension UInt64: SQLiteValueReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = sqliteValue.exactInteger(Self.self) else { return nil }
        self = value
    }
}

extension Double: SQLiteValueReadable {
    /// REAL, or an INTEGER that a `Double` holds exactly (every integer up to 2^53 in magnitude, and the
    /// larger ones that are multiples of a power of two); another INTEGER fails rather than round.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value):
            guard let exact = Double(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Float: SQLiteValueReadable {
    /// REAL within `Float`'s range, rounded to the nearest `Float` (as `JSONDecoder` reads a `Float`; an
    /// infinite REAL stays infinite), or an INTEGER a `Float` holds exactly (up to 2^24 in magnitude, and
    /// larger multiples of a power of two). A finite REAL beyond `Float.greatestFiniteMagnitude` fails
    /// rather than become infinity.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value):
            guard let float = Float(fromREAL: value) else { return nil }
            self = float
        case .integer(let value):
            guard let exact = Float(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Float {
    /// `value` rounded to the nearest `Float`; nil for a finite value that rounds to infinity.
    init?(fromREAL value: Double) {
        let float = Float(value)
        guard float.isFinite || !value.isFinite else { return nil }
        self = float
    }
}

extension Bool: SQLiteValueReadable {
    /// INTEGER or REAL 0 (false) and 1 (true); TEXT `1`, `true`, `t`, `yes`, `y` (true) and `0`, `false`,
    /// `f`, `no`, `n` (false) in any case. Any other number or text fails: it is never a silent false.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(0): self = false
        case .integer(1): self = true
        case .real(let value) where value == 0: self = false
        case .real(let value) where value == 1: self = true
        case .text(let text):
            switch text.lowercased() {
            case "1", "true", "t", "yes", "y": self = true
            case "0", "false", "f", "no", "n": self = false
            default: return nil
            }
        default: return nil
        }
    }
}

extension String: SQLiteValueReadable {
    /// TEXT; INTEGER as its decimal text (`175`), REAL as its shortest decimal text (`19.99`).
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let text): self = text
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        default: return nil
        }
    }
}

extension Data: SQLiteValueReadable {
    /// BLOB, or TEXT as its UTF-8 bytes.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let data): self = data
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
}

extension Date: SQLiteValueReadable {
    /// TEXT in a form SQLite's date functions read (``SQLiteDateFormat``: `YYYY-MM-DD`, optionally with
    /// `HH:MM[:SS[.SSS]]` after a space or `T`, and `Z` or `±HH:MM`), or INTEGER or REAL unix seconds.
    /// Empty or unreadable text fails; it is never nil-as-now. See <https://www.sqlite.org/lang_datefunc.html>.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let text):
            guard let date = SQLiteDateFormat.date(from: text) else { return nil }
            self = date
        case .integer(let seconds):
            self = Date(timeIntervalSince1970: Double(seconds))
        case .real(let seconds):
            guard seconds.isFinite else { return nil }
            self = Date(timeIntervalSince1970: seconds)
        default:
            return nil
        }
    }
}

extension UUID: SQLiteValueReadable {
    /// TEXT in any case, hyphenated or as 32 hex digits, optionally in braces; or a 16-byte BLOB.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let text):
            guard let uuid = UUIDText.parse(text) else { return nil }
            self = uuid
        case .blob(let data):
            guard data.count == 16 else { return nil }
            let bytes = [UInt8](data)
            self = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        default:
            return nil
        }
    }
}
