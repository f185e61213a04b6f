import Foundation

// The keyed containers a decoding context or a reused record encoder keeps from row to row, held as their
// one reference and rebuilt from it (`withUnsafePointer`, `unsafeBitCast`, `unsafeDowncast`,
// `@exclusivity(unchecked)`). Pinned by `RowDecodingStorageTests` under the address sanitizer.
//
// Invariant: a `KeyedContainerBox` holds a keyed container as its one word only after
// `KeyedContainerLayout` has proven at run time, by reference counts, that the standard library's keyed
// containers are one shared native reference. Otherwise no box is made and the caller hands out a plain
// `KeyedDecodingContainer` (or `KeyedEncodingContainer`) each time: that path is the default, and is correct
// on its own. A box is downcast to the container type of a key type only after its key type was compared,
// and a box is used by one decoding or encoding at a time.

/// The part of ``KeyedContainerBox`` that does not depend on the container's type: what lets an owner that
/// keeps the box type-erased hand the container out again and ask whether user code still holds it.
package class ReusableContainerBox {
    /// The key type of the container in the box.
    final let keyType: ObjectIdentifier
    /// The container's one stored reference: the standard library's box around the concrete container, which
    /// every copy of a `KeyedDecodingContainer` or `KeyedEncodingContainer` shares. Held here instead of the
    /// container itself, so that this is the only reference the owner keeps (see ``isHeldElsewhere``).
    ///
    /// Typed as a stand-in native class, ``NativeObject``, not `AnyObject`: `isKnownUniquelyReferenced`
    /// answers false for every `AnyObject` on Linux, and the standard library's box class is internal to it.
    /// Only retained, released and checked for uniqueness through this type, which for any native Swift
    /// object are the same operations whatever its class; never cast to it, nor read as one. Unchecked: a box
    /// is used by one decoding or encoding at a time.
    @exclusivity(unchecked) final var reference: NativeObject

    fileprivate init(keyType: ObjectIdentifier, reference: NativeObject) {
        self.keyType = keyType
        self.reference = reference
    }

    /// True when something besides this box holds the container: user code kept a copy past the row or the
    /// record it was handed out for (a class that stores it, a closure that captures it). Asked when each row
    /// or record ends, when every copy the type's own code made is released unless it was kept.
    package final var isHeldElsewhere: Bool {
        @inline(__always) get { !isKnownUniquelyReferenced(&reference) }
    }

    /// The decoding container in the box when its key type is `Key`; `make()` otherwise.
    @inline(__always)
    package final func decodingContainer<Key: CodingKey>(
        keyedBy type: Key.Type, orElse make: () -> KeyedDecodingContainer<Key>
    ) -> KeyedDecodingContainer<Key> {
        guard keyType == ObjectIdentifier(type) else { return make() }
        // Boxes are made only by `KeyedContainerBox.init(_:keyedBy:)`, whose key type is the container's.
        return unsafeDowncast(self, to: KeyedContainerBox<KeyedDecodingContainer<Key>>.self).container
    }

    /// The encoding container in the box when its key type is `Key`; `make()` otherwise.
    @inline(__always)
    package final func encodingContainer<Key: CodingKey>(
        keyedBy type: Key.Type, orElse make: () -> KeyedEncodingContainer<Key>
    ) -> KeyedEncodingContainer<Key> {
        guard keyType == ObjectIdentifier(type) else { return make() }
        // As above.
        return unsafeDowncast(self, to: KeyedContainerBox<KeyedEncodingContainer<Key>>.self).container
    }
}

