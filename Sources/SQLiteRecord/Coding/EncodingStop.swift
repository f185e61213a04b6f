/// What a partial update (``Record/update(_:columns:)``, ``Record/updateChanges(_:from:)``) throws into a
/// record's `encode(to:)` to end it early: from the first `encode` call after the record has encoded every
/// value the update needs (the columns it writes and the key's columns), before that call converts or binds
/// its value. The encoder that threw it catches it where the record's `encode(to:)` returns, and the update
/// goes on with the values it has.
///
/// Both ways of writing stop at the same point: ``ColumnsEncoder`` collecting the first record of a type
/// (which counts the columns it still needs), and the write plan made from it, whose binding expects exactly
/// the coding keys that first record encoded before it stopped (``StatementBinding/stopsPastLastKey``). What
/// the record's own code does before that call runs on both (a check between two `encode` calls); what it
/// does after it does not run. The stop comes from the next value rather than the last one needed, so that
/// the other writes' values carry no check: a partial update's binding meets it where it already asks
/// whether the record has more keys than expected. A record whose code catches this error goes on with
/// encoding as it likes: each later value throws it again, and the update writes what was encoded before
/// the first. Any error the record's `encode(to:)` throws once the stop was thrown into it (the stop wrapped
/// in an error of the record's own) ends the encoding as the stop does: it comes from code the update does
/// not run (``ColumnsEncoder/hasStopped``, ``StatementBinding/hasStopped``).
///
/// A struct with no stored properties: making one, and throwing it, allocates nothing. ``matches(_:)`` tells
/// it from every other error by its type alone, without a dynamic cast.
struct EncodingStop: Error {
    /// True when `error` is an ``EncodingStop``.
    @inline(__always)
    static func matches(_ error: any Error) -> Bool {
        type(of: error) == EncodingStop.self
    }

    /// True when `error` is `stop` itself: the same error box, thrown again. A fast path before
    /// ``matches(_:)``, which reads the error's dynamic type through the runtime (callgrind: about 75
    /// instructions a partial update).
    ///
    /// An `any Error` is one reference to the box that holds the error (the Swift ABI's error existential),
    /// and throwing or rethrowing a stored error passes that box on: two errors with the same box address are
    /// one error, alive while both are held. Where an `any Error` is not one word, or the box was not kept
    /// (never seen), this is false, and ``matches(_:)`` decides.
    @inline(__always)
    static func isSame(_ error: any Error, as stop: any Error) -> Bool {
        guard MemoryLayout<any Error>.size == MemoryLayout<UInt>.size else { return false }
        // `as any Error`: the existential itself, not the value it holds (which a generic call would open).
        return unsafeBitCast(error as any Error, to: UInt.self) == unsafeBitCast(stop as any Error, to: UInt.self)
    }
}
