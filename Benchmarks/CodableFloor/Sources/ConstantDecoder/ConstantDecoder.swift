import Foundation

/// A `Decoder` whose keyed container answers every key with a constant: what remains of a decode when the
/// decoder itself costs nothing, the floor of the synthesized `init(from:)` and the standard library's
/// type-erased keyed container.
///
/// It hands out one keyed container for every record, as SQLiteRecord's decoder does: made for the first
/// record and kept in a box generic over the container's type, so that no record pays an allocation or a
/// generic metadata lookup (see SQLiteRecord's `KeyedContainerBox`).
public final class ConstantDecoder: Decoder {
    /// The key type the kept container was made for, and the box that holds it.
    private var keyType: ObjectIdentifier?
    private var box: AnyObject?

    public init() {}

    public var codingPath: [any CodingKey] { [] }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // The key type was compared just above, so the box holds a container of this type.
        if keyType == ObjectIdentifier(type), let box {
            return unsafeDowncast(box, to: ContainerBox<KeyedDecodingContainer<Key>>.self).container
        }
        return makeContainer(keyedBy: type)
    }

    /// Makes the container for the first record and keeps it.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        let container = KeyedDecodingContainer(ConstantContainer<Key>())
        keyType = ObjectIdentifier(type)
        box = ContainerBox(container)
        return container
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ConstantDecoderError() }
    public func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ConstantDecoderError() }
}

/// Thrown for every shape the benchmark's city does not ask for.
public struct ConstantDecoderError: Error {}

/// Holds a keyed container; generic over the container type, so that reading it back needs no metadata lookup.
final class ContainerBox<Container> {
    private let stored: Container

    init(_ container: Container) { stored = container }

    /// Not inlined, so that the caller does not need the container's type metadata.
    var container: Container {
        @inline(never) get { stored }
    }
}

/// Answers each of the city's field types with a constant: `id` 3, `name` and the other texts "abc",
/// coordinates 1.5, `population` 7, `createdAt` 5 s after 1970, `isCapital` true.
struct ConstantContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { true }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { "abc" }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { 1.5 }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { 7 }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // T is the type just compared, so the bit cast is the identity.
        if T.self == Date.self { return unsafeBitCast(Date(timeIntervalSince1970: 5), to: T.self) }
        throw ConstantDecoderError()
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { "abc" }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { 3 }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> { throw ConstantDecoderError() }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ConstantDecoderError()
    }
    func superDecoder() throws -> any Decoder { throw ConstantDecoderError() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ConstantDecoderError() }
}
