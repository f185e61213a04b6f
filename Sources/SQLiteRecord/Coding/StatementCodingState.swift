import Foundation

/// What a prepared statement keeps for decoding, in its ``Statement/codingCache`` slot (read through
/// ``Statement/codingState``): the column lookup, the row-initializer calls, and the context that
/// ``RowDecoder/decode(_:from:)`` reuses from row to row. The context refers to the lookup and the calls,
/// never the other way, so nothing here is a cycle.
final class StatementCodingState {
    let lookup: ColumnLookup
    /// The calls of the row initializers of the types the statement's rows are decoded as, shared by every
    /// context that decodes them.
    let rowInitializers = RowInitializerCache()
    /// The context ``RowDecoder/decode(_:from:)`` reuses. That call reads it without retaining it (see the
    /// invariant at the top of RowDecoder+KeptContext.swift), so a context replaced while it decodes a row (a
    /// row initializer or `init(from:)` that decodes the same statement with another decoder) moves to
    /// `busyContexts` rather than go.
    var reusableContext: RowDecodingContext? {
        willSet {
            if let old = reusableContext, old !== newValue, old.isDecodingKeptRow { busyContexts.append(old) }
        }
    }
    /// Contexts replaced while they decoded a row, kept alive until then (see `reusableContext`): let go
    /// once idle, when a context is next made for the statement.
    private(set) var busyContexts: [RowDecodingContext] = []
    /// The statement's ``Statement/endedRuns`` when `lookup` was last found current on one of its rows:
    /// while the count is the same, it still is. `UInt.max` until then.
    var lookupCheckedAtEndedRuns = UInt.max

    init(lookup: ColumnLookup) { self.lookup = lookup }

    /// Takes over the busy contexts of the state this one replaces on a statement, and its reusable context
    /// when that one is decoding a row.
    func keepBusyContexts(of replaced: StatementCodingState) {
        busyContexts += replaced.busyContexts
        if let context = replaced.reusableContext, context.isDecodingKeptRow { busyContexts.append(context) }
    }

    /// Lets go of the busy contexts that are done with their rows.
    func releaseIdleContexts() {
        if !busyContexts.isEmpty { busyContexts.removeAll { !$0.isDecodingKeptRow } }
    }
}
