/// A ``FetchableRecord``'s `init(row:)` as a function of the decoding context whose result is the fetch's
/// generic type: how a fetch generic over `T`, which learns at run time that `T` has a row initializer,
/// returns the record as a `T` without copying it.
///
/// The fetch's `T` and the record's `Self` are one type, but the compiler knows them as two, so the record
/// must cross from one to the other. A bit cast of the value (``SameTypeCast``) copies it, which for a
/// record of strings is a retain of each and, when the original is destroyed, a release; a dynamic `as? T`
/// costs more than reading a column; a move through memory of the type copies its bytes twice, through the
/// type's value witnesses. Here the
/// initializer is called as a function returning `T`, so the record is written where the fetch's result
/// goes, once.
///
/// Invariants:
/// - An instance is a `FetchableRecordCall<U>` of its ``recordType`` `U`, a subclass of
///   ``TypedRowInitializerCall``<U>; it is read as `TypedRowInitializerCall<T>` only after `T` was checked
///   to be `U`, when the two are one class.
/// - It holds the record type's metadata and nothing of a row or a context, so one serves every row of
///   every fetch of its type through a statement (``StatementCodingState/rowInitializers`` keeps it).
/// - It is called per row without being retained: ``RowInitializerCache`` (in RowInitializerCache.swift, with
///   the typed downcast) keeps every call it hands out for as long as it lives, since a row initializer may
///   decode another type through the same cache, which then replaces its current call while this one runs.
class RowInitializerCall {
    /// The record type whose `init(row:)` is called.
    let recordType: ObjectIdentifier

    fileprivate init(recordType: ObjectIdentifier) { self.recordType = recordType }

    /// The call of `type`'s row initializer. Made once per statement and type, not per row.
    static func of<U: FetchableRecord>(_ type: U.Type) -> RowInitializerCall {
        FetchableRecordCall<U>(recordType: ObjectIdentifier(type))
    }

    /// The error for a call asked for a type other than its record type.
    @inline(never)
    func mismatch(_ type: Any.Type) -> any Error {
        DecodingError.typeMismatch(
            type, .init(codingPath: [], debugDescription: "A row initializer was asked for a \(type)"))
    }
}

/// A ``RowInitializerCall`` of the record type `Record`, which its subclass ``FetchableRecordCall`` knows to
/// be a ``FetchableRecord``: this class cannot require it (the caller who reads it knows the type only as its
/// own unconstrained `T`), so `make(_:)` is a method the subclass overrides, one dynamic call a row (a stored
/// closure would add a call through its context).
class TypedRowInitializerCall<Record>: RowInitializerCall {
    /// `Record(row:)` on the context's current row; only ``FetchableRecordCall`` is ever made.
    func make(_ context: RowDecodingContext) throws -> Record { throw noRowInitializer() }

    /// `records.append(Record(row:))` on the context's current row; only ``FetchableRecordCall`` is ever made.
    func appendRow(to records: inout [Record], context: RowDecodingContext) throws { throw noRowInitializer() }

    private func noRowInitializer() -> DecodingError {
        DecodingError.typeMismatch(
            Record.self, .init(codingPath: [], debugDescription: "\(Record.self) has no row initializer"))
    }
}

/// The call of a ``FetchableRecord``'s `init(row:)`.
private final class FetchableRecordCall<Record: FetchableRecord>: TypedRowInitializerCall<Record> {
    override func make(_ context: RowDecodingContext) throws -> Record {
        try Record(row: FetchedRow(context: context))
    }

    override func appendRow(to records: inout [Record], context: RowDecodingContext) throws {
        try Record._appendRow(FetchedRow(context: context), to: &records)
    }
}
