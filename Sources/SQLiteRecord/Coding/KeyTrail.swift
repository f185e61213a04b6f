import Foundation

// The decoder's key trails: raw memory that one `KeyTrailAllocation` owns and that every `KeyTrail` view
// reads. Pinned by `RowDecodingStorageTests` under the address sanitizer.
//
// Invariant: a `KeyTrailAllocation` owns one trail's memory: it allocates it, and frees it in its `deinit`.
// A `ColumnLookup` holds two, so a trail lives exactly as long as its lookup. A `KeyTrail` view is read only
// by code that holds the lookup (a context, a `FetchedRow` lent by that context's fetch), or through a
// `RowDecodingState` that is not revoked, whose context holds the lookup. A revoked state reads
// `KeyTrail.empty`, which is never written and never freed. Of the entries, `count` are initialized and
// `capacity` fit; recording deinitializes the entries it drops before it writes.

/// The coding keys a row asked for, in the order it asked for them, with their columns: what lets
/// ``ColumnLookup`` find a key's column without hashing.
///
/// A type's `init(from:)` asks for the same keys in the same order on every row, so after the first row each
/// key is found by comparing it with the key asked for at the same position (``KeyIdentity``). The entry at a
/// position also names the key for the errors of the column read it led to (``ColumnReader/codingPath``).
///
/// A one-word view of memory that a ``KeyTrailAllocation`` owns (the invariant at the top of this file): the
/// decoder reads it for every column of every row, where a class's reference would cost a retain and a
/// release, and its array a uniqueness check on every write.
struct KeyTrail {
    /// A key asked for at one position of the row, and its column.
    struct Entry {
        let key: String
        /// The column index, -1 for none.
        let column: Int32
        /// The key's ``KeyIdentity/typeBits(of:)``, 0 for a key recognized by its string only.
        var keyType: UInt
        var keyBytes: KeyIdentity.Bytes
    }

    /// The entries and their count, behind the view's one word.
    fileprivate struct Storage {
        /// `count` entries are initialized, `capacity` fit.
        var entries: UnsafeMutablePointer<Entry>
        var count: Int
        var capacity: Int
    }

    fileprivate let storage: UnsafeMutablePointer<Storage>

    /// The trail of a revoked row state: empty, never recorded into (recording goes through a column lookup,
    /// never through a state), never freed. Immutable after its creation, so it is safe to share.
    nonisolated(unsafe) static let empty: KeyTrail = KeyTrail(storage: KeyTrailAllocation.allocateStorage())

    fileprivate init(storage: UnsafeMutablePointer<Storage>) { self.storage = storage }

    /// How many entries the trail holds.
    var count: Int { storage.pointee.count }

    /// The column of `key` when the trail holds that key at `position` (-1 when it names no column); nil
    /// when the trail cannot tell without the key's string.
    @inline(__always)
    func column<Key: CodingKey>(forKey key: Key, position: Int) -> Int32? {
        guard position < storage.pointee.count else { return nil }
        let entry = storage.pointee.entries + position
        guard KeyIdentity.isKey(key, recordedAs: entry.pointee.keyType, entry.pointee.keyBytes) else { return nil }
        return entry.pointee.column
    }

    /// The entry at `position` when it holds `key`, with its type and bytes brought up to date (the same key,
    /// first seen through another key type, or with other padding bytes); nil otherwise.
    func column(forKey key: String, position: Int, keyType: UInt, keyBytes: KeyIdentity.Bytes) -> Int32? {
        guard position < storage.pointee.count else { return nil }
        let entry = storage.pointee.entries + position
        guard entry.pointee.key == key else { return nil }
        entry.pointee.keyType = keyType
        entry.pointee.keyBytes = keyBytes
        return entry.pointee.column
    }

    /// The column of `name` when the trail holds that name at `position` (-1 when it names no column); nil
    /// otherwise. For the reads by name of ``FetchedRow`` (see ``ColumnLookup/nameTrail``): comparing the
    /// same string literal is a compare of its bits.
    @inline(__always)
    func column(forName name: String, position: Int) -> Int32? {
        guard position < storage.pointee.count else { return nil }
        let entry = storage.pointee.entries + position
        guard entry.pointee.key == name else { return nil }
        return entry.pointee.column
    }

    /// Records `key` and its column at `position`, dropping the entries from there on: another type, or a
    /// type that skips keys on some rows, rebuilds the trail from the first key that differs. A position past
    /// the end is ignored.
    func record(_ key: String, column: Int32, at position: Int, keyType: UInt, keyBytes: KeyIdentity.Bytes) {
        let count = storage.pointee.count
        guard position >= 0, position <= count else { return }
        (storage.pointee.entries + position).deinitialize(count: count - position)
        storage.pointee.count = position
        if position == storage.pointee.capacity {
            let capacity = storage.pointee.capacity * 2
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
            grown.moveInitialize(from: storage.pointee.entries, count: position)
            storage.pointee.entries.deallocate()
            storage.pointee.entries = grown
            storage.pointee.capacity = capacity
        }
        (storage.pointee.entries + position).initialize(
            to: Entry(key: key, column: column, keyType: keyType, keyBytes: keyBytes))
        storage.pointee.count = position + 1
    }

    /// The string of the key asked for at `position`; nil when the trail does not reach there.
    func key(atPosition position: Int) -> String? {
        guard position >= 0, position < storage.pointee.count else { return nil }
        return storage.pointee.entries[position].key
    }
}

/// Owns the memory of one ``KeyTrail``: allocated when this is made, freed when it goes. Noncopyable, so
/// the memory has exactly one owner (a ``ColumnLookup``).
struct KeyTrailAllocation: ~Copyable {
    /// The trail this allocation owns, valid while the allocation lives.
    let trail: KeyTrail

    init() { trail = KeyTrail(storage: Self.allocateStorage()) }

    deinit {
        let storage = trail.storage
        storage.pointee.entries.deinitialize(count: storage.pointee.count)
        storage.pointee.entries.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    fileprivate static func allocateStorage() -> UnsafeMutablePointer<KeyTrail.Storage> {
        let storage = UnsafeMutablePointer<KeyTrail.Storage>.allocate(capacity: 1)
        storage.initialize(to: .init(entries: .allocate(capacity: 16), count: 0, capacity: 16))
        return storage
    }
}
