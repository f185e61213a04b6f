#if PostgreSQL
import Foundation

/// A value bound to a `$n` parameter: its type, and its bytes in PostgreSQL's binary or text form.
///
/// Numbers, booleans, bytes, UUIDs and dates travel in PostgreSQL's binary form with their type
/// (`int8`, `float8`, `bool`, `bytea`, `uuid`, `timestamptz`), so nothing is lost or reparsed. Text,
/// decimals and JSON travel as text of an unspecified type, which the server takes as the type the
/// statement gives the parameter (the column's, in an `INSERT` or a comparison with a column). See
/// <https://www.postgresql.org/docs/current/libpq-exec.html#LIBPQ-PQEXECPARAMS>.
public struct PostgresValue: Sendable, Hashable, CustomStringConvertible {
    /// The parameter's type OID (`pg_type.oid`); 0 lets the server infer it from the statement.
    public let typeOID: UInt32
    /// True when ``bytes`` hold the binary form; false for text.
    let isBinary: Bool
    /// The encoded value; nil for SQL NULL.
    let bytes: [UInt8]?

    init(typeOID: UInt32, isBinary: Bool, bytes: [UInt8]?) {
        self.typeOID = typeOID
        self.isBinary = isBinary
        self.bytes = bytes
    }

    /// SQL NULL, of a type the server infers.
    public static let null = PostgresValue(typeOID: 0, isBinary: false, bytes: nil)

    /// True for SQL NULL.
    public var isNull: Bool { bytes == nil }

    /// A `bigint` (`int8`).
    public init(_ value: Int64) { self.init(typeOID: PostgresType.int8, isBinary: true, bytes: Self.bigEndian(value)) }

    /// An `integer` (`int4`).
    public init(_ value: Int32) {
        self.init(typeOID: PostgresType.int4, isBinary: true, bytes: Self.bigEndian(value))
    }

    /// A `smallint` (`int2`).
    public init(_ value: Int16) {
        self.init(typeOID: PostgresType.int2, isBinary: true, bytes: Self.bigEndian(value))
    }

    /// A `double precision` (`float8`), every bit kept.
    public init(_ value: Double) {
        self.init(typeOID: PostgresType.float8, isBinary: true, bytes: Self.bigEndian(value.bitPattern))
    }

    /// A `real` (`float4`).
    public init(_ value: Float) {
        self.init(typeOID: PostgresType.float4, isBinary: true, bytes: Self.bigEndian(value.bitPattern))
    }

    /// A `boolean`.
    public init(_ value: Bool) { self.init(typeOID: PostgresType.bool, isBinary: true, bytes: [value ? 1 : 0]) }

    /// A `bytea`.
    public init(_ value: Data) { self.init(typeOID: PostgresType.bytea, isBinary: true, bytes: [UInt8](value)) }

    /// A `uuid`.
    public init(_ value: UUID) {
        let u = value.uuid
        self.init(
            typeOID: PostgresType.uuid, isBinary: true,
            bytes: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }

    /// A `timestamptz`: microseconds since 2000-01-01 UTC, PostgreSQL's resolution (the date is rounded to
    /// the nearest microsecond).
    /// - Throws: `EncodingError.invalidValue` for a date PostgreSQL cannot store (NaN, before 4713 BC or
    ///   after 294276 AD).
    public init(_ value: Date) throws {
        let micros = try PostgresType.microseconds(value)
        self.init(typeOID: PostgresType.timestamptz, isBinary: true, bytes: Self.bigEndian(micros))
    }

    /// Text, of the type the statement gives the parameter (`text`, `varchar`, `numeric`, `jsonb`...).
    /// - Throws: `EncodingError.invalidValue` for text with a NUL character, which PostgreSQL's text types
    ///   cannot hold (libpq would cut the text there).
    public init(text: String) throws {
        let bytes = Array(text.utf8)
        if bytes.contains(0) { throw Self.nulInText(text, codingPath: []) }
        self.init(typeOID: 0, isBinary: false, bytes: bytes)
    }

    /// The error for text with a NUL character, at `codingPath`.
    static func nulInText(_ text: String, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            text,
            EncodingError.Context(
                codingPath: codingPath, debugDescription: "PostgreSQL text cannot hold a NUL character (U+0000)"))
    }

    /// A `numeric`, every digit of the decimal kept.
    public init(_ value: Decimal) {
        self.init(typeOID: PostgresType.numeric, isBinary: false, bytes: Array(value.description.utf8))
    }

    /// `NULL`, `int8 42`, `text 'Paris'` (text shown), `bytea <3 bytes>`.
    public var description: String {
        guard let bytes else { return "NULL" }
        let name = PostgresType.name(typeOID)
        if !isBinary { return "\(name) '\(String(decoding: bytes, as: UTF8.self))'" }
        return "\(name) <\(bytes.count) bytes>"
    }

