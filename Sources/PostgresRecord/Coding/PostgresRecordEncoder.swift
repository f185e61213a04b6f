#if PostgreSQL
import Foundation

/// An `Encoder` from a record to its column values, in the order its `encode(to:)` writes them, each
/// written by ``PostgresValueWriter``. Keys are renamed through `columnNames` when the record's encoder
/// uses snake case.
final class PostgresRecordEncoder: Encoder {
    private(set) var columns: [String] = []
    private(set) var values: [PostgresValue] = []
    let columnNames: [String: String]?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(columnNames: [String: String]?) { self.columnNames = columnNames }

    /// The columns and values of `record`.
    /// - Throws: `EncodingError.invalidValue` naming the key for a value PostgreSQL cannot store.
    static func encode<T: Encodable>(_ record: T, columnNames: [String: String]?) throws -> (
        columns: [String], values: [PostgresValue]
    ) {
        let encoder = PostgresRecordEncoder(columnNames: columnNames)
        try record.encode(to: encoder)
        return (encoder.columns, encoder.values)
    }

    func set(_ value: PostgresValue, for key: some CodingKey) {
        let name = columnNames?[key.stringValue] ?? key.stringValue
        if let index = columns.firstIndex(of: name) {
            values[index] = value
        } else {
            columns.append(name)
            values.append(value)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PostgresValueEncoder.RefusingUnkeyed(codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PostgresValueEncoder(codingPath: []).singleValueContainer()
    }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: PostgresRecordEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.set(.null, for: key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            encoder.set(try PostgresValueWriter.value(value, codingPath: [key]), for: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(PostgresValueEncoder.RefusingContainer<NestedKey>(codingPath: [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            PostgresValueEncoder.RefusingUnkeyed(codingPath: [key])
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}
#endif
