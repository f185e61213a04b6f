import Foundation

// The decoder's reused memory: the one file of the Coding layer's decoding side that holds raw pointers,
// unretained references and unchecked casts. Everything else reads it through the safe views declared here
// (`RowDecodingState`, `KeyTrail`, `RowInitializerCallReference`, `ReusableContainerBox`).
//
// Invariants, each pinned by `RowDecodingStorageTests` under the address sanitizer:
//
// 1. Key trails. A `KeyTrailAllocation` owns one trail's memory: it allocates it, and frees it in its
//    `deinit`. A `ColumnLookup` holds two, so a trail lives exactly as long as its lookup. A `KeyTrail` view
//    is read only by code that holds the lookup (a context, a `FetchedRow` lent by that context's fetch), or
//    through a `RowDecodingState` that is not revoked, whose context holds the lookup. A revoked state reads
//    `KeyTrail.empty`, which is never written and never freed.
// 2. Row states. A `RowDecodingStateStorage` owns one state: allocated in `init`, filled in once by
//    `initialize(to:)` before any read, freed in `deinit`. It lives as long as its context holds it, or as
//    long as a kept keyed container of it is held (`RevokedRowStates`, or the unboxed container's own
//    reference), so a `RowDecodingState` view never dangles. A state that is not revoked belongs to a live
//    context, which its `context` reads without retaining; once revoked, every key misses its trail and the
//    slow paths ask `isRevoked` before they touch the context.
// 3. Kept contexts. `RowDecoder.decode(_:from:)` reads the statement's coding state and its kept context
//    without retaining them. Nothing between that read and the row's end may release either, and a context
//    replaced while it decodes a row (user code that decodes the same statement with another decoder) is kept
//    by the statement's coding state (`busyContexts`) until the row is done.
// 4. Row-initializer calls. A `RowInitializerCache` hands out calls unretained, and keeps every call it ever
//    handed out for as long as it lives; the contexts that read it hold it, so a call stays valid while a row
//    initializer that decodes another type through the same cache replaces the current one.
// 5. Keyed containers. A `KeyedContainerBox` holds a keyed container as its one word only after
//    `KeyedContainerLayout` has proven at run time, by reference counts, that the standard library's keyed
//    containers are one shared native reference. Otherwise no box is made and the caller hands out a plain
//    `KeyedDecodingContainer` (or `KeyedEncodingContainer`) each time: that path is the default, and is
//    correct on its own.

// MARK: - Key identity

/// A coding key recognized by its type and raw bytes, without asking it for its string (a call through its
/// witness table that builds a `String`): a key's string is a function of its value, so equal bytes of the
/// same type are the same key. Used by the key trail of the decoder and by ``StatementBinding`` alike.
///
/// Only keys that are plain data (`_isPOD`) of 0, 1, 2, 4, 8 or 16 bytes, aligned to their size (or to 8 for
/// 16), are recognized this way, as a CodingKeys enum is (one byte, none for an enum of one case); other keys
/// are compared by their string.
package enum KeyIdentity {
    /// Up to 16 bytes of a key, zero-padded.
    package typealias Bytes = (UInt64, UInt64)

    /// The bits of `Key`'s metadata pointer, never 0 (so 0 can stand for "no type recorded").
    @inline(__always)
    static func typeBits<Key>(of type: Key.Type) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type))
    }

    /// True when `key` is the key recorded as `keyType` (its ``typeBits(of:)``) and `bytes`.
    ///
    /// A type is recorded only for keys that ``bytes(of:)`` reads, so a key whose type matches is plain data of
    /// a size that function reads: its POD-ness is not asked again, and a key of one byte is compared as that
    /// byte alone (the padding word of a one-byte key's bytes is always 0).
    @inline(__always)
    static func isKey<Key>(_ key: Key, recordedAs keyType: UInt, _ bytes: Bytes) -> Bool {
        guard keyType == typeBits(of: Key.self) else { return false }
        if MemoryLayout<Key>.size == 1 { return bytes.0 == UInt64(unsafeBitCast(key, to: UInt8.self)) }
        return wideBytes(of: key).map { $0 == bytes } ?? false
    }

    /// The raw bytes of a key that is plain data of a size this type reads, zero-padded; nil for other keys.
    ///
    /// Read with `unsafeBitCast` after the size and alignment checks, which makes it one load from the key's
    /// address even in unspecialized code (`withUnsafeBytes(of:)` is not inlined there).
    @inline(__always)
    package static func bytes<Key>(of key: Key) -> Bytes? {
        guard _isPOD(Key.self) else { return nil }
        if MemoryLayout<Key>.size == 1 { return (UInt64(unsafeBitCast(key, to: UInt8.self)), 0) }
        return wideBytes(of: key)
    }

    /// ``bytes(of:)`` for keys of other sizes than one byte.
    @inline(__always)
    private static func wideBytes<Key>(of key: Key) -> Bytes? {
        let size = MemoryLayout<Key>.size
        guard size == 0 || MemoryLayout<Key>.alignment >= min(size, 8) else { return nil }
        switch size {
        case 0: return (0, 0)
        case 1: return (UInt64(unsafeBitCast(key, to: UInt8.self)), 0)
        case 2: return (UInt64(unsafeBitCast(key, to: UInt16.self)), 0)
        case 4: return (UInt64(unsafeBitCast(key, to: UInt32.self)), 0)
        case 8: return (unsafeBitCast(key, to: UInt64.self), 0)
        case 16: return unsafeBitCast(key, to: Bytes.self)
        default: return nil
        }
    }
}

