import CSQLiteRecord
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

/// The value table (the ValuesAndCoding article): how a value SQLite stores converts to a Swift type, exactly
/// or not at all. The one implementation of the conversions, read by ``Row``'s typed reads and
/// ``Database/scalar(_:sql:arguments:)`` from an ``SQLiteValue``, and by the decoder and ``FetchedRow`` from a
/// statement's column in place (``SQLiteStoredValue``).
///
/// Each conversion returns the value or throws a ``SQLiteConversionFailure`` that says why not; callers turn
/// it into their own error (`DecodingError` in the decoder, ``DatabaseError`` in ``Row``) or into nil.
/// See <https://www.sqlite.org/datatype3.html> for SQLite's storage classes.
enum SQLiteValueTable {
    /// INTEGER in `T`'s range, or REAL with no fractional part in `T`'s range.
    static func integer<T: FixedWidthInteger>(
        _ type: T.Type, from value: some SQLiteStoredValue
    ) throws(SQLiteConversionFailure) -> T {
        switch value.storageClass {
        case SQLITE_INTEGER:
            guard let integer = T(exactly: value.int64) else { throw .corrupted("out of range") }
            return integer
        case SQLITE_FLOAT:
            let real = value.double
            guard real.isFinite, real.rounded(.towardZero) == real else {
                throw .corrupted("which is not a whole number")
            }
            guard let integer = T(exactly: real) else { throw .corrupted("out of range") }
            return integer
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// REAL, or an INTEGER that a `Double` holds exactly (every integer up to 2^53 in magnitude, and the larger
    /// ones that are multiples of a power of two); another INTEGER fails rather than round.
    static func double(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> Double {
        switch value.storageClass {
        case SQLITE_FLOAT: return value.double
        case SQLITE_INTEGER:
            guard let exact = Double(exactly: value.int64) else {
                throw .corrupted("which a Double cannot hold exactly")
            }
            return exact
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// REAL within `Float`'s range, rounded to the nearest `Float` (as `JSONDecoder` reads a `Float`; an
    /// infinite REAL stays infinite), or an INTEGER a `Float` holds exactly. A finite REAL beyond
    /// `Float.greatestFiniteMagnitude` fails rather than become infinity.
    static func float(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> Float {
        switch value.storageClass {
        case SQLITE_FLOAT:
            guard let float = Float(fromREAL: value.double) else { throw .corrupted("beyond Float's range") }
            return float
        case SQLITE_INTEGER:
            // Straight from the integer: through a Double first, 2^60 + 2^36 + 1 would round twice.
            guard let exact = Float(exactly: value.int64) else {
                throw .corrupted("which a Float cannot hold exactly")
            }
            return exact
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// INTEGER or REAL 0 (false) and 1 (true); TEXT `1`, `true`, `t`, `yes`, `y` (true) and `0`, `false`,
    /// `f`, `no`, `n` (false) in any case. Any other number or text fails: it is never a silent false.
    static func bool(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> Bool {
        switch value.storageClass {
        case SQLITE_INTEGER:
            switch value.int64 {
            case 0: return false
            case 1: return true
            default: throw .corrupted("which is neither 0 nor 1")
            }
        case SQLITE_FLOAT:
            switch value.double {
            case 0: return false
            case 1: return true
            default: throw .corrupted("which is neither 0 nor 1")
            }
        case SQLITE_TEXT:
            switch value.text?.lowercased() {
            case "1", "true", "t", "yes", "y": return true
            case "0", "false", "f", "no", "n": return false
            default: throw .corrupted("which is not one of 0, 1, true, false, t, f, yes, no, y, n")
            }
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// TEXT that is valid UTF-8 (replacing invalid bytes with U+FFFD would be a silent change that a save
    /// then writes back); INTEGER as its decimal text (`175`), REAL as its shortest decimal text (`19.99`).
    static func string(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> String {
        switch value.storageClass {
        case SQLITE_TEXT:
            guard let text = value.text else { throw .corrupted("which is not valid UTF-8") }
            return text
        case SQLITE_INTEGER: return String(value.int64)
        case SQLITE_FLOAT: return String(value.double)
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// BLOB, or TEXT as its UTF-8 bytes.
    static func data(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> Data {
        switch value.storageClass {
        case SQLITE_BLOB, SQLITE_TEXT: return value.bytes
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// TEXT in a form SQLite's date functions read (``SQLiteDateFormat``: `YYYY-MM-DD`, optionally with
    /// `HH:MM[:SS[.SSS]]` after a space or `T`, and `Z` or `±HH:MM`, `±HHMM`, `±HH`), or INTEGER or REAL unix
    /// seconds. Empty or unreadable text fails; it is never nil-as-now.
    /// See <https://www.sqlite.org/lang_datefunc.html>.
    static func date(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> Date {
        switch value.storageClass {
        case SQLITE_TEXT:
            guard let date = value.sqliteDate else {
                throw .corrupted(
                    "which is not a date text SQLite reads (YYYY-MM-DD[ HH:MM[:SS[.SSS]]][Z|±HH:MM|±HHMM|±HH])")
            }
            return date
        case SQLITE_INTEGER, SQLITE_FLOAT:
            return try unixDate(from: value, divisor: 1)
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// INTEGER or REAL seconds (or milliseconds, with `divisor` 1000) since 1970-01-01 00:00:00 UTC.
    static func unixDate(
        from value: some SQLiteStoredValue, divisor: Double
    ) throws(SQLiteConversionFailure) -> Date {
        switch value.storageClass {
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let seconds = value.double
            guard seconds.isFinite else { throw .corrupted("which is not a finite number") }
            return Date(timeIntervalSince1970: seconds / divisor)
        case SQLITE_NULL: throw .null
        default:
            throw .mismatch("where a number of \(divisor == 1 ? "seconds" : "milliseconds") was expected")
        }
    }

    /// TEXT holding an absolute or relative URL, valid UTF-8 (`URL(string:)` would percent-encode the U+FFFD
    /// that replaced each invalid byte: a silent change).
    static func url(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> URL {
        switch value.storageClass {
        case SQLITE_TEXT:
            guard let text = value.text else { throw .corrupted("which is not valid UTF-8") }
            guard let url = URL(string: text) else { throw .corrupted("which is not a URL") }
            return url
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }

    /// TEXT holding a decimal number, INTEGER, or a finite REAL through its shortest decimal text (19.99 stays
    /// 19.99, never 19.989999...).
    static func decimal(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> Decimal {
        let text: String
        switch value.storageClass {
        case SQLITE_TEXT: text = value.text ?? ""
        case SQLITE_INTEGER: return Decimal(value.int64)
        case SQLITE_FLOAT:
            let real = value.double
            guard real.isFinite else { throw .corrupted("which is not finite") }
            text = String(real)
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
        guard isDecimalNumber(text), let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { throw .corrupted("which is not a decimal number") }
        // Decimal(string:) answers NaN for an exponent beyond Decimal's range (1e200).
        guard !decimal.isNaN else { throw .corrupted("out of Decimal's range") }
        return decimal
    }

    /// `[+-]digits[.digits][e[+-]digits]`: what Decimal(string:) reads whole. It stops silently at the first
    /// character it cannot read, so "12abc" would otherwise become 12.
    private static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        let isDigit = { (byte: UInt8) in byte >= 48 && byte <= 57 }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            bytes = bytes.dropFirst(exponentDigits)
        }
        return bytes.isEmpty
    }

    /// TEXT in any case, hyphenated or as 32 hex digits, optionally in braces; or a 16-byte BLOB.
    static func uuid(from value: some SQLiteStoredValue) throws(SQLiteConversionFailure) -> UUID {
        switch value.storageClass {
        case SQLITE_TEXT:
            guard let text = value.text, let uuid = UUIDText.parse(text) else {
                throw .corrupted("which is not a UUID")
            }
            return uuid
        case SQLITE_BLOB:
            let bytes = [UInt8](value.bytes)
            guard bytes.count == 16 else { throw .corrupted("which is not 16 bytes") }
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        case SQLITE_NULL: throw .null
        default: throw .mismatch()
        }
    }
}

/// Why a stored value does not convert to a Swift type (``SQLiteValueTable``), in the kinds of Foundation's
/// decoding errors.
struct SQLiteConversionFailure: Error {
    enum Kind {
        /// The value is NULL, which only an Optional holds.
        case null
        /// The storage class can never hold the type (a BLOB for an `Int`).
        case mismatch
        /// The storage class is one the type reads, but this value is not a valid one (70000 for an `Int16`).
        case corrupted
    }

    let kind: Kind
    /// What is wrong with the value, as the end of a sentence (`out of range`); nil when the storage class
    /// says it all.
    let reason: String?

    static let null = SQLiteConversionFailure(kind: .null, reason: nil)
    static func mismatch(_ reason: String? = nil) -> Self { .init(kind: .mismatch, reason: reason) }
    static func corrupted(_ reason: String) -> Self { .init(kind: .corrupted, reason: reason) }
}

/// A value as SQLite stores it, as ``SQLiteValueTable`` reads it: an ``SQLiteValue``, or a statement's column
/// read in place (``StatementColumn``), which copies nothing it does not convert.
protocol SQLiteStoredValue {
    /// `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB` or `SQLITE_NULL`.
    var storageClass: Int32 { get }
    /// The integer, for INTEGER.
    var int64: Int64 { get }
    /// The number, for REAL and INTEGER.
    var double: Double { get }
    /// The text, for TEXT; nil when its bytes are not valid UTF-8.
    var text: String? { get }
    /// The bytes, for BLOB and TEXT.
    var bytes: Data { get }
    /// The text parsed as a date of SQLite's date functions, for TEXT.
    var sqliteDate: Date? { get }
}

extension SQLiteValue: SQLiteStoredValue {
    var storageClass: Int32 {
        switch self {
        case .null: return SQLITE_NULL
        case .integer: return SQLITE_INTEGER
        case .real: return SQLITE_FLOAT
        case .text: return SQLITE_TEXT
        case .blob: return SQLITE_BLOB
        }
    }
    var int64: Int64 {
        if case .integer(let value) = self { return value }
        return 0
    }
    var double: Double {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return 0
        }
    }
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
    var bytes: Data {
        switch self {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return Data()
        }
    }
    var sqliteDate: Date? { text.flatMap(SQLiteDateFormat.date(from:)) }
}

extension StatementColumn: SQLiteStoredValue {
    var text: String? { validatedString }
    var bytes: Data { data }
    var sqliteDate: Date? { withUTF8(SQLiteDateFormat.date(fromUTF8:)) }
}

extension Int: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension Int8: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension Int16: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension Int32: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension Int64: SQLiteValueReadable {
    /// INTEGER, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension UInt: SQLiteValueReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension UInt8: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension UInt16: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension UInt32: SQLiteValueReadable {
    /// INTEGER in range, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension UInt64: SQLiteValueReadable {
    /// INTEGER from 0, or REAL with no fractional part in range.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.integer(Self.self, from: sqliteValue) else { return nil }
        self = value
    }
}

extension Double: SQLiteValueReadable {
    /// REAL, or an INTEGER that a `Double` holds exactly (every integer up to 2^53 in magnitude, and the
    /// larger ones that are multiples of a power of two); another INTEGER fails rather than round.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.double(from: sqliteValue) else { return nil }
        self = value
    }
}

extension Float: SQLiteValueReadable {
    /// REAL within `Float`'s range, rounded to the nearest `Float` (as `JSONDecoder` reads a `Float`; an
    /// infinite REAL stays infinite), or an INTEGER a `Float` holds exactly (up to 2^24 in magnitude, and
    /// larger multiples of a power of two). A finite REAL beyond `Float.greatestFiniteMagnitude` fails
    /// rather than become infinity.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.float(from: sqliteValue) else { return nil }
        self = value
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
        guard let value = try? SQLiteValueTable.bool(from: sqliteValue) else { return nil }
        self = value
    }
}

extension String: SQLiteValueReadable {
    /// TEXT; INTEGER as its decimal text (`175`), REAL as its shortest decimal text (`19.99`).
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.string(from: sqliteValue) else { return nil }
        self = value
    }
}

extension Data: SQLiteValueReadable {
    /// BLOB, or TEXT as its UTF-8 bytes.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.data(from: sqliteValue) else { return nil }
        self = value
    }
}

extension Date: SQLiteValueReadable {
    /// TEXT in a form SQLite's date functions read (``SQLiteDateFormat``: `YYYY-MM-DD`, optionally with
    /// `HH:MM[:SS[.SSS]]` after a space or `T`, and `Z` or `±HH:MM`), or INTEGER or REAL unix seconds.
    /// Empty or unreadable text fails; it is never nil-as-now. See <https://www.sqlite.org/lang_datefunc.html>.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.date(from: sqliteValue) else { return nil }
        self = value
    }
}

extension UUID: SQLiteValueReadable {
    /// TEXT in any case, hyphenated or as 32 hex digits, optionally in braces; or a 16-byte BLOB.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = try? SQLiteValueTable.uuid(from: sqliteValue) else { return nil }
        self = value
    }
}
