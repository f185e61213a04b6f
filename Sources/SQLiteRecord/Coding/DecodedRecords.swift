/// The records a fetch decodes, each one written where it stays until the fetch's array is made: the one
/// owner of that memory.
///
/// A fetch is generic over its record type and runs unspecialized, so `Array.append` there is the standard
/// library's generic entry point: a uniqueness check, a capacity check and a move of the record through its
/// type's value witnesses, from the temporary the decoder returned it in, on every row (callgrind: about 90
/// instructions a row for a record of 113 bytes). And an array that grows by doubling moves each record
/// again at every growth: about 1.6 moves a record for 5,000 rows. Here a record is decoded straight into its
/// slot in a chunk (`append(_:)`), chunks never move (each new one is twice the size of the last), and the
/// array is made once at the end (`makeArray()`), moving each record exactly once.
///
/// Nothing here names a generic type but `Element` itself (the chunk list holds raw pointers, the sizes are
/// file constants): in unspecialized code each other generic type costs a metadata lookup in the runtime's
/// cache, which for the small fetches of a filtered query cost more than the chunks saved.
///
/// Invariants:
/// - `full` holds the chunks before `current`, in order, as raw pointers to memory bound to `Element`;
///   chunk `i` (counting `current` last) has room for `firstChunkCapacity << i` records, and every slot of a
///   chunk in `full` is initialized.
/// - The first `currentCount` slots of `current` are initialized, nothing after them; `current` is nil
///   only while no chunk was allocated, and then `full` is empty and `currentCount` is 0.
/// - Noncopyable, so one value owns the chunks: its `deinit` (a fetch that throws midway) deinitializes every
///   initialized slot and frees every chunk; `makeArray()` moves every record out and frees every chunk first.
struct DecodedRecords<Element>: ~Copyable {
    private var full: [UnsafeMutableRawPointer] = []
    private var current: UnsafeMutablePointer<Element>?
    private var currentCount = 0
    private var currentCapacity = 0
    /// The records in `full`.
    private var fullCount = 0

    init() {}

    deinit {
        for (index, chunk) in full.enumerated() {
            chunk.assumingMemoryBound(to: Element.self).deinitialize(count: firstChunkCapacity << index)
            chunk.deallocate()
        }
        if let current {
            current.deinitialize(count: currentCount)
            current.deallocate()
        }
    }

    /// The number of records appended.
    var count: Int { fullCount + currentCount }

    /// Appends the record `make` returns, which it writes straight into its slot. When `make` throws, nothing
    /// is appended.
    @inline(__always)
    mutating func append(_ make: () throws -> Element) rethrows {
        if currentCount == currentCapacity { addChunk() }
        // `addChunk()` left a chunk with room: `current` is set.
        guard let current else { return }
        try (current + currentCount).initialize(to: make())
        currentCount &+= 1
    }

    /// Moves the current chunk, full, to `full` and allocates the next, twice its size.
    @inline(never)
    private mutating func addChunk() {
        if let current {
            full.append(UnsafeMutableRawPointer(current))
            fullCount += currentCount
        }
        let capacity = firstChunkCapacity << full.count
        current = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        currentCount = 0
        currentCapacity = capacity
    }

    /// The records, in the order they were appended, as one array; the chunks are freed.
    consuming func makeArray() -> [Element] {
        let count = self.count
        guard count > 0 else { return [] }
        let (full, current, currentCount) = (self.full, self.current, self.currentCount)
        var moved = false
        let array = [Element](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            guard var slot = buffer.baseAddress else { return }
            for (index, chunk) in full.enumerated() {
                let chunkCount = firstChunkCapacity << index
                slot.moveInitialize(from: chunk.assumingMemoryBound(to: Element.self), count: chunkCount)
                chunk.deallocate()
                slot += chunkCount
            }
            if let current {
                slot.moveInitialize(from: current, count: currentCount)
                current.deallocate()
            }
            initializedCount = count
            moved = true
        }
        // Every record was moved out and every chunk freed: the deinit that follows finds nothing. (An array
        // of `count` > 0 always has storage, so `moved` is true; were it not, the deinit frees the chunks.)
        guard moved else { return array }
        self.full = []
        self.current = nil
        self.currentCount = 0
        self.fullCount = 0
        return array
    }
}

/// Room for this many records in a fetch's first chunk (see ``DecodedRecords``): a fetch of a few rows
/// allocates one small chunk.
private let firstChunkCapacity = 16
