/// The coding keys a row asked for, in the order it asked for them, with their columns: what lets
/// ``ColumnLookup`` find a key's column without hashing.
///
/// A type's `init(from:)` asks for the same keys in the same order on every row, so after the first row each
/// key is found by comparing it with the key asked for at the same position. The entry at a position also
/// names the key for the errors of the column read it led to (``ColumnReader/codingPath``).
///
/// Kept in raw memory that ``ColumnLookup`` owns, reached through a pointer: the decoder reads it for every
/// column of every row, where a class's stored `var` would cost a dynamic exclusivity check per access and
/// a class reference a retain and a release.
struct KeyTrail {
    /// A key asked for at one position of the row, and its column.
    struct Entry {
        let key: String
        /// The column index, -1 for none.
        let column: Int32
        /// The key's type and raw bytes, when the key is plain data (`_isPOD`) of at most 16 bytes, as a
        /// CodingKeys enum is (one byte, none for an enum of one case): a key's string is a function of its
        /// value, so equal bytes of the same type name the same column, and the next row's key is recognized
        /// without asking it for its string (a call through its witness table that builds a String). nil for
        /// other keys, which are compared by their string.
        var keyType: ObjectIdentifier?
        var keyBytes: KeyBytes
    }

    /// Up to 16 bytes of a key, zero-padded.
    typealias KeyBytes = (UInt64, UInt64)

    /// `count` entries are initialized, `capacity` fit.
    private(set) var entries: UnsafeMutablePointer<Entry>
    private(set) var count = 0
    private var capacity: Int
    /// 16 bytes where a key is copied to read its bytes.
    private let scratch: UnsafeMutableRawPointer

    init() {
        capacity = 16
        entries = .allocate(capacity: capacity)
        scratch = .allocate(byteCount: 16, alignment: 16)
    }

    /// Releases the entries; the trail is not used afterwards.
    mutating func deallocate() {
        entries.deinitialize(count: count)
        entries.deallocate()
        scratch.deallocate()
        count = 0
    }

    /// The column of `key` when the trail holds that key at `position` (-1 when it names no column); nil
    /// when the trail cannot tell without the key's string.
    ///
    /// Generic, and reached through `KeyedDecodingContainer`'s type-erasing box, so it runs unspecialized:
    /// it asks the key type only for its size and POD-ness (loads from its value witness table) before
    /// comparing bytes.
    @inline(__always)
    func column<Key: CodingKey>(forKey key: Key, position: Int) -> Int32? {
        guard position < count, let bytes = bytes(of: key) else { return nil }
        let entry = entries + position
        guard entry.pointee.keyType == ObjectIdentifier(Key.self), entry.pointee.keyBytes == bytes else { return nil }
        return entry.pointee.column
    }

    /// The raw bytes of a key that is plain data of at most 16 bytes, zero-padded; nil for other keys.
    ///
    /// Copied through `scratch` rather than read with `withUnsafeBytes(of:)`: in unspecialized code that call
    /// and its closure are not inlined, and cost more than the rest of the column read.
    @inline(__always)
    func bytes<Key>(of key: Key) -> KeyBytes? {
        guard _isPOD(Key.self), MemoryLayout<Key>.size <= 16, MemoryLayout<Key>.alignment <= 16 else { return nil }
        scratch.storeBytes(of: 0, as: UInt64.self)
        scratch.storeBytes(of: 0, toByteOffset: 8, as: UInt64.self)
        scratch.initializeMemory(as: Key.self, to: key)
        return (scratch.load(as: UInt64.self), scratch.load(fromByteOffset: 8, as: UInt64.self))
    }

    /// The entry at `position` when it holds `key`, with its type and bytes brought up to date (the same key,
    /// first seen through another key type, or with other padding bytes); nil otherwise.
    mutating func column(forKey key: String, position: Int, keyType: ObjectIdentifier?, keyBytes: KeyBytes) -> Int32? {
        guard position < count else { return nil }
        let entry = entries + position
        guard entry.pointee.key == key else { return nil }
        entry.pointee.keyType = keyType
        entry.pointee.keyBytes = keyBytes
        return entry.pointee.column
    }

    /// Records `key` and its column at `position`, dropping the entries from there on: another type, or a
    /// type that skips keys on some rows, rebuilds the trail from the first key that differs.
    mutating func record(
        _ key: String, column: Int32, at position: Int, keyType: ObjectIdentifier?, keyBytes: KeyBytes
    ) {
        guard position <= count else { return }
        (entries + position).deinitialize(count: count - position)
        count = position
        if count == capacity {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = grown
            capacity *= 2
        }
        (entries + position).initialize(to: Entry(key: key, column: column, keyType: keyType, keyBytes: keyBytes))
        count = position + 1
    }

    /// The string of the key asked for at `position`; nil when the trail no longer reaches there.
    func key(atPosition position: Int) -> String? {
        position < count ? entries[position].key : nil
    }
}
