/// Memory for one record, reused from row to row and from fetch to fetch: where a row initializer's record is
/// put and moved out from, so that a generic fetch returns it as its own generic type without copying it.
///
/// A fetch is generic over `T` and learns at run time that `T` has a row initializer: `init(row:)` then makes
/// a `Self` that the fetch must return as a `T`, the same type. A bit cast of the value (``SameTypeCast``)
/// copies it, which for a record of strings is a retain of each and, when the original is destroyed, a
/// release; a dynamic `as? T` costs more than reading a column. Moving the value through memory of the type
/// costs a copy of its bytes, and this slot keeps that memory across rows, so no row allocates. A statement's
/// coding state keeps one (``StatementCodingState/recordSlot``) for every fetch through it, so that a point
/// lookup through a cached statement does not allocate either.
///
/// Invariants:
/// - The memory holds no value between calls to ``move(_:as:otherwise:_:)``: a value put in is moved out
///   before the call returns, with no user code in between, so a row initializer that decodes another row
///   through the same context (which reuses this slot) finds it empty.
/// - The memory is read as `T` only after `T.self == U.self` was checked, so it is bound to the type it is
///   read as.
/// - The memory fits the largest type put in so far (size and alignment), and is freed with the slot.
/// - A slot is used by one thread at a time: it belongs to a statement (or to one decoding context), which
///   belongs to one connection. Its properties are unchecked for exclusivity for that reason: they are read
///   for every row, and nothing but ``move(_:as:otherwise:_:)`` and its helpers touches them, each access
///   ending before user code runs.
final class RecordSlot {
    @exclusivity(unchecked) private var memory: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var byteCount = 0
    @exclusivity(unchecked) private var alignment = 1

    init() {}

    deinit { memory?.deallocate() }

    /// The `U` that `make` returns, as `T`, which must be `U`: `mismatch()` is thrown otherwise, without
    /// calling `make`.
    @inline(__always)
    func move<T, U>(
        _ type: T.Type, as madeType: U.Type, otherwise mismatch: () -> any Error, _ make: () throws -> U
    ) throws -> T {
        guard T.self == U.self else { throw mismatch() }
        // Made before the memory is asked for: `make` runs user code, which may use this slot itself.
        let value = try make()
        let slot = memory(for: MemoryLayout<U>.size, alignment: MemoryLayout<U>.alignment)
        slot.initializeMemory(as: U.self, to: consume value)
        return slot.assumingMemoryBound(to: T.self).move()
    }

    /// The memory, grown to fit `size` bytes at `alignment` when it does not yet.
    @inline(__always)
    private func memory(for size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let memory, size <= byteCount, alignment <= self.alignment { return memory }
        return grow(to: size, alignment: alignment)
    }

    @inline(never)
    private func grow(to size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        memory?.deallocate()
        byteCount = max(size, byteCount, 1)
        self.alignment = max(alignment, self.alignment)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: self.alignment)
        memory = grown
        return grown
    }
}