    static func bigEndian<I: FixedWidthInteger>(_ value: I) -> [UInt8] {
        let size = MemoryLayout<I>.size
        var bytes = [UInt8](repeating: 0, count: size)
        for index in 0..<size { bytes[index] = UInt8(truncatingIfNeeded: value >> ((size - 1 - index) * 8)) }
        return bytes
    }
}

extension PostgresValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByStringLiteral
{
    /// SQL NULL.
    public init(nilLiteral: ()) { self = .null }
    /// A `bigint`.
    public init(integerLiteral value: Int64) { self.init(value) }
    /// A `double precision`.
    public init(floatLiteral value: Double) { self.init(value) }
    /// A `boolean`.
    public init(booleanLiteral value: Bool) { self.init(value) }
    /// Text; a literal with a NUL character is sent up to it, as a literal cannot throw.
    public init(stringLiteral value: String) {
        self.init(typeOID: 0, isBinary: false, bytes: Array(value.utf8.prefix { $0 != 0 }))
    }
}

/// The built-in type OIDs the library reads and writes (`pg_type.oid`, fixed since PostgreSQL 7): see
/// <https://github.com/postgres/postgres/blob/master/src/include/catalog/pg_type.dat>.
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let char: UInt32 = 18
    static let identifier: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let json: UInt32 = 114
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
    static let date: UInt32 = 1082
    static let timestamp: UInt32 = 1114
    static let timestamptz: UInt32 = 1184
    static let numeric: UInt32 = 1700
    static let uuid: UInt32 = 2950
    static let jsonb: UInt32 = 3802

    /// Seconds from PostgreSQL's epoch (2000-01-01 UTC) to Foundation's reference date (2001-01-01 UTC).
    static let referenceDateOffset: Double = 366 * 86_400

    /// The microseconds since 2000-01-01 UTC a `timestamptz` holds: from 4714-11-24 00:00:00 UTC BC (Julian
    /// day 0, PostgreSQL's "4713 BC") up to, not including, 294277-01-01 00:00:00 UTC (`MIN_TIMESTAMP` and
    /// `END_TIMESTAMP` in PostgreSQL's `datatype/timestamp.h`). The server refuses a value outside; the two
    /// ends of `Int64` would be read as `-infinity` and `infinity`.
    static let timestamptzRange: Range<Int64> = -211_813_488_000_000_000..<9_223_371_331_200_000_000

    /// A `timestamptz`'s value: microseconds since 2000-01-01 UTC, PostgreSQL's resolution (the date is
    /// rounded to the nearest microsecond).
    /// - Throws: `EncodingError.invalidValue` for a date PostgreSQL cannot store (NaN, or outside
    ///   ``timestamptzRange``: before 4713 BC or after 294276 AD), its message giving the date in unix
    ///   seconds; the caller puts it at the column's coding path.
    static func microseconds(_ date: Date) throws -> Int64 {
        let micros = (date.timeIntervalSinceReferenceDate + referenceDateOffset) * 1_000_000
        guard micros.isFinite, let exact = Int64(exactly: micros.rounded()), timestamptzRange.contains(exact) else {
            throw EncodingError.invalidValue(
                date,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "the date \(date.timeIntervalSince1970) (unix seconds) is beyond TIMESTAMPTZ's "
                        + "range, 4713 BC to 294276 AD"))
        }
        return exact
    }

    /// The type's SQL name, for messages: `BIGINT`, `TIMESTAMPTZ`, `TEXT[]`, `type 1234` for others.
    static func name(_ oid: UInt32) -> String {
        switch oid {
        case 0: return "text"
        case bool: return "BOOLEAN"
        case bytea: return "BYTEA"
        case char: return "\"char\""
        case identifier: return "NAME"
        case int8: return "BIGINT"
        case int2: return "SMALLINT"
        case int4: return "INTEGER"
        case text: return "TEXT"
        case Self.oid: return "OID"
        case json: return "JSON"
        case float4: return "REAL"
        case float8: return "DOUBLE PRECISION"
        case bpchar: return "CHARACTER"
        case varchar: return "VARCHAR"
        case date: return "DATE"
        case timestamp: return "TIMESTAMP"
        case timestamptz: return "TIMESTAMPTZ"
        case numeric: return "NUMERIC"
        case uuid: return "UUID"
        case jsonb: return "JSONB"
        default:
            if let element = elementType(ofArray: oid) { return name(element) + "[]" }
            return "type \(oid)"
        }
    }
}
#endif
