#if PostgreSQL
import Foundation
import SQLiteRecord

/// An `Encoder` from a record to its column values, each written by ``PostgresValueWriter``.
///
/// Two forms: with a ``PostgresEncodingPlan``, the values go straight into the statement's parameter slots,
/// in the plan's column order (NULL for a column `encode(to:)` skipped), each key found at its expected place
/// in the plan; without one, the columns come in the order `encode(to:)` writes them, keys renamed through
/// `columnNames` when the record's encoder uses snake case. `String`, `Int64`, `Int`, `Double`, `Bool` and
/// `Date` are written without a dynamic cast; every other type through the value table.
final class PostgresRecordEncoder: Encoder {
    private(set) var columns: [String] = []
    private(set) var values: [PostgresValue] = []
    let columnNames: [String: String]?
    private let plan: PostgresEncodingPlan?
    /// Where the next key is expected among the plan's keys.
    private var position = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(columnNames: [String: String]?) {
        self.columnNames = columnNames
        plan = nil
    }

    private init(plan: PostgresEncodingPlan) {
        self.plan = plan
        columnNames = nil
        values = [PostgresValue](repeating: .null, count: plan.columns.count)
    }

    /// The columns and values of `record`.
    /// - Throws: `EncodingError.invalidValue` naming the key for a value PostgreSQL cannot store.
    static func encode<T: Encodable>(_ record: T, columnNames: [String: String]?) throws -> (
        columns: [String], values: [PostgresValue]
    ) {
        let encoder = PostgresRecordEncoder(columnNames: columnNames)
        try record.encode(to: encoder)
        return (encoder.columns, encoder.values)
    }

    /// The values of `record` for `plan`'s columns, in their order; NULL for a column its `encode(to:)`
    /// skipped (a nil Optional written with `encodeIfPresent`).
    /// - Throws: `EncodingError.invalidValue` naming the key for a value PostgreSQL cannot store, also for a
    ///   key whose column is not among the plan's (every value the record writes is checked).
    static func values<T: Encodable>(of record: T, plan: PostgresEncodingPlan) throws -> [PostgresValue] {
        let encoder = PostgresRecordEncoder(plan: plan)
        try record.encode(to: encoder)
        return encoder.values
    }

    func set(_ value: PostgresValue, for key: some CodingKey) {
        if let plan {
            let string = key.stringValue
            let slot: Int?
            if position < plan.keys.count, plan.keys[position] == string {
                slot = plan.slots[position]
                position += 1
            } else {
                slot = plan.slot(forKey: string)
            }
            if let slot { values[slot] = value }
            return
        }
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

        mutating func encode(_ value: String, forKey key: Key) throws {
            encoder.set(try PostgresValueWriter.text(value, codingPath: [key]), for: key)
        }

        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.set(PostgresValue(value), for: key) }

        mutating func encode(_ value: Int, forKey key: Key) throws {
            encoder.set(PostgresValue(Int64(value)), for: key)
        }

        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.set(PostgresValue(value), for: key) }

        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.set(PostgresValue(value), for: key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if T.self == Date.self {
                encoder.set(try PostgresValue(try SameTypeCast.cast(checked: value, to: Date.self)), for: key)
                return
            }
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