// MARK: - Key trails

/// The coding keys a row asked for, in the order it asked for them, with their columns: what lets
/// ``ColumnLookup`` find a key's column without hashing.
///
/// A type's `init(from:)` asks for the same keys in the same order on every row, so after the first row each
/// key is found by comparing it with the key asked for at the same position (``KeyIdentity``). The entry at a
/// position also names the key for the errors of the column read it led to (``ColumnReader/codingPath``).
///
/// A one-word view of memory that a ``KeyTrailAllocation`` owns (invariant 1 at the top of this file): the
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

// MARK: - Row states

/// What decoding reads for every column of every row: a one-word view of the state a
/// ``RowDecodingStateStorage`` owns (invariant 2 at the top of this file). Plain values behind one pointer,
/// so reading them retains nothing and costs no exclusivity check. The keyed container, the column readers
/// and ``FetchedRow`` reach the context through it.
struct RowDecodingState {
    fileprivate struct Stored {
        let row: StatementRow
        var keyPosition: Int
        var trail: KeyTrail
        let readsDatesAutomatically: Bool
        let context: Unmanaged<RowDecodingContext>
        var rowSerial: UInt
        var isRevoked: Bool
    }

    fileprivate let stored: UnsafeMutablePointer<Stored>

    /// The statement's current row, by handle.
    var row: StatementRow {
        @inline(__always) get { stored.pointee.row }
    }
    /// The column lookup's key trail; ``KeyTrail/empty`` once the state is revoked.
    var trail: KeyTrail {
        @inline(__always) get { stored.pointee.trail }
    }
    /// True for ``RowDecoder/DateDecodingStrategy/automatic``: a date read then needs nothing else from the
    /// decoder.
    var readsDatesAutomatically: Bool {
        @inline(__always) get { stored.pointee.readsDatesAutomatically }
    }
    /// The context that owns this state. Only while the state is not revoked: the context may be gone after
    /// that, so every caller that can meet a revoked state asks ``isRevoked`` first.
    var context: RowDecodingContext {
        @inline(__always) get { stored.pointee.context.takeUnretainedValue() }
    }
    /// Which row the context is on: moved on when a row starts and again when it ends, so that no decoder
    /// made for one row (which keeps the serial it was made with) matches between rows or on a later row.
    var rowSerial: UInt {
        @inline(__always) get { stored.pointee.rowSerial }
    }
    /// True once the context let go of this state (``RowDecodingStateStorage/revoke()``).
    var isRevoked: Bool {
        @inline(__always) get { stored.pointee.isRevoked }
    }

    /// The position of the next key the current row asks for, counted. Wrapping: a row asks for fewer keys
    /// than Int can count, and the overflow check would cost a branch per column.
    @inline(__always)
    func takeKeyPosition() -> Int {
        let position = stored.pointee.keyPosition
        stored.pointee.keyPosition = position &+ 1
        return position
    }

    /// Starts a row: its keys count from the first position, and decoders made before it no longer match.
    @inline(__always)
    func startRow() {
        stored.pointee.keyPosition = 0
        stored.pointee.rowSerial &+= 1
    }

    /// Ends a row: decoders made for it no longer match.
    @inline(__always)
    func endRow() { stored.pointee.rowSerial &+= 1 }
}

/// Owns the memory of one ``RowDecodingState``: allocates it, frees it when the last holder lets go, and
/// revokes it when the rows it served are done (invariant 2 at the top of this file).
///
/// User code can keep the keyed container a context reuses past its row (a class that stores it, a closure
/// that captures it), so this storage lives as long as the container does: the state the container reads
/// then never dangles, whatever becomes of the context, the statement or the connection. When the context
/// finds that its container was kept (see ``ReusableContainerBox/isHeldElsewhere``), it revokes this state and
/// decodes later rows through a fresh one, so the kept container never reads a later row.
final class RowDecodingStateStorage {
    /// The state, valid for as long as this object lives; read only once ``initialize(row:trail:readsDatesAutomatically:context:rowSerial:)`` has run.
    let state: RowDecodingState
    /// False until the state is filled in: a context makes its storage before it can name itself in it.
    private var isInitialized = false

