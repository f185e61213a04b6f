/// What an encoder or container that user code kept past its record hands out: containers that store
/// nothing and throw ``recordIsDone(_:codingPath:)`` for every value, so that a value encoded after its
/// record was written is an error, never a value bound into the statement of a later write.
///
/// `Encoder`'s container methods cannot throw, so the error comes from the first `encode` into them.
enum FinishedEncoding {
    /// The error for a value encoded through an encoder or container after the record it was made for.
    static func recordIsDone(_ value: Any, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            .init(
                codingPath: codingPath,
                debugDescription: "The record this encoder wrote is done: encode values inside encode(to:), not "
                    + "after it returns (an encoder or container is valid only during the encode(to:) it was "
                    + "passed to)"))
    }
}

/// A keyed container of a finished record (see ``FinishedEncoding``).
struct FinishedKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        throw FinishedEncoding.recordIsDone(Optional<Any>.none as Any, codingPath: codingPath + [key])
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        throw FinishedEncoding.recordIsDone(value, codingPath: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FinishedKeyedEncodingContainer<NestedKey>(codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FinishedEncodingContainer(codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder { FinishedEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FinishedEncoder(codingPath: codingPath + [key]) }
}

/// An unkeyed or single-value container of a finished record (see ``FinishedEncoding``).
struct FinishedEncodingContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    var count: Int { 0 }

    mutating func encodeNil() throws {
        throw FinishedEncoding.recordIsDone(Optional<Any>.none as Any, codingPath: codingPath)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        throw FinishedEncoding.recordIsDone(value, codingPath: codingPath)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FinishedKeyedEncodingContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { FinishedEncoder(codingPath: codingPath) }
}

/// An encoder of a finished record: every container it hands out is finished (see ``FinishedEncoding``).
struct FinishedEncoder: Encoder {
    let codingPath: [any CodingKey]
    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FinishedKeyedEncodingContainer<Key>(codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { FinishedEncodingContainer(codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer {
        FinishedEncodingContainer(codingPath: codingPath)
    }
}
