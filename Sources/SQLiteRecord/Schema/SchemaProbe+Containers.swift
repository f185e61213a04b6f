/// The keyed container a record is probed with: each request is written down and answered with a
/// placeholder, nil for Optionals.
struct RecordProbeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recording: ProbeRecording
    var codingPath: [any CodingKey] { [] }
    /// None: a record that lists the row's keys to decide what to read has no fixed columns to find.
    var allKeys: [Key] { [] }

    /// Every key is present, so a type that checks before reading goes on to read.
    func contains(_ key: Key) -> Bool { true }

    /// Notes the key as Optional; answers false, so that the type goes on to say what it reads there.
    func decodeNil(forKey key: Key) throws -> Bool {
        recording.record(key.stringValue, kind: nil, isOptional: true, valueType: Any.self)
        return false
    }

    private func primitive<T>(_ type: T.Type, _ key: Key) throws -> T {
        recording.record(
            key.stringValue, kind: SchemaProbe.directKind(type) ?? .unknown, isOptional: false, valueType: type)
        guard let value = SchemaProbe.placeholder(of: type) else {
            throw recording.failure(at: key.stringValue, valueType: type, ProbeFailure.noPlaceholder("\(type)"))
        }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do {
            let (value, kind) = try SchemaProbe.value(of: type, codingPath: [key], depth: 0)
            recording.record(
                key.stringValue, kind: kind, isOptional: type is any ProbedOptional.Type, valueType: type)
            return value
        } catch {
            throw recording.failure(at: key.stringValue, valueType: type, error)
        }
    }

    /// Notes an Optional key and answers nil: no value is needed, only the type asked for.
    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        let kind = SchemaProbe.kind(of: type, codingPath: [key])
        recording.record(key.stringValue, kind: kind, isOptional: true, valueType: type)
        return nil
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optional(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { optional(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw nestingError(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw nestingError(key) }

    /// A superclass's keys are columns of the same row.
    func superDecoder() throws -> any Decoder { RecordProbeDecoder(recording: recording) }

    /// The value at `key`, as the row decoder gives it: one column; its kind is noted when it is read.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        let recording = recording
        return ValueProbe(codingPath: [key], depth: 1) { kind in
            recording.record(key.stringValue, kind: kind, isOptional: false, valueType: Any.self)
        }
    }

    /// The row decoder refuses a nested container under a key too: a column holds one value.
    private func nestingError(_ key: Key) -> SchemaProbeError {
        SchemaProbeError(
            recordType: recording.recordType, table: recording.table, key: key.stringValue, valueType: nil,
            reason: "a column holds one value, so a record cannot read a nested container under a key; a nested "
                + "value is stored as JSON and decodes through decode(_:forKey:) with a Decodable type")
    }
}

/// The `Decoder` a property's own type is probed with (an enum, a wrapper, a nested struct): it notes the
/// first thing asked for (a single String or Int, or a container for a nested value) and answers with
/// placeholders.
final class ValueProbe: Decoder, SingleValueDecodingContainer {
    let codingPath: [any CodingKey]
    let depth: Int
    /// What the type asked for first; nil until it asks.
    private(set) var kind: ProbedValueKind?
    /// Called with the kind when it is first known.
    private let onFirstRequest: ((ProbedValueKind) -> Void)?

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey], depth: Int, onFirstRequest: ((ProbedValueKind) -> Void)? = nil) {
        self.codingPath = codingPath
        self.depth = depth
        self.onFirstRequest = onFirstRequest
    }

    private func note(_ kind: ProbedValueKind) {
        guard self.kind == nil else { return }
        self.kind = kind
        onFirstRequest?(kind)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        note(.nested)
        return KeyedDecodingContainer(PlaceholderKeyedContainer<Key>(codingPath: codingPath, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        note(.nested)
        return PlaceholderUnkeyedContainer(codingPath: codingPath, depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }

    private func primitive<T>(_ type: T.Type) throws -> T {
        note(SchemaProbe.directKind(type) ?? .unknown)
        guard let value = SchemaProbe.placeholder(of: type) else { throw ProbeFailure.noPlaceholder("\(type)") }
        return value
    }

    func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
    func decode(_ type: String.Type) throws -> String { try primitive(type) }
    func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
    func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
    func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }

    /// A wrapper around another value: what that value asks for is what this one stores.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, kind) = try SchemaProbe.value(of: type, codingPath: codingPath, depth: depth)
        note(kind)
        return value
    }
}

/// The keyed container of a nested value (stored as JSON, so its shape does not matter): every key is
/// present and holds a placeholder.
struct PlaceholderKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    let depth: Int
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    private func primitive<T>(_ type: T.Type) throws -> T {
        guard let value = SchemaProbe.placeholder(of: type) else { throw ProbeFailure.noPlaceholder("\(type)") }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try SchemaProbe.value(of: type, codingPath: codingPath + [key], depth: depth).value
    }

    /// nil: the fewer values the probe has to make, the fewer types can refuse its placeholders.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard depth < SchemaProbe.maximumDepth else { throw ProbeFailure.tooDeep }
        return KeyedDecodingContainer(
            PlaceholderKeyedContainer<NestedKey>(codingPath: codingPath + [key], depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(codingPath: codingPath + [key], depth: depth + 1)
    }

    func superDecoder() throws -> any Decoder { ValueProbe(codingPath: codingPath, depth: depth + 1) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueProbe(codingPath: codingPath + [key], depth: depth + 1)
    }
}

/// The unkeyed container of a nested value: empty, so arrays and sets decode empty; a type that reads a
/// fixed number of elements without looking at `isAtEnd` gets placeholders.
struct PlaceholderUnkeyedContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    let depth: Int
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { false }

    private func primitive<T>(_ type: T.Type) throws -> T {
        guard let value = SchemaProbe.placeholder(of: type) else { throw ProbeFailure.noPlaceholder("\(type)") }
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
    mutating func decode(_ type: String.Type) throws -> String { try primitive(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try SchemaProbe.value(of: type, codingPath: codingPath, depth: depth).value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard depth < SchemaProbe.maximumDepth else { throw ProbeFailure.tooDeep }
        return KeyedDecodingContainer(PlaceholderKeyedContainer<NestedKey>(codingPath: codingPath, depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(codingPath: codingPath, depth: depth + 1)
    }

    mutating func superDecoder() throws -> any Decoder { ValueProbe(codingPath: codingPath, depth: depth + 1) }
}
