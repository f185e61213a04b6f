import Foundation

/// An `Encoder` for one column: what a value type's own `encode(to:)` sees. A type that encodes a single
/// value (a RawRepresentable enum, a wrapper) leaves it in ``value``; a type that asks for a keyed or
/// unkeyed container sets ``needsContainer`` and its output is discarded, and ``ColumnsEncoder`` then stores
/// the whole value as JSON text instead.
///
/// Once its column is done (``finish()``), a value encoded through it, as a type that kept it would, throws
/// ``FinishedEncoding/recordIsDone(_:codingPath:)``.
final class ColumnValueEncoder: Encoder, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    /// The record encoder, for nested values that need its conversions; nil where nothing can be stored.
    private let owner: ColumnsEncoder?
    private(set) var value: SQLiteValue?
    private(set) var needsContainer = false
    /// True once the column this encoder served is done.
    private var isFinished = false

    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey], owner: ColumnsEncoder? = nil) {
        self.codingPath = codingPath
        self.owner = owner
    }

    /// Ends this encoder's use: called when its column is done.
    func finish() { isFinished = true }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if isFinished { return KeyedEncodingContainer(FinishedKeyedEncodingContainer<Key>(codingPath: codingPath)) }
        needsContainer = true
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if isFinished { return FinishedEncodingContainer(codingPath: codingPath) }
        needsContainer = true
        return DiscardingUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    private var key: any CodingKey { codingPath.last ?? ColumnKey.value }

    /// Throws once the column is done.
    private func checkNotFinished(_ value: Any) throws {
        if isFinished { throw FinishedEncoding.recordIsDone(value, codingPath: codingPath) }
    }

    func encodeNil() throws {
        try checkNotFinished(Optional<Any>.none as Any)
        value = .null
    }
    func encode(_ value: Bool) throws { try store(.integer(value ? 1 : 0), of: value) }
    func encode(_ value: String) throws { try store(.text(value), of: value) }
    func encode(_ value: Double) throws {
        try checkNotFinished(value)
        self.value = try owner?.real(value, type: Double.self, for: key) ?? .real(value)
    }
    func encode(_ value: Float) throws {
        try checkNotFinished(value)
        self.value = try owner?.real(Double(value), type: Float.self, for: key) ?? .real(Double(value))
    }
    func encode(_ value: Int) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: Int8) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: Int16) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: Int32) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: Int64) throws { try store(.integer(value), of: value) }
    func encode(_ value: UInt) throws { try encodeInteger(value) }
    func encode(_ value: UInt8) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: UInt16) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: UInt32) throws { try store(.integer(Int64(value)), of: value) }
    func encode(_ value: UInt64) throws { try encodeInteger(value) }

    /// Keeps `encoded`, the column value of `value`, unless the column is done.
    private func store(_ encoded: SQLiteValue, of value: Any) throws {
        try checkNotFinished(value)
        self.value = encoded
    }

    func encode<T: Encodable>(_ value: T) throws {
        try checkNotFinished(value)
        guard let owner else {
            needsContainer = true
            return
        }
        self.value = try owner.columnValue(value, for: key)
    }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T) throws {
        try checkNotFinished(value)
        if let owner {
            self.value = try owner.integer(value, for: key)
        } else if let integer = Int64(exactly: value) {
            self.value = .integer(integer)
        } else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) is above Int64.max"))
        }
    }
}

/// The key used in errors about a single value that has no coding key of its own.
enum ColumnKey: String, CodingKey {
    case value
}

/// A keyed container that accepts and drops everything: returned where `Encoder`'s non-throwing container
/// methods must return something for a shape that is stored another way or reported as an error.
struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer(codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder { ColumnValueEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ColumnValueEncoder(codingPath: codingPath + [key]) }
}

/// An unkeyed container that accepts and drops everything; see ``DiscardingKeyedContainer``.
struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    private(set) var count = 0
    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }
    mutating func encodeNil() throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer(codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { ColumnValueEncoder(codingPath: codingPath) }
}
