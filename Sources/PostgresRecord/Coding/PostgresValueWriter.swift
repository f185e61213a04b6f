#if PostgreSQL
import Foundation
import SQLiteRecord

/// The value table on the write side: a Swift value as the ``PostgresValue`` its column stores (`Int64`
/// BIGINT, `Int32` INTEGER, `Double` DOUBLE PRECISION, `String` TEXT, `Bool` BOOLEAN, `Data` BYTEA, `Date`
/// TIMESTAMPTZ, `UUID` UUID, `Decimal` NUMERIC, enums as their raw value, arrays of those scalars (and of
/// their Optionals) as PostgreSQL arrays (`text[]`, `bigint[]`...: ``PostgresArrayElement``), other nested
/// values as JSON text).
enum PostgresValueWriter {
    /// The JSON encoder of `RecordEncoder()`, for records that keep the default: keys sorted, so that equal
    /// values give equal text.
    static let defaultJSONEncoder = RecordEncoder().jsonEncoder

    /// `value` as its column stores it; a nested value as the JSON `jsonEncoder` writes (the record's
    /// `RecordEncoder.jsonEncoder`).
    /// - Throws: `EncodingError.invalidValue` at `codingPath` for a value PostgreSQL cannot store, or what
    ///   `jsonEncoder` throws.
    static func value<T: Encodable>(
        _ value: T, codingPath: [any CodingKey], jsonEncoder: JSONEncoder = defaultJSONEncoder
    ) throws -> PostgresValue {
        if let direct = try direct(value, codingPath: codingPath) { return direct }
        // An array of the value table's scalars is a PostgreSQL array (`text[]`...); of anything else, JSON.
        if let array = value as? any PostgresArrayValue { return try array.postgresArray(codingPath: codingPath) }
        let encoder = PostgresValueEncoder(codingPath: codingPath, jsonEncoder: jsonEncoder)
        var isNested = false
        do {
            try value.encode(to: encoder)
        } catch is NestedValueRequest {
            isNested = true
        }
        // A type that asked for a container is nested even when it wrote nothing into it (an empty array).
        if isNested || encoder.storage.asksForContainer {
            return try json(value, codingPath: codingPath, jsonEncoder: jsonEncoder)
        }
        guard let encoded = encoder.storage.value else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(T.self) encoded nothing"))
        }
        return encoded
    }

    /// `value` as the JSON text `jsonEncoder` writes, an untyped text parameter that a JSON, JSONB or text
    /// column takes: a nested value, and an array of scalars written into a column that is no array (see
    /// ``PostgresRecordEncoder/arrays``).
    /// - Throws: `EncodingError.invalidValue` at `codingPath` for a string holding U+0000, or what
    ///   `jsonEncoder` throws.
    static func json<T: Encodable>(_ value: T, codingPath: [any CodingKey], jsonEncoder: JSONEncoder) throws
        -> PostgresValue
    {
        let data = try jsonEncoder.encode(value)
        // JSON writes U+0000 in a string as the escape `\u0000`, which JSONB refuses (SQLSTATE 22P05):
        // refused here, as in a text column, before anything is sent.
        if Self.holdsEscapedNUL(data) {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "PostgreSQL's JSONB cannot hold a NUL character (U+0000) in a string"))
        }
        return try PostgresValue(text: String(decoding: data, as: UTF8.self))
    }

    /// Throws for NaN: SQLite stores a bound NaN as NULL, so the library refuses NaN on both engines, in a
    /// stored value and in a filter, rather than let one engine match what the other cannot hold. Infinities
    /// are stored on both.
    /// - Throws: `EncodingError.invalidValue` naming the column.
    static func refuseNaN(_ value: Double, codingPath: [any CodingKey]) throws {
        guard value.isNaN else { return }
        let column = codingPath.last.map { "column \"\($0.stringValue)\"" } ?? "a column"
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Cannot store Double NaN in \(column): " + RecordError.nanRefusal))
    }

    static func direct(_ value: Any, codingPath: [any CodingKey]) throws -> PostgresValue? {
        // Each case is a dynamic cast from Any, tried in order: the types records hold most come first.
        switch value {
        case let v as String: return try text(v, codingPath: codingPath)
        case let v as Int64: return PostgresValue(v)
        case let v as Int: return PostgresValue(Int64(v))
        case let v as Double:
            try refuseNaN(v, codingPath: codingPath)
            return PostgresValue(v)
        case let v as Bool: return PostgresValue(v)
        case let v as Date: return try at(codingPath) { try PostgresValue(v) }
        case let v as Int32: return PostgresValue(v)
        case let v as Int16: return PostgresValue(v)
        case let v as Int8: return PostgresValue(Int16(v))
        case let v as UInt8: return PostgresValue(Int16(v))
        case let v as UInt16: return PostgresValue(Int32(v))
        case let v as UInt32: return PostgresValue(Int64(v))
        case let v as UInt64: return try unsigned(v, codingPath)
        case let v as UInt: return try unsigned(UInt64(v), codingPath)
        case let v as Float:
            try refuseNaN(Double(v), codingPath: codingPath)
            return PostgresValue(v)
        case let v as Data: return PostgresValue(v)
        case let v as UUID: return PostgresValue(v)
        case let v as Decimal:
            guard v.isFinite else {
                throw EncodingError.invalidValue(
                    v, EncodingError.Context(codingPath: codingPath, debugDescription: "a NaN Decimal"))
            }
            return PostgresValue(v)
        case let v as URL: return try PostgresValue(text: v.absoluteString)
        default: return nil
        }
    }

    /// True when JSON text holds the escape `\u0000`; a backslash that an escape
    /// `\\` began is not the start of one.
    static func holdsEscapedNUL(_ json: Data) -> Bool {
        let bytes = [UInt8](json)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2...index + 5].allSatisfy({ $0 == UInt8(ascii: "0") })
            {
                return true
            }
            index += 2
        }
        return false
    }

    /// Text, its error (a NUL character) at `codingPath`.
    static func text(_ value: String, codingPath: @autoclosure () -> [any CodingKey]) throws -> PostgresValue {
        try at(codingPath()) { try PostgresValue(text: value) }
    }

    /// `body`'s value; its `EncodingError.invalidValue` (made where the coding path is unknown) at
    /// `codingPath`, which is built only then.
    static func at<T>(_ codingPath: @autoclosure () -> [any CodingKey], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch EncodingError.invalidValue(let value, let context) {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath(), debugDescription: context.debugDescription))
        }
    }

    private static func unsigned(_ value: UInt64, _ codingPath: [any CodingKey]) throws -> PostgresValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "\(value) is beyond BIGINT's range (Int64.max)"))
        }
        return PostgresValue(exact)
    }
}