    /// Storage whose state is filled in by ``initialize(row:trail:readsDatesAutomatically:context:rowSerial:)``
    /// before any use.
    init() { state = RowDecodingState(stored: .allocate(capacity: 1)) }

    /// Fills in the state for `context`, or fills it in again (after SQLite prepared the statement again);
    /// rows start after `rowSerial`. The context owns this storage, so it outlives every read of the
    /// context through the state until the state is revoked.
    func initialize(
        row: StatementRow, trail: KeyTrail, readsDatesAutomatically: Bool, context: RowDecodingContext,
        rowSerial: UInt
    ) {
        let stored = RowDecodingState.Stored(
            row: row, keyPosition: 0, trail: trail, readsDatesAutomatically: readsDatesAutomatically,
            context: .passUnretained(context), rowSerial: rowSerial, isRevoked: false)
        if isInitialized {
            state.stored.pointee = stored
        } else {
            state.stored.initialize(to: stored)
            isInitialized = true
        }
    }

    deinit {
        if isInitialized { state.stored.deinitialize(count: 1) }
        state.stored.deallocate()
    }

    /// Cuts the state off from its context and its rows: its trail becomes ``KeyTrail/empty``, so every key
    /// takes the keyed container's slow path, which asks ``RowDecodingState/isRevoked`` and throws
    /// ``rowIsGone(codingPath:)``. The hot path thus carries no check of its own.
    func revoke() {
        guard isInitialized else { return }
        state.stored.pointee.isRevoked = true
        state.stored.pointee.trail = KeyTrail.empty
        state.stored.pointee.rowSerial &+= 1
    }

    /// The error for a decoder or container used after the row it was made for.
    static func rowIsGone(codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath,
                debugDescription: "The row this decoder read is gone: decode values inside init(from:), not after it "
                    + "returns (a decoder or container is valid only during the init(from:) it was passed to)"))
    }
}

// MARK: - Kept contexts

extension Statement {
    /// The Coding layer's state in the statement's ``Statement/codingCache`` slot. Read on every row that
    /// ``RowDecoder/decode(_:from:)`` decodes, so the slot's class is compared by identity (the slot holds
    /// nothing else) rather than with a dynamic cast.
    var codingState: StatementCodingState? {
        get {
            guard let cache = codingCache,
                ObjectIdentifier(type(of: cache)) == ObjectIdentifier(StatementCodingState.self)
            else { return nil }
            return unsafeDowncast(cache, to: StatementCodingState.self)
        }
        set {
            // A kept context may be decoding a row without retaining itself (invariant 3): the new state
            // keeps it until it is done.
            if let newValue, let old = codingState, old !== newValue { newValue.keepBusyContexts(of: old) }
            codingCache = newValue
        }
    }
}

extension Statement {
    /// ``codingState``, unretained, for the per-row read of ``RowDecoder/decode(_:from:)``: the strong
    /// reference this takes is let go before the caller uses the state.
    fileprivate var unretainedCodingState: Unmanaged<StatementCodingState>? {
        guard let cache = codingCache,
            ObjectIdentifier(type(of: cache)) == ObjectIdentifier(StatementCodingState.self)
        else { return nil }
        return .passUnretained(unsafeDowncast(cache, to: StatementCodingState.self))
    }
}

extension RowDecoder {
    /// Decodes the statement's current row through the context the statement keeps for this decoder's kind
    /// (see ``RowDecodingContext/decodes(like:)``), read without retaining it or the statement's coding state
    /// (invariant 3); through a new kept context when there is none or the statement's columns changed.
    @inline(__always)
    func decodeKeptRow<T: Decodable>(_ type: T.Type, from statement: Statement) throws -> T {
        if let context = keptContext(on: statement) {
            return try context._withUnsafeGuaranteedRef { try $0.decodeKeptRow(type) }
        }
        return try makeReusableContext(for: statement).decodeKeptRow(type)
    }

    /// The context `statement` keeps when it suits this decoder and its lookup is current. A function of its
    /// own, so that nothing read here is held across the row's decoding.
    @inline(__always)
    private func keptContext(on statement: Statement) -> Unmanaged<RowDecodingContext>? {
        guard let state = statement.unretainedCodingState else { return nil }
        return state._withUnsafeGuaranteedRef { state in
            if state.lookupCheckedAtEndedRuns != statement.endedRuns, !Self.lookupIsCurrent(state, on: statement) {
                return nil
            }
            guard let context = state.reusableContext.map({ Unmanaged.passUnretained($0) }),
                context._withUnsafeGuaranteedRef({ $0.decodes(like: self) })
            else { return nil }
            return context
        }
    }
}

