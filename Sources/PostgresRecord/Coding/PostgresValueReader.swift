#if PostgreSQL
import Foundation
import SQLiteRecord

/// The value table on the read side: a ``PostgresCell`` converted to the Swift type asked for when the
/// conversion is exact, else Foundation's `DecodingError` naming the column (`typeMismatch` when the
/// column's type can never hold the Swift type, `dataCorrupted` when it can but this value does not fit).
enum PostgresValueReader {
    /// The JSON decoder of `RowDecoder()`, for reads outside a record type that declares its own.
    static let defaultJSONDecoder = RowDecoder().jsonDecoder

    /// `cell` as a `T`; a nested value from the JSON the cell holds, read by `jsonDecoder` (the record's
    /// `RowDecoder.jsonDecoder`).
    /// - Throws: `DecodingError` at `codingPath` naming `column` (see the type's summary), or the nested
    ///   value's own error with `codingPath` in front of its path.
    /// - Parameter element: the index of the element of an array column that `cell` is, for messages; nil
    ///   for a column's own value.
    static func read<T: Decodable>(
        _ type: T.Type, _ cell: PostgresCell, column: String, codingPath: [any CodingKey],
        jsonDecoder: JSONDecoder = defaultJSONDecoder, element: Int? = nil
    ) throws -> T {
        let reader = Context(
            cell: cell, column: column, codingPath: codingPath, jsonDecoder: jsonDecoder, element: element)
        if case .null = cell {
            if let optional = T.self as? any NilValue.Type, let none = optional.nilValue as? T { return none }
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Expected \(T.self) but \(reader.place) is NULL"))
        }
        if let value = try reader.direct(T.self) { return value }
        if case .array(let array) = cell, array.lengths.count > 1 {
            throw reader.mismatch(
                T.self,
                "which no Swift array reads (one dimension only): select array_to_json(column) and read it as a "
                    + "nested value")
        }
        do {
            return try T(from: PostgresValueDecoder(reader: reader))
        } catch is NestedValueRequest {
            return try reader.json(T.self)
        }
    }

    /// True for the types ``Context/direct(_:)`` reads straight from a column: a query of one column
    /// decodes as them from that column, not as a keyed value (Decimal and URL are keyed in Codable).
    static func readsDirectly(_ type: Any.Type) -> Bool {
        switch type {
        case is Int64.Type, is Int.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt64.Type, is UInt.Type,
            is UInt32.Type, is UInt16.Type, is UInt8.Type, is Double.Type, is Float.Type, is Bool.Type,
            is String.Type, is Data.Type, is Date.Type, is UUID.Type, is Decimal.Type, is URL.Type:
            return true
        default: return false
        }
    }

    /// The date `micros` microseconds after 2000-01-01 UTC (a `timestamptz`'s binary form).
    @inline(__always)
    static func date(microseconds micros: Int64) -> Date {
        // Whole seconds and microseconds apart, so that the Double sum loses as little as it can.
        let seconds = micros.quotientAndRemainder(dividingBy: 1_000_000)
        return Date(
            timeIntervalSinceReferenceDate: Double(seconds.quotient) - PostgresType.referenceDateOffset
                + Double(seconds.remainder) / 1_000_000)
    }

    struct Context {
        let cell: PostgresCell
        let column: String
        let codingPath: [any CodingKey]
        /// What reads a nested value's JSON.
        var jsonDecoder: JSONDecoder = PostgresValueReader.defaultJSONDecoder
        /// The index of the array element that ``cell`` is, nil for a column's own value.
        var element: Int? = nil

        /// Where the value is, for messages: `column "tags"`, or `element 2 of column "tags"` (from 0, as the
        /// Swift array counts).
        var place: String {
            guard let element else { return "column \"\(column)\"" }
            return "element \(element) of column \"\(column)\""
        }

        func mismatch(_ swiftType: Any.Type, _ reason: String? = nil) -> DecodingError {
            DecodingError.typeMismatch(
                swiftType,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Expected \(swiftType) but \(place) holds \(cell.summary)"
                        + (reason.map { ", " + $0 } ?? "")))
        }

        func corrupted(_ swiftType: Any.Type, _ reason: String) -> DecodingError {
            DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Expected \(swiftType) but \(place) holds \(cell.summary), \(reason)"))
        }

        /// The error for PostgreSQL's `'infinity'` (`positive`) or `'-infinity'` read as a `Date`.
        func infinite(_ positive: Bool) -> DecodingError {
            corrupted(
                Date.self,
                "PostgreSQL's '\(positive ? "" : "-")infinity', which no Date holds: read the column as an Optional "
                    + "with a CASE in SQL of your own, or store a finite date")
        }

