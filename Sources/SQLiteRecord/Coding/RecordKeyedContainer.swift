import Foundation

/// The keyed container over a record: each `encode(_:forKey:)` adds one column.
struct RecordKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// A reused encoder keeps this container in its container box, a cycle that the Record layer's plan
    /// breaks when it is dropped (``ColumnsEncoder/dropContainer()``), or that retiring the encoder breaks
    /// (``ColumnsEncoder/retire()``) when user code kept this container past its record: the encoder then
    /// lives as long as the kept container, binds nothing, and makes every value encoded here throw. Strong,
    /// because reaching the encoder through an unowned reference costs a retain and a release for every value.
    let encoder: ColumnsEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try encoder.putNull(for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.put(integer: value ? 1 : 0, for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encoder.put(text: value, for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.put(real: value, type: Double.self, for: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encoder.put(real: Double(value), type: Float.self, for: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encoder.put(integer: value, for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try encoder.put(unsigned: value, for: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try encoder.put(unsigned: value, for: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.put(value, for: key)
    }

    // The standard library's encodeIfPresent skips nil, which would leave the column out: an UPDATE would
    // then keep the old value. Every overload is replaced so that nil writes NULL, and each concrete one
    // calls its concrete encode (a generic helper would send a String? through the generic path).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOptional(value, key)
    }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        if encoder.isRetired {
            return KeyedEncodingContainer(FinishedKeyedEncodingContainer<NestedKey>(codingPath: [key]))
        }
        encoder.fail(key, nestingMessage(key))
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if encoder.isRetired { return FinishedEncodingContainer(codingPath: [key]) }
        encoder.fail(key, nestingMessage(key))
        return DiscardingUnkeyedContainer(codingPath: [key])
    }

    /// An encoder for the same record, that knows which record it is for as the one the record was given does.
    mutating func superEncoder() -> any Encoder {
        RecordEncodingHandle(encoder: encoder, recordSerial: encoder.recordSerial)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        if encoder.isRetired { return FinishedEncoder(codingPath: [key]) }
        encoder.fail(key, nestingMessage(key))
        return ColumnValueEncoder(codingPath: [key])
    }

    private func nestingMessage(_ key: Key) -> String {
        "\(encoder.describeColumn(key)) holds one value; encode a nested value with encode(_:forKey:) and it is "
            + "stored there as JSON"
    }
}