// MARK: - Row-initializer calls

/// The calls of the row initializers of the types a statement's rows are decoded as: one level, kept by the
/// statement's ``StatementCodingState`` and shared by every context that decodes its rows, so that the
/// conformance check (`type as? any FetchableRecord.Type`) runs once per statement and type, not per fetch.
///
/// Each row reads the call of the type it decodes without retaining it (invariant 4 at the top of this file):
/// this cache keeps every call it ever handed out, one per record type, for as long as it lives.
final class RowInitializerCache {
    /// The type asked for last, and its call (nil for a type without a row initializer).
    private var lastType: ObjectIdentifier?
    private var lastCall: Unmanaged<RowInitializerCall>?
    /// Every call handed out, kept so that the unretained ones stay valid.
    private var calls: [RowInitializerCall] = []
    /// The types known to have no row initializer.
    private var typesWithout: [ObjectIdentifier] = []

    /// The call of `type`'s `init(row:)` when it is a ``FetchableRecord``; nil for a type that decodes
    /// through `Decodable` alone. One compare when the type is the one asked for last.
    @inline(__always)
    func call<T>(for type: T.Type) -> RowInitializerCallReference? {
        if lastType == ObjectIdentifier(type) { return lastCall.map(RowInitializerCallReference.init) }
        return findCall(for: type)
    }

    @inline(never)
    private func findCall<T>(for type: T.Type) -> RowInitializerCallReference? {
        let identifier = ObjectIdentifier(type)
        lastType = identifier
        if let kept = calls.first(where: { $0.recordType == identifier }) {
            lastCall = .passUnretained(kept)
        } else if typesWithout.contains(identifier) {
            lastCall = nil
        } else if let record = type as? any FetchableRecord.Type {
            let call = RowInitializerCall.of(record)
            calls.append(call)
            lastCall = .passUnretained(call)
        } else {
            typesWithout.append(identifier)
            lastCall = nil
        }
        return lastCall.map(RowInitializerCallReference.init)
    }

    /// How many calls the cache keeps (for tests).
    var keptCallCount: Int { calls.count }
}

/// A ``RowInitializerCall`` handed out by a ``RowInitializerCache``, unretained: valid while the cache lives.
struct RowInitializerCallReference {
    fileprivate let call: Unmanaged<RowInitializerCall>

    /// The record the row initializer makes from `context`'s current row, as `T`.
    /// - Throws: as ``RowInitializerCall/call(as:context:)``.
    @inline(__always)
    func call<T>(as type: T.Type, context: RowDecodingContext) throws -> T {
        try call._withUnsafeGuaranteedRef { try $0.call(as: type, context: context) }
    }

    /// Appends the record the row initializer makes from `context`'s current row to `records`.
    /// - Throws: as ``RowInitializerCall/appendRow(to:context:)``.
    @inline(__always)
    func appendRow<T>(to records: inout [T], context: RowDecodingContext) throws {
        try call._withUnsafeGuaranteedRef { try $0.appendRow(to: &records, context: context) }
    }
}

extension RowInitializerCall {
    /// The record the row initializer makes from `context`'s current row, as `T`, which must be the record
    /// type.
    /// - Throws: what `init(row:)` throws; `DecodingError.typeMismatch` when `T` is another type, without
    ///   calling it (the fetches ask only for the type they compared).
    @inline(__always)
    func call<T>(as type: T.Type, context: RowDecodingContext) throws -> T {
        guard ObjectIdentifier(type) == recordType else { throw mismatch(type) }
        // Every call is a `FetchableRecordCall<U>`, a `TypedRowInitializerCall<U>` of its record type `U`, and
        // `T` was just found to be `U`: one class.
        return try unsafeDowncast(self, to: TypedRowInitializerCall<T>.self).make(context)
    }

    /// Appends the record the row initializer makes from `context`'s current row to `records`, whose
    /// element type must be the record type: through the record type's own
    /// ``FetchableRecord/_appendRow(_:to:)``, specialized where the type was declared.
    /// - Throws: as ``call(as:context:)``.
    @inline(__always)
    func appendRow<T>(to records: inout [T], context: RowDecodingContext) throws {
        guard ObjectIdentifier(T.self) == recordType else { throw mismatch(T.self) }
        // As in `call(as:context:)`.
        try unsafeDowncast(self, to: TypedRowInitializerCall<T>.self).appendRow(to: &records, context: context)
    }
}

// MARK: - Keyed containers

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
    final func encodingContainer<Key: CodingKey>(
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
/// ``KeyedContainerLayout`` proves it at run time (invariant 5); where it does not hold, no box is made.
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
