import Foundation

// The decoder's kept contexts: the per-row read of a statement's coding state and its kept context without
// retaining either (`Unmanaged`, `_withUnsafeGuaranteedRef`, `unsafeDowncast`). Pinned by
// `RowDecodingStorageTests` under the address sanitizer.
//
// Invariant: `RowDecoder.decode(_:from:)` reads the statement's coding state and its kept context without
// retaining them. Nothing between that read and the row's end may release either: the statement holds its
// coding state for as long as it is not replaced, and a context replaced while it decodes a row (user code
// that decodes the same statement with another decoder) is kept by the statement's coding state
// (`busyContexts`, carried over to a new coding state by `codingState`'s setter) until the row is done. The
// downcasts are made only after the slot's class was compared by identity with `StatementCodingState`.

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
            // A kept context may be decoding a row without retaining itself (the invariant at the top of this
            // file): the new state keeps it until it is done.
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
    /// (the invariant at the top of this file); through a new kept context when there is none or the
    /// statement's columns changed.
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