/// An encoder for one column's value, for types that encode through a single-value container (enums with a
/// raw value, wrappers). A keyed or unkeyed container means a nested value, written as JSON instead.
final class PostgresValueEncoder: Encoder {
    final class Storage {
        var value: PostgresValue?
        var asksForContainer = false
    }
    let codingPath: [any CodingKey]
    let jsonEncoder: JSONEncoder
    let storage = Storage()
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey], jsonEncoder: JSONEncoder) {
        self.codingPath = codingPath
        self.jsonEncoder = jsonEncoder
    }

    /// The encoder a refusing container hands out: what it writes is part of a nested value, which the
    /// writer encodes as JSON whole, so its own JSON encoder is never used.
    convenience init(nestedAt codingPath: [any CodingKey]) {
        self.init(codingPath: codingPath, jsonEncoder: PostgresValueWriter.defaultJSONEncoder)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.asksForContainer = true
        return KeyedEncodingContainer(RefusingContainer<Key>(codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.asksForContainer = true
        return RefusingUnkeyed(codingPath: codingPath)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Single: SingleValueEncodingContainer {
        let encoder: PostgresValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        mutating func encodeNil() throws { encoder.storage.value = .null }
        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.storage.value = try PostgresValueWriter.value(
                value, codingPath: codingPath, jsonEncoder: encoder.jsonEncoder)
        }
    }

    /// A keyed container whose every call says "this is a nested value": the writer then encodes it as JSON.
    struct RefusingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let codingPath: [any CodingKey]
        mutating func encodeNil(forKey key: Key) throws { throw NestedValueRequest() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NestedValueRequest() }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(RefusingContainer<NestedKey>(codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            RefusingUnkeyed(codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder { PostgresValueEncoder(nestedAt: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { PostgresValueEncoder(nestedAt: codingPath) }
    }

    struct RefusingUnkeyed: UnkeyedEncodingContainer {
        let codingPath: [any CodingKey]
        var count: Int { 0 }
        mutating func encodeNil() throws { throw NestedValueRequest() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw NestedValueRequest() }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(RefusingContainer<NestedKey>(codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { PostgresValueEncoder(nestedAt: codingPath) }
    }
}
#endif