        /// The types the table reads straight from a column; nil for other types.
        func direct<T>(_ type: T.Type) throws -> T? {
            // Each case is a metatype cast, tried in order: the types records hold most come first.
            switch type {
            case is String.Type: return try string() as? T
            case is Int64.Type: return try integer(Int64.self) as? T
            case is Int.Type: return try integer(Int.self) as? T
            case is Double.Type: return try double() as? T
            case is Bool.Type: return try bool() as? T
            case is Date.Type: return try date() as? T
            case is Int32.Type: return try integer(Int32.self) as? T
            case is Int16.Type: return try integer(Int16.self) as? T
            case is Int8.Type: return try integer(Int8.self) as? T
            case is UInt64.Type: return try integer(UInt64.self) as? T
            case is UInt.Type: return try integer(UInt.self) as? T
            case is UInt32.Type: return try integer(UInt32.self) as? T
            case is UInt16.Type: return try integer(UInt16.self) as? T
            case is UInt8.Type: return try integer(UInt8.self) as? T
            case is Float.Type: return try float() as? T
            case is Data.Type: return try data() as? T
            case is UUID.Type: return try uuid() as? T
            case is Decimal.Type: return try decimal() as? T
            case is URL.Type: return try url() as? T
            default: return nil
            }
        }

        func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            switch cell {
            case .integer(let value, _):
                guard let exact = I(exactly: value) else { throw corrupted(I.self, "out of range") }
                return exact
            case .double(let value): return try integral(Double(value), I.self)
            case .float(let value): return try integral(Double(value), I.self)
            case .numeric(let text):
                guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), decimal.isFinite
                else { throw corrupted(I.self, "not a finite number") }
                var rounded = Decimal()
                var copy = decimal
                NSDecimalRound(&rounded, &copy, 0, .plain)
                guard rounded == decimal else { throw corrupted(I.self, "which has a fractional part") }
                guard let exact = I(exactly: (rounded as NSDecimalNumber).int64Value), Decimal(Int64(exact)) == rounded
                else { throw corrupted(I.self, "out of range") }
                return exact
            default: throw mismatch(I.self)
            }
        }

        private func integral<I: FixedWidthInteger>(_ value: Double, _ type: I.Type) throws -> I {
            guard value.rounded(.towardZero) == value else { throw corrupted(I.self, "which has a fractional part") }
            guard let exact = I(exactly: value) else { throw corrupted(I.self, "out of range") }
            return exact
        }

        func double() throws -> Double {
            switch cell {
            case .double(let value): return value
            case .float(let value): return Double(value)
            case .integer(let value, _):
                guard let exact = Double(exactly: value) else { throw corrupted(Double.self, "beyond 2^53") }
                return exact
            case .numeric(let text):
                // Exact when the double's shortest decimal form is the same number (19.99, not 19.9899...).
                guard let value = Double(text), value.isFinite || text.contains("Infinity") else {
                    throw corrupted(Double.self, "not a number a Double holds")
                }
                if value.isFinite {
                    let posix = Locale(identifier: "en_US_POSIX")
                    guard Decimal(string: text, locale: posix) == Decimal(string: "\(value)", locale: posix) else {
                        throw corrupted(Double.self, "which a Double cannot hold exactly")
                    }
                }
                return value
            default: throw mismatch(Double.self)
            }
        }

        func float() throws -> Float {
            switch cell {
            case .float(let value): return value
            case .double(let value):
                guard value.isNaN || value.isInfinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
                    throw corrupted(Float.self, "beyond Float's range")
                }
                return Float(value)
            case .integer(let value, _):
                guard let exact = Float(exactly: value) else { throw corrupted(Float.self, "beyond 2^24") }
                return exact
            default: throw mismatch(Float.self)
            }
        }

        func bool() throws -> Bool {
            switch cell {
            case .bool(let value): return value
            case .integer(let value, _):
                guard value == 0 || value == 1 else { throw corrupted(Bool.self, "neither 0 nor 1") }
                return value == 1
            default: throw mismatch(Bool.self)
            }
        }

        func string() throws -> String {
            switch cell {
            case .text(let text, _), .numeric(let text): return text
            case .integer(let value, _): return String(value)
            case .uuid(let uuid): return uuid.uuidString.lowercased()
            default: throw mismatch(String.self)
            }
        }

        func data() throws -> Data {
            switch cell {
            case .bytea(let data): return data
            case .text(let text, _): return Data(text.utf8)
            default: throw mismatch(Data.self)
            }
        }

        func date() throws -> Date {
            // PostgreSQL's 'infinity' and '-infinity' are the extreme values of the binary forms. No Date stands
            // for them that would be written back as they are, so they are refused rather than made a date.
            switch cell {
            case .timestamp(let micros, _):
                if micros == Int64.max || micros == Int64.min { throw infinite(micros > 0) }
                return PostgresValueReader.date(microseconds: micros)
            case .date(let days):
                if days == Int32.max || days == Int32.min { throw infinite(days > 0) }
                return Date(timeIntervalSinceReferenceDate: Double(days) * 86_400 - PostgresType.referenceDateOffset)
            default: throw mismatch(Date.self)
            }
        }

        func uuid() throws -> UUID {
            switch cell {
            case .uuid(let uuid): return uuid
            case .text(let text, _):
                guard let uuid = UUID(uuidString: text) else { throw corrupted(UUID.self, "not a UUID") }
                return uuid
            case .bytea(let data):
                guard data.count == 16 else { throw corrupted(UUID.self, "not 16 bytes") }
                let b = [UInt8](data)
                return UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    ))
            default: throw mismatch(UUID.self)
            }
        }

        func decimal() throws -> Decimal {
            let posix = Locale(identifier: "en_US_POSIX")
            switch cell {
            case .numeric(let text), .text(let text, _):
                guard let value = Decimal(string: text, locale: posix), value.isFinite,
                    let number = DecimalDigits(text)
                else {
                    throw corrupted(Decimal.self, "not a finite decimal number")
                }
                // Decimal's mantissa is below 2^128 (every number of 38 significant digits, and those of 39 up
                // to 340282366920938463463374607431768211455) and `Decimal(string:)` drops the digits beyond:
                // the value is exact only when it writes the same number as the text.
                guard DecimalDigits(value.description) == number else {
                    throw corrupted(Decimal.self, "more significant digits than Decimal holds (a mantissa below 2^128)")
                }
                return value
            case .integer(let value, _): return Decimal(value)
            case .double(let value):
                guard value.isFinite, let decimal = Decimal(string: "\(value)", locale: posix) else {
                    throw corrupted(Decimal.self, "not a finite number")
                }
                return decimal
            default: throw mismatch(Decimal.self)
            }
        }

        func url() throws -> URL {
            switch cell {
            case .text(let text, _):
                guard let url = URL(string: text) else { throw corrupted(URL.self, "not a URL") }
                return url
            default: throw mismatch(URL.self)
            }
        }

        /// A nested value from the JSON a `json`, `jsonb` or text column holds.
        func json<T: Decodable>(_ type: T.Type) throws -> T {
            guard case .text(let text, _) = cell else { throw mismatch(T.self) }
            do {
                return try jsonDecoder.decode(T.self, from: Data(text.utf8))
            } catch let error as DecodingError {
                throw Self.prefixed(error, with: codingPath, column: column)
            }
        }

        /// A nested value's error with the column's coding path in front of its own.
        static func prefixed(_ error: DecodingError, with path: [any CodingKey], column: String) -> DecodingError {
            func context(_ c: DecodingError.Context) -> DecodingError.Context {
                DecodingError.Context(
                    codingPath: path + c.codingPath,
                    debugDescription: "Column \"\(column)\" holds JSON that does not fit: \(c.debugDescription)",
                    underlyingError: c.underlyingError)
            }
            switch error {
            case .typeMismatch(let type, let c): return .typeMismatch(type, context(c))
            case .valueNotFound(let type, let c): return .valueNotFound(type, context(c))
            case .keyNotFound(let key, let c): return .keyNotFound(key, context(c))
            case .dataCorrupted(let c): return .dataCorrupted(context(c))
            @unknown default: return error
            }
        }
    }
}

