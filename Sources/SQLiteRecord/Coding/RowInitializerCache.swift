import Foundation

// The row-initializer calls a statement's rows are decoded through, handed out unretained (`Unmanaged`,
// `_withUnsafeGuaranteedRef`) and read as their typed class (`unsafeDowncast`). Pinned by
// `RowDecodingStorageTests` under the address sanitizer.
//
// Invariants: a `RowInitializerCache` hands out calls unretained, and keeps every call it ever handed out
// for as long as it lives; the contexts that read it hold it, so a call stays valid while a row initializer
// that decodes another type through the same cache replaces the current one. A call is downcast to
// `TypedRowInitializerCall<T>` only after its record type was compared with `T`, when the two are one class.

/// The calls of the row initializers of the types a statement's rows are decoded as: one level, kept by the
/// statement's ``StatementCodingState`` and shared by every context that decodes its rows, so that the
/// conformance check (`type as? any FetchableRecord.Type`) runs once per statement and type, not per fetch.
///
/// Each row reads the call of the type it decodes without retaining it (the invariants at the top of this file):
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