/// Holds a keyed container so that it can be kept, type-erased, by a decoding context or a reused record
/// encoder and handed out again for every row or record, and tells when user code kept it
/// (``ReusableContainerBox/isHeldElsewhere``).
///
/// Generic over the container type itself, not its key type: then the container's type metadata is one of
/// this class's generic arguments, which ``container`` reads from the box's own class metadata, where code
/// that names `KeyedDecodingContainer<Key>` in an unspecialized context looks it up in the runtime's
/// generic metadata cache on every row.
///
/// The container is stored as its one reference and rebuilt from it with a bit cast: that relies on the
/// standard library's keyed containers being a single class reference, which is not part of their ABI, so
/// ``KeyedContainerLayout`` proves it at run time (the invariant at the top of this file); where it does not
/// hold, no box is made.
package final class KeyedContainerBox<Container>: ReusableContainerBox {
    /// A box for `container` (of key type `Key`), or nil when the keyed containers' layout is not the one
    /// this box relies on.
    package convenience init?<Key: CodingKey>(_ container: Container, keyedBy type: Key.Type) {
        guard KeyedContainerLayout.isOneReference else { return nil }
        self.init(checked: container, keyType: ObjectIdentifier(type))
    }

    /// A box for `container`, without asking ``KeyedContainerLayout``: for its own check.
    fileprivate init?(checked container: Container, keyType: ObjectIdentifier) {
        guard MemoryLayout<Container>.size == MemoryLayout<NativeObject>.size else { return nil }
        // A load, which retains what it loads, of the container's one word as that reference.
        super.init(
            keyType: keyType,
            reference: withUnsafePointer(to: container) { UnsafeRawPointer($0).load(as: NativeObject.self) })
    }

    /// The container. Not inlined, so that the caller does not need its type metadata.
    var container: Container {
        @inline(never) get { unsafeBitCast(reference, to: Container.self) }
    }
}

/// The type ``ReusableContainerBox/reference`` is held as: a native Swift class with nothing in it.
final class NativeObject {}

/// Whether `KeyedDecodingContainer` and `KeyedEncodingContainer` are each one class reference, shared by
/// their copies, that a ``KeyedContainerBox`` can hold and check: proven once per process, by trying a box on
/// containers of a probe type.
enum KeyedContainerLayout {
    static let isOneReference: Bool =
        holdsOneReference { KeyedDecodingContainer(ProbeDecodingContainer()) }
        && holdsOneReference { KeyedEncodingContainer(DiscardingKeyedContainer<ProbeKey>(codingPath: [])) }

    /// True when the container `make` makes is one word that is a strong reference to a native object, which
    /// every copy of the container retains and every copy's end releases: a box of it finds itself the only
    /// holder, then finds a copy, then is the only holder again once the copy is gone. Told by the reference
    /// counts alone: `Mirror` over the container would say the same at the cost of the runtime's conformance
    /// scans on the first fetch of the process.
    private static func holdsOneReference<Container>(_ make: () -> Container) -> Bool {
        guard let box = boxed(make), !box.isHeldElsewhere else { return false }
        guard findsCopy(in: box) else { return false }
        return !box.isHeldElsewhere
    }

    /// True when the box finds a copy of its container held elsewhere while the copy lives.
    @inline(never)
    private static func findsCopy<Container>(in box: KeyedContainerBox<Container>) -> Bool {
        let copy = box.container
        return withExtendedLifetime(copy) { box.isHeldElsewhere }
    }

    /// A box of the container `make` makes, which nothing else then holds.
    @inline(never)
    private static func boxed<Container>(_ make: () -> Container) -> KeyedContainerBox<Container>? {
        KeyedContainerBox(checked: make(), keyType: ObjectIdentifier(ProbeKey.self))
    }

    private enum ProbeKey: CodingKey {
        case probe
    }
    /// A keyed decoding container that decodes nothing: only its wrapper's layout is looked at.
    private struct ProbeDecodingContainer: KeyedDecodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        var allKeys: [ProbeKey] { [] }
        func contains(_ key: ProbeKey) -> Bool { false }
        func decodeNil(forKey key: ProbeKey) throws -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: ProbeKey) throws -> T { throw probeError }
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: ProbeKey
        ) throws -> KeyedDecodingContainer<NestedKey> { throw probeError }
        func nestedUnkeyedContainer(forKey key: ProbeKey) throws -> any UnkeyedDecodingContainer { throw probeError }
        func superDecoder() throws -> any Decoder { throw probeError }
        func superDecoder(forKey key: ProbeKey) throws -> any Decoder { throw probeError }

        private var probeError: DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "probe"))
        }
    }
}
