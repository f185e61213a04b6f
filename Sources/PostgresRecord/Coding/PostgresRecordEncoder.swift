#if PostgreSQL
import Foundation
import SQLiteRecord

/// An `Encoder` from a record to its column values, written straight into a ``PostgresParameters`` buffer
/// (`String`, `Int64`, `Int`, `Double`, `Bool` and `Date` without a dynamic cast or an allocation of their
/// own; every other type through ``PostgresValueWriter``'s value table).
///
/// Two forms: with a ``PostgresEncodingPlan``, each record's values go into the statement's parameter slots,
/// in the plan's column order (NULL for a column `encode(to:)` skipped), each key found at its expected place
/// in the plan; one encoder writes every record of a batch into one buffer. Without one, the columns come in
/// the order `encode(to:)` writes them, keys renamed through `columnNames` when the record's encoder uses
/// snake case. Nested values are written as JSON by `jsonEncoder`, the record's
/// `RecordEncoder.jsonEncoder`.
final class PostgresRecordEncoder: Encoder {
    private(set) var columns: [String] = []
    /// The values written so far.
    private(set) var parameters = PostgresParameters()
    let columnNames: [String: String]?
    let jsonEncoder: JSONEncoder
    /// The parameters that hold an array of scalars as a PostgreSQL array (`text[]`...), in the order written:
    /// the connection writes each as JSON instead where its column is no array column (a JSONB column of a
    /// table made before arrays were written as arrays), through ``writeArraysAsJSON(inColumns:)``. Empty for
    /// a record without one, which then costs nothing more.
    private(set) var arrays: [WrittenArray] = []
    /// The plan of the record being written.
    private var plan: PostgresEncodingPlan?
    /// The index in ``parameters`` of the record's first slot.
    private var first = 0
    /// Where the next key is expected among the plan's keys.
    private var position = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An encoder for records written by ``append(_:plan:)``.
    init(jsonEncoder: JSONEncoder, capacity: Int = 0) {
        self.jsonEncoder = jsonEncoder
        columnNames = nil
        parameters.reserve(capacity)
    }

    /// An encoder for records written by ``append(_:plan:)`` into `parameters`, emptied first: a buffer
    /// handed back by ``takeParameters()`` after an earlier statement, whose room is used again.
    init(jsonEncoder: JSONEncoder, reusing parameters: PostgresParameters) {
        self.jsonEncoder = jsonEncoder
        columnNames = nil
        self.parameters = parameters
        self.parameters.removeAll()
    }

    private init(columnNames: [String: String]?, jsonEncoder: JSONEncoder) {
        self.columnNames = columnNames
        self.jsonEncoder = jsonEncoder
    }

    /// The columns and values of `record`.
    /// - Throws: `EncodingError.invalidValue` naming the key for a value PostgreSQL cannot store.
    static func encode<T: Encodable>(_ record: T, columnNames: [String: String]?, jsonEncoder: JSONEncoder) throws
        -> (columns: [String], values: [PostgresValue])
    {
        let encoder = PostgresRecordEncoder(columnNames: columnNames, jsonEncoder: jsonEncoder)
        try record.encode(to: encoder)
        return (encoder.columns, encoder.columns.indices.map(encoder.parameters.value(at:)))
    }

    /// Appends the values of `record` for `plan`'s columns, in their order; NULL for a column its
    /// `encode(to:)` skipped (a nil Optional written with `encodeIfPresent`).
    /// - Returns: the indexes of the record's parameters.
    /// - Throws: `EncodingError.invalidValue` naming the key for a value PostgreSQL cannot store, also for a
    ///   key whose column is not among the plan's (every value the record writes is checked).
    @discardableResult
    func append<T: Encodable>(_ record: T, plan: PostgresEncodingPlan) throws -> Range<Int> {
        self.plan = plan
        position = 0
        first = parameters.appendNulls(plan.columns.count)
        try record.encode(to: self)
        return first..<parameters.count
    }

    /// Appends `value` as one more parameter (a key after a record's columns).
    func append(_ value: PostgresValue) { parameters.append(value) }

    /// The parameters written, handed over: the encoder is empty afterwards.
    func takeParameters() -> PostgresParameters {
        defer {
            parameters = PostgresParameters()
            arrays = []
        }
        return parameters
    }

    /// An array of scalars written as a PostgreSQL array: its parameter, its column, and the value itself,
    /// kept for its JSON.
    struct WrittenArray {
        let slot: Int
        let column: String
        let value: any Encodable
        let codingPath: [any CodingKey]
    }

