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
        /// The key's type and raw bytes, when the key is plain data (`_isPOD`) of up to 16 bytes (see
        /// ``KeyTrail/bytes(of:)``), as a CodingKeys enum is (one byte, none for an enum of one case): a key's
        /// string is a function of its value, so equal bytes of the same type name the same column, and the
        /// next row's key is recognized without asking it for its string (a call through its witness table
        /// that builds a String). 0 for other keys, which are compared by their string.
        ///
        /// The type is kept as the bits of its metadata pointer (see ``typeBits(of:)``), not as an optional
        /// `ObjectIdentifier`: comparing it is then one instruction, not a test for nil and a compare.
        var keyType: UInt
        var keyBytes: KeyBytes
    }

    /// Up to 16 bytes of a key, zero-padded.
    typealias KeyBytes = (UInt64, UInt64)

    /// `count` entries are initialized, `capacity` fit.
    private(set) var entries: UnsafeMutablePointer<Entry>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 16
        entries = .allocate(capacity: capacity)
    }

    /// Releases the entries; the trail is not used afterwards.
    mutating func deallocate() {
        entries.deinitialize(count: count)
        entries.deallocate()
        count = 0
    }

    /// The column of `key` when the trail holds that key at `position` (-1 when it names no column); nil
    /// when the trail cannot tell without the key's string.
    ///
    /// Generic, and reached through `KeyedDecodingContainer`'s type-erasing box, so it runs unspecialized:
    /// the key's type is compared first, and only then its bytes (see ``isKey(_:recordedAs:_:)``).
    @inline(__always)
    func column<Key: CodingKey>(forKey key: Key, position: Int) -> Int32? {
        guard position < count else { return nil }
        let entry = entries + position
        guard Self.isKey(key, recordedAs: entry.pointee.keyType, entry.pointee.keyBytes) else { return nil }
        return entry.pointee.column
    }

    /// True when `key` is the key recorded as `keyType` and `keyBytes` in an entry.
    ///
    /// A type is recorded only for keys that ``bytes(of:)`` reads (0, which no metadata pointer is, for the
    /// others), so a key whose type matches is plain data of a size that function reads: its POD-ness is not
    /// asked again, and a key of one byte is compared as that byte alone (the padding word of a one-byte
    /// key's bytes is always 0). That saves a load and four compares per key over reading the key's bytes
    /// first.
    @inline(__always)
    static func isKey<Key>(_ key: Key, recordedAs keyType: UInt, _ keyBytes: KeyBytes) -> Bool {
        guard keyType == typeBits(of: Key.self) else { return false }
        if MemoryLayout<Key>.size == 1 { return keyBytes.0 == UInt64(unsafeBitCast(key, to: UInt8.self)) }
        return wideBytes(of: key).map { $0 == keyBytes } ?? false
    }

    /// The bits of `Key`'s metadata pointer, never 0: what ``Entry/keyType`` holds.
    @inline(__always)
    static func typeBits<Key>(of type: Key.Type) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type))
    }

    /// The raw bytes of a key that is plain data of 0, 1, 2, 4, 8 or 16 bytes (aligned to its size, or to 8
    /// for 16), zero-padded; nil for other keys.
    ///
    /// Read with `unsafeBitCast`, which compiles to one load from the key's address even in unspecialized
    /// code; `withUnsafeBytes(of:)` is not inlined there, and copying the key through its value witnesses
    /// takes two calls. A key of one byte, as a CodingKeys enum of 2 to 256 cases is, is asked for first: its
    /// size alone settles its alignment, so it is read after two checks rather than the general ones.
    @inline(__always)
    static func bytes<Key>(of key: Key) -> KeyBytes? {
        let size = MemoryLayout<Key>.size
        guard _isPOD(Key.self) else { return nil }
        if size == 1 { return (UInt64(unsafeBitCast(key, to: UInt8.self)), 0) }
        return wideBytes(of: key)
    }

    /// ``bytes(of:)`` for keys of other sizes than one byte.
    @inline(__always)
    private static func wideBytes<Key>(of key: Key) -> KeyBytes? {
        let size = MemoryLayout<Key>.size
        guard size == 0 || MemoryLayout<Key>.alignment >= min(size, 8) else { return nil }
        switch size {
        case 0: return (0, 0)
        case 1: return (UInt64(unsafeBitCast(key, to: UInt8.self)), 0)
        case 2: return (UInt64(unsafeBitCast(key, to: UInt16.self)), 0)
        case 4: return (UInt64(unsafeBitCast(key, to: UInt32.self)), 0)
        case 8: return (unsafeBitCast(key, to: UInt64.self), 0)
        case 16: return unsafeBitCast(key, to: KeyBytes.self)
        default: return nil
        }
    }

    /// The entry at `position` when it holds `key`, with its type and bytes brought up to date (the same key,
    /// first seen through another key type, or with other padding bytes); nil otherwise.
    mutating func column(forKey key: String, position: Int, keyType: UInt, keyBytes: KeyBytes) -> Int32? {
        guard position < count else { return nil }
        let entry = entries + position
        guard entry.pointee.key == key else { return nil }
        entry.pointee.keyType = keyType
        entry.pointee.keyBytes = keyBytes
        return entry.pointee.column
    }

    /// The column of `name` when the trail holds that name at `position` (-1 when it names no column); nil
    /// otherwise. For the reads by name of ``FetchedRow``, which keep a trail of their own (see
    /// ``ColumnLookup/nameTrail``): comparing the same string literal is a compare of its bits.
    @inline(__always)
    func column(forName name: String, position: Int) -> Int32? {
        guard position < count else { return nil }
        let entry = entries + position
        guard entry.pointee.key == name else { return nil }
        return entry.pointee.column
    }

    /// Records `key` and its column at `position`, dropping the entries from there on: another type, or a
    /// type that skips keys on some rows, rebuilds the trail from the first key that differs.
    mutating func record(
        _ key: String, column: Int32, at position: Int, keyType: UInt, keyBytes: KeyBytes
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
