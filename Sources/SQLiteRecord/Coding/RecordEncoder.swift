import Foundation

/// The columns a record encodes to, in coding-key order.
struct EncodedColumns {
    var names: [String] = []
    var values: [SQLiteValue] = []

    /// The value encoded for `name`, if any.
    func value(for name: String) -> SQLiteValue? {
        names.firstIndex(of: name).map { values[$0] }
    }
}

/// An `Encoder` from a record to column values: each coding key names a column, each value becomes the
/// ``SQLiteValue`` DESIGN.md's value table gives (Date as UTC text, Bool as 0/1, UUID as lowercase text,
/// nested values as JSON text). Optional properties that are nil encode as NULL, so an UPDATE clears them.
final class RecordEncoder: Encoder {
    /// The table, named in errors.
    let tableName: String?
    var columns = EncodedColumns()
    /// A shape the encoder cannot store (the record is not keyed, or nests a container under a key).
    /// `Encoder`'s container methods cannot throw, so the failure is kept and thrown when encoding ends.
    var failure: EncodingError?
    private(set) lazy var jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(tableName: String?) {
        self.tableName = tableName
    }

    /// Encodes `value`'s properties to columns.
    /// - Throws: `EncodingError.invalidValue` naming the column when a value cannot be stored (a NaN, a date
    ///   outside years 0000-9999, an integer above Int64.max), or when the value is not a keyed type.
    static func encode<T: Encodable>(_ value: T, tableName: String?) throws -> EncodedColumns {
        let encoder = RecordEncoder(tableName: tableName)
        try value.encode(to: encoder)
        if let failure = encoder.failure { throw failure }
        return encoder.columns
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fail(nil, "A record encodes into a keyed container, one column per coding key; not an array")
        return DiscardingUnkeyedContainer(codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        fail(nil, "A record encodes into a keyed container, one column per coding key; not a single value")
        return ColumnValueEncoder(codingPath: [])
    }

    func fail(_ key: (any CodingKey)?, _ message: String, value: Any = ()) {
        guard failure == nil else { return }
        failure = EncodingError.invalidValue(
            value, .init(codingPath: key.map { [$0] } ?? [], debugDescription: message))
    }

    /// `column "name" of table "cities"`, or `column "name"` when the table is unknown.
    func describeColumn(_ key: any CodingKey) -> String {
        guard let tableName else { return "column \"\(key.stringValue)\"" }
        return "column \"\(key.stringValue)\" of table \"\(tableName)\""
    }

    // MARK: Values

    func append(_ value: SQLiteValue, for key: any CodingKey) {
        columns.names.append(key.stringValue)
        columns.values.append(value)
    }

    func real(_ value: Double, type: Any.Type, for key: any CodingKey) throws -> SQLiteValue {
        // sqlite3_bind_double stores NaN as NULL: refuse rather than lose the value silently.
        guard !value.isNaN else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription: "Cannot store \(type) NaN in \(describeColumn(key)): SQLite stores NaN as NULL"))
        }
        return .real(value)
    }

    func integer<T: FixedWidthInteger>(_ value: T, for key: any CodingKey) throws -> SQLiteValue {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription:
                        "Cannot store \(T.self) \(value) in \(describeColumn(key)): SQLite integers are 64-bit signed, at most \(Int64.max)"
                ))
        }
        return .integer(integer)
    }

    /// The value table's fast paths (Date, Data, UUID, URL, Decimal), then the type's own `encode(to:)` into
    /// one column (RawRepresentable enums store their raw value), then JSON text for types that encode a
    /// keyed or unkeyed container.
    func columnValue<T: Encodable>(_ value: T, for key: any CodingKey) throws -> SQLiteValue {
        if let date = value as? Date {
            guard let text = SQLiteDateFormat.string(from: date) else {
                throw EncodingError.invalidValue(
                    date,
                    .init(
                        codingPath: [key],
                        debugDescription:
                            "Cannot store \(date.timeIntervalSince1970) unix seconds in \(describeColumn(key)): outside the years 0000-9999 that SQLite's date text holds"
                    ))
            }
            return .text(text)
        }
        if let data = value as? Data { return .blob(data) }
        if let uuid = value as? UUID { return .text(uuid.uuidString.lowercased()) }
        if let url = value as? URL { return .text(url.absoluteString) }
        if let decimal = value as? Decimal {
            guard decimal.isFinite else {
                throw EncodingError.invalidValue(
                    decimal,
                    .init(codingPath: [key], debugDescription: "Cannot store a NaN Decimal in \(describeColumn(key))"))
            }
            return .text(decimal.description)
        }
        let single = ColumnValueEncoder(codingPath: [key], owner: self)
        try value.encode(to: single)
        if single.needsContainer {
            let json = try jsonEncoder.encode(value)
            return .text(String(decoding: json, as: UTF8.self))
        }
        guard let encoded = single.value else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [key], debugDescription: "\(T.self) encoded nothing for \(describeColumn(key))"))
        }
        return encoded
    }
}

/// The keyed container over a record: each `encode(_:forKey:)` adds one column.
private struct RecordKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.append(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.append(.integer(value ? 1 : 0), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.append(.text(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        encoder.append(try encoder.real(value, type: Double.self, for: key), for: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        encoder.append(try encoder.real(Double(value), type: Float.self, for: key), for: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.append(.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        encoder.append(try encoder.integer(value, for: key), for: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.append(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        encoder.append(try encoder.integer(value, for: key), for: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoder.append(try encoder.columnValue(value, for: key), for: key)
    }

    // The standard library's encodeIfPresent skips nil, which would leave the column out: an UPDATE would
    // then keep the old value. Every overload is replaced so that nil writes NULL.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOptional(value, key)
    }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.fail(key, nestingMessage(key))
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.fail(key, nestingMessage(key))
        return DiscardingUnkeyedContainer(codingPath: [key])
    }

    mutating func superEncoder() -> any Encoder { encoder }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.fail(key, nestingMessage(key))
        return ColumnValueEncoder(codingPath: [key])
    }

    private func nestingMessage(_ key: Key) -> String {
        "\(encoder.describeColumn(key)) holds one value; encode a nested value with encode(_:forKey:) and it is "
            + "stored there as JSON"
    }
}
