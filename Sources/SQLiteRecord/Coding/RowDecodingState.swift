/// What decoding reads for every column of every row, in raw memory that a ``RowDecodingStateStorage`` owns:
/// plain values, so reading them retains nothing and costs no exclusivity check. The keyed container and the
/// column readers refer to the context through it.
struct RowDecodingState {
    /// The statement's current row, by handle.
    let row: StatementRow
    /// How many keys the current row has asked for: the position in the key trail.
    var keyPosition: Int
    /// The column lookup's key trail; ``RowDecodingStateStorage/emptyTrail`` once the state is revoked.
    var trail: UnsafeMutablePointer<KeyTrail>
    /// True for ``RowDecoder/DateDecodingStrategy/automatic``: a date read then needs nothing else from the
    /// decoder.
    let readsDatesAutomatically: Bool
    /// The context that owns this state, unretained: it outlives every use of a state that is not revoked.
    let context: Unmanaged<RowDecodingContext>
    /// Which row the context is on: moved on when a row starts and again when it ends, so that no decoder
    /// made for one row (which keeps the serial it was made with) matches between rows or on a later row.
    var rowSerial: UInt
    /// True once the context let go of this state (see ``RowDecodingStateStorage/revoke()``).
    private(set) var isRevoked = false

    init(
        row: StatementRow, trail: UnsafeMutablePointer<KeyTrail>, readsDatesAutomatically: Bool,
        context: Unmanaged<RowDecodingContext>, rowSerial: UInt
    ) {
        self.row = row
        self.keyPosition = 0
        self.trail = trail
        self.readsDatesAutomatically = readsDatesAutomatically
        self.context = context
        self.rowSerial = rowSerial
    }

    /// The position of the next key the current row asks for, counted.
    @inline(__always)
    mutating func takeKeyPosition() -> Int {
        // Wrapping: a row asks for fewer keys than Int can count, and the overflow check would cost a branch
        // per column.
        defer { keyPosition &+= 1 }
        return keyPosition
    }

    /// Marks the state as no longer any row's; see ``RowDecodingStateStorage/revoke()``.
    fileprivate mutating func revoke() {
        isRevoked = true
        trail = RowDecodingStateStorage.emptyTrail
        rowSerial &+= 1
    }
}

/// Owns the memory of one ``RowDecodingState``: allocates it, frees it when the last holder lets go, and
/// revokes it when the rows it served are done.
///
/// A decoding context reads the state through a raw pointer for speed, and hands that pointer to the keyed
/// container it reuses from row to row. User code can keep that container past its row (a class that stores
/// it, a closure that captures it), so this storage lives as long as the container does (through
/// ``RevokedRowStates``, or the container's own reference when it is not boxed): the pointer it holds then
/// never dangles, whatever becomes of the context, the statement or the connection. When the context finds
/// that its container was kept (see ``KeyedContainerBox/isHeldElsewhere``), it revokes this state and
/// decodes later rows through a fresh one, so the kept container never reads a later row.
///
/// Invariants:
/// - `state` is valid for as long as this object lives.
/// - Once revoked, the state's trail is ``emptyTrail``: every key misses it and takes the keyed container's
///   slow path, which checks ``RowDecodingState/isRevoked`` before it touches the context (which may be gone)
///   and throws ``rowIsGone(codingPath:)``. The hot path thus carries no check of its own.
/// - A state that is not revoked belongs to a live context: only the context and containers of the current
///   row hold it, and a container still held at the end of its row is revoked there.
final class RowDecodingStateStorage {
    let state = UnsafeMutablePointer<RowDecodingState>.allocate(capacity: 1)
    /// False until ``initialize(to:)``: a context makes its storage before it can name itself in the state.
    private var isInitialized = false

    /// Storage whose state is filled in by ``initialize(to:)`` before any use.
    init() {}

    /// Fills in the state; called once, right after ``init()``.
    func initialize(to initial: RowDecodingState) {
        state.initialize(to: initial)
        isInitialized = true
    }

    deinit {
        if isInitialized { state.deinitialize(count: 1) }
        state.deallocate()
    }

    /// Cuts the state off from its context and its rows: later reads through it throw ``rowIsGone(codingPath:)``.
    func revoke() { state.pointee.revoke() }

    /// The trail of a revoked state: empty, never written (the trail is recorded into through the column
    /// lookup, never through a state), never freed.
    nonisolated(unsafe) static let emptyTrail: UnsafeMutablePointer<KeyTrail> = {
        let trail = UnsafeMutablePointer<KeyTrail>.allocate(capacity: 1)
        trail.initialize(to: KeyTrail())
        return trail
    }()

    /// The error for a decoder or container used after the row it was made for.
    static func rowIsGone(codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath,
                debugDescription: "The row this decoder read is gone: decode values inside init(from:), not after it "
                    + "returns (a decoder or container is valid only during the init(from:) it was passed to)"))
    }
}

/// What a boxed keyed container holds in place of the state's storage: nothing, so that the container stays
/// plain data (see ``RevokedRowStates``).
struct Unretained {}