/// The number a decimal text writes (`-0012.3400`, `1.5e3`), as its significant digits and the power of ten
/// of the last one: `12.34` and `12.3400` are the same number, digits `1234` and exponent -2. Zero has no
/// digits.
struct DecimalDigits: Equatable {
    let isNegative: Bool
    let digits: [UInt8]
    let exponent: Int

    /// Nil for text that is not `[+-]digits[.digits][(e|E)[+-]digits]` with at least one digit.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        var isNegative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            isNegative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        var seenDigit = false
        while index < bytes.count {
            let byte = bytes[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                seenDigit = true
                // Leading zeros are no digit of the number; those after the point still move the exponent.
                if !digits.isEmpty || byte != UInt8(ascii: "0") { digits.append(byte) }
                if seenPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard seenDigit else { return nil }
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var sign = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            // Six digits are far beyond any exponent a Decimal or a NUMERIC holds, and cannot overflow.
            let power = bytes[index...]
            guard !power.isEmpty, power.count <= 6,
                power.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            exponent += sign * power.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            self.isNegative = false
            self.digits = []
            self.exponent = 0
        } else {
            self.isNegative = isNegative
            self.digits = digits
            self.exponent = exponent
        }
    }
}

/// Optional, whose nil a generic reader makes for NULL when it is asked for `T?` itself.
protocol NilValue {
    static var nilValue: Self { get }
}

extension Optional: NilValue {
    static var nilValue: Self { nil }
}

/// A decoder over one column's value, for types that decode through a single-value container (enums with a
/// raw value, wrappers). A keyed or unkeyed container means a nested value, read from JSON instead.
struct PostgresValueDecoder: Decoder, SingleValueDecodingContainer {
    let reader: PostgresValueReader.Context
    var codingPath: [any CodingKey] { reader.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NestedValueRequest()
    }
    /// An array column's elements (a `[T]` reads them in order); for another column, a nested value's JSON.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = reader.cell else { throw NestedValueRequest() }
        return PostgresArrayDecodingContainer(array: array, reader: reader)
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = reader.cell { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try PostgresValueReader.read(
            T.self, reader.cell, column: reader.column, codingPath: reader.codingPath, jsonDecoder: reader.jsonDecoder,
            element: reader.element)
    }
}
#endif
