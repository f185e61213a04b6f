/// Holds a keyed container so it can be kept, type-erased, by a decoding context or a reused record encoder
/// and handed out again for every row or record.
///
/// Generic over the container type itself, not its key type: then the container's type metadata is one of
/// this class's generic arguments, which ``container`` reads from the box's own class metadata. Code that
/// names `KeyedDecodingContainer<Key>` in an unspecialized context (as `container(keyedBy:)` is) instead
/// looks that metadata up in the runtime's generic metadata cache, a hash lookup (about 330 instructions),
/// on every row.
final class KeyedContainerBox<Container> {
    private let stored: Container

    init(_ container: Container) { stored = container }

    /// The container. Not inlined, so that the caller does not need its type metadata.
    var container: Container {
        @inline(never) get { stored }
    }
}
