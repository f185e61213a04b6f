import Foundation

// The decoder's row states: raw memory and an unretained context reference that one
// `RowDecodingStateStorage` owns and that every `RowDecodingState` view reads. Pinned by
// `RowDecodingStorageTests` under the address sanitizer.
//
// Invariant: a `RowDecodingStateStorage` owns one state: allocated in `init`, filled in once by
// `initialize(row:trail:readsDatesAutomatically:context:rowSerial:)` before any read, freed in `deinit`. It
// lives as long as its context holds it, or as long as a kept keyed container of it is held
// (`RevokedRowStates`, or the unboxed container's own reference), so a `RowDecodingState` view never
// dangles. A state that is not revoked belongs to a live context, which its `context` reads without
// retaining; once revoked, every key misses its trail (`KeyTrail.empty`) and the slow paths ask `isRevoked`
// before they touch the context.

/// What decoding reads for every column of every row: a one-word view of the state a
/// ``RowDecodingStateStorage`` owns (the invariant at the top of this file). Plain values behind one pointer,
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
/// revokes it when the rows it served are done (the invariant at the top of this file).
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