    /// Writes each of ``arrays`` whose column `isJSON` names as the JSON `jsonEncoder` writes, as a nested
    /// value is written (``PostgresValueWriter/json(_:codingPath:jsonEncoder:)``), in place of its PostgreSQL
    /// array.
    /// - Throws: as ``PostgresValueWriter/json(_:codingPath:jsonEncoder:)``.
    func writeArraysAsJSON(inColumns isJSON: (String) -> Bool) throws {
        for array in arrays where isJSON(array.column) {
            let json = try PostgresValueWriter.json(array.value, codingPath: array.codingPath, jsonEncoder: jsonEncoder)
            parameters.set(json, at: array.slot)
        }
    }

    /// Replaces each of ``arrays`` for which `form` gives a value, from its column and the array as written,
    /// with that value (a `text[]` retyped as the array of an enum its column holds).
    /// - Throws: what `form` throws.
    func rewriteArrays(_ form: (_ column: String, _ written: PostgresValue) throws -> PostgresValue?) throws {
        for array in arrays {
            if let value = try form(array.column, parameters.value(at: array.slot)) {
                parameters.set(value, at: array.slot)
            }
        }
    }

    /// The parameter index of coding key `key`; nil when its column is not a parameter (its value is then
    /// only checked).
    private func slot(for key: some CodingKey) -> Int? {
        if let plan {
            let string = key.stringValue
            // The expected key, or one a little further on: `encodeIfPresent` skips a nil Optional's key,
            // whose slot keeps its NULL. A key found nowhere ahead was written out of order: by name.
            var next = position
            while next < plan.keys.count, plan.keys[next] != string { next += 1 }
            guard next < plan.keys.count else { return plan.slot(forKey: string).map { first + $0 } }
            position = next + 1
            return plan.slots[next].map { first + $0 }
        }
        let name = columnNames?[key.stringValue] ?? key.stringValue
        if let index = columns.firstIndex(of: name) { return index }
        columns.append(name)
        return parameters.appendNulls(1)
    }

    func setNull(for key: some CodingKey) {
        if let slot = slot(for: key) { parameters.setNull(at: slot) }
    }

    func set(_ value: Int64, for key: some CodingKey) {
        if let slot = slot(for: key) { parameters.set(value, at: slot) }
    }

    /// - Throws: `EncodingError.invalidValue` for NaN, which no engine stores (see
    ///   ``PostgresValueWriter/refuseNaN(_:codingPath:)``).
    func set(_ value: Double, for key: some CodingKey) throws {
        // The coding path is built only for the error: building it for every value costs an allocation.
        if value.isNaN { try PostgresValueWriter.refuseNaN(value, codingPath: [key]) }
        if let slot = slot(for: key) { parameters.set(value, at: slot) }
    }

    func set(_ value: Bool, for key: some CodingKey) {
        if let slot = slot(for: key) { parameters.set(value, at: slot) }
    }

    func set(_ value: String, for key: some CodingKey) throws {
        guard let slot = slot(for: key) else {
            _ = try PostgresValueWriter.text(value, codingPath: [key])
            return
        }
        try parameters.set(text: value, at: slot, codingPath: [key])
    }

    func set<T: Encodable>(_ value: T, for key: some CodingKey) throws {
        let slot = slot(for: key)
        if T.self == Date.self {
            let date = try SameTypeCast.cast(checked: value, to: Date.self)
            try PostgresValueWriter.at([key]) {
                if let slot { try parameters.set(date, at: slot) } else { _ = try PostgresType.microseconds(date) }
            }
            return
        }
        let written = try PostgresValueWriter.value(value, codingPath: [key], jsonEncoder: jsonEncoder)
        guard let slot else { return }
        parameters.set(written, at: slot)
        if PostgresType.elementType(ofArray: written.typeOID) != nil {
            let column = plan.map { $0.columns[slot - first] } ?? columns[slot]
            arrays.append(WrittenArray(slot: slot, column: column, value: value, codingPath: [key]))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PostgresValueEncoder.RefusingUnkeyed(codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PostgresValueEncoder(codingPath: [], jsonEncoder: jsonEncoder).singleValueContainer()
    }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: PostgresRecordEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.setNull(for: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try encoder.set(value, for: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.set(value, for: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.set(Int64(value), for: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try encoder.set(value, for: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.set(value, for: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.set(value, for: key) }

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
