/// Decodes a nested result (`struct CountryWithCities: Decodable { var country: Country; var cities: [City] }`)
/// from records an association request already decoded: each key of the result type is either the base
/// record's key or the association's, and its value is handed over as it is, with no second decoding.
extension AssociationLink {
    /// `type` decoded from `values` (see ``NestedResultDecoder``), for the engines' association requests.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when `type`'s keys are not those of
    ///   `values`, or what decoding a value throws.
    package func decodeNested<T: Decodable>(_ type: T.Type, values: [(key: String, value: Any)]) throws -> T {
        try T(from: NestedResultDecoder(values: values, association: self, resultType: T.self))
    }
}

struct NestedResultDecoder: Decoder {
    /// The values by key, in the order errors list them.
    let values: [(key: String, value: Any)]
    /// The association the request follows, named in errors.
    let association: AssociationLink
    let resultType: Any.Type

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(NestedResultContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw mismatch("decodes as an array")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw mismatch("decodes as a single value")
    }

    func value(forKey key: String) -> Any? {
        values.first { $0.key == key }?.value
    }

    /// The error for a result type that asks for something the request does not provide.
    func mismatch(_ what: String) -> RecordError {
        RecordError.invalidAssociation(
            association: association.description,
            reason: "the nested result type \(resultType) \(what); it must be a struct whose keys are "
                + values.map { "\"\($0.key)\" (\(type(of: $0.value)))" }.joined(separator: " and "))
    }
}

/// The keyed container of ``NestedResultDecoder``.
private struct NestedResultContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NestedResultDecoder

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.values.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { decoder.value(forKey: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = decoder.value(forKey: key.stringValue) else {
            throw decoder.mismatch("asks for key \"\(key.stringValue)\"")
        }
        return (value as? any OptionalValue)?.isNil ?? false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = decoder.value(forKey: key.stringValue) else {
            throw decoder.mismatch("asks for key \"\(key.stringValue)\"")
        }
        if let typed = value as? T { return typed }
        throw decoder.mismatch("asks for key \"\(key.stringValue)\" as \(T.self)")
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw decoder.mismatch("asks for a nested container at key \"\(key.stringValue)\"")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw decoder.mismatch("asks for a nested container at key \"\(key.stringValue)\"")
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

/// An Optional seen through `Any`: a nil parent or child of an optional joined fetch
/// (``QueryInterfaceRequest/including(optional:)->JoinedRequest<Base,Parent>``).
private protocol OptionalValue {
    var isNil: Bool { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
}
