import Foundation

/// An `Encoder` from a record to column values: each coding key names a column, each value becomes the
/// ``SQLiteValue`` the value table gives (Date as UTC text, Bool as 0/1, UUID as lowercase text,
/// nested values as JSON text). Optional properties that are nil encode as NULL, so an UPDATE clears them.
///
/// It works in one of two ways. Without a ``StatementBinding`` it collects ``columns`` (and the ``keys``
/// they came from), one encoder per record. With one, it binds each value straight to the statement's
/// parameter as the record encodes it; the Record layer keeps such an encoder with its prepared statement
/// and reuses it for every record of the type, through ``encode(_:)``.
///
/// What user code may keep of it past a record (see ``retire()``): a reused encoder hands each record a
/// ``RecordEncodingHandle`` rather than itself, which knows its record; the keyed container it reuses is
/// checked when each record ends, and if user code kept it, the Record layer retires this encoder and goes on
/// with a new one. A retired encoder binds nothing and throws for every value.
final class ColumnsEncoder: Encoder {
    /// The table, named in errors.
    let tableName: String?
    let options: RecordEncoder
    /// The statement the values are bound to; nil while collecting ``columns``, and once retired.
    private(set) var binding: StatementBinding?
    /// ``binding`` without ownership, for the binds of every value: reaching a class reference through an
    /// Optional retains and releases it around each call. Set and cleared with ``binding``, which keeps it
    /// alive meanwhile.
    private(set) var guaranteedBinding: UnownedStatementBinding?
    /// True once the record or records this encoder served are done (``retire()``).
    private(set) var isRetired = false
    /// Which record a reused encoder is on: moved on when a record starts and again when it ends, so that a
    /// ``RecordEncodingHandle`` kept past its record no longer matches.
    private(set) var recordSerial: UInt = 0

    /// The columns collected so far (without a binding).
    var columns = EncodedColumns()
    /// The string value of the coding key of each column in ``columns``.
    var keys: [String] = []
    /// A shape the encoder cannot store (the record is not keyed, or nests a container under a key).
    /// `Encoder`'s container methods cannot throw, so the failure is kept and thrown when encoding ends.
    var failure: EncodingError? { hasFailed ? recordedFailure : nil }
    /// True once ``failure`` is set. Kept apart from it because `EncodingError` is a resilient standard
    /// library type: every test or reset of the Optional goes through its value witnesses, and a reused
    /// encoder would pay that for every record.
    private var hasFailed = false
    private var recordedFailure: EncodingError?
    /// The keyed container the records of a reused encoder share, boxed with its key type: making one per
    /// record costs an allocation and two generic metadata lookups.
    private var containerBox: ReusableContainerBox?
    /// True once a reused encoder handed out a keyed container that is not kept in `containerBox`: user code
    /// may hold it, and nothing can tell (see ``isHeldByUserCode``).
    private var handedOutUnboxedContainer = false

    var codingPath: [any CodingKey] { [] }
    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(tableName: String?, options: RecordEncoder, binding: StatementBinding? = nil) {
        self.tableName = tableName
        self.options = options
        self.binding = binding
        guaranteedBinding = binding.map(UnownedStatementBinding.init)
        if binding == nil {
            columns.names.reserveCapacity(16)
            columns.values.reserveCapacity(16)
            keys.reserveCapacity(16)
        }
    }

    /// Encodes `value` into the binding's statement.
    /// - Returns: false when the value's keys differed from the binding's (nothing is known to be bound then,
    ///   and the caller encodes the value without a binding); true when every parameter is bound.
    /// - Throws: what encoding the value throws, as an encoding without a binding would throw it, and
    ///   ``DatabaseError`` from a bind.
    func encode<T: Encodable>(_ value: T) throws -> Bool {
        guard let binding else { return false }
        binding.start()
        if hasFailed {
            hasFailed = false
            recordedFailure = nil
        }
        recordSerial &+= 1
        defer { recordSerial &+= 1 }
        try value.encode(to: RecordEncodingHandle(encoder: self, recordSerial: recordSerial))
        guard !binding.hasDiverged else { return false }
        if hasFailed, let failure = recordedFailure { throw failure }
        return binding.isComplete
    }

    /// Lets go of the kept keyed container, which refers back to this encoder: called when the encoder's
    /// owner is done with it.
    func dropContainer() {
        containerBox = nil
        handedOutUnboxedContainer = false
    }

    /// True when user code may still hold the keyed container of the record just written: a copy of the one
    /// this reused encoder keeps (asked when the record ends, when every copy the record's own code made is
    /// released unless it was kept), or one it could not keep.
    var isHeldByUserCode: Bool {
        @inline(__always) get { handedOutUnboxedContainer || containerBox?.isHeldElsewhere == true }
    }

    /// Ends this encoder's use: it binds nothing from now on, and every value encoded through it, or through
    /// a container it handed out, throws ``FinishedEncoding/recordIsDone(_:codingPath:)``. Called when a
    /// collected encoding ends, and by the Record layer for a reused encoder whose container user code kept.
    /// Also lets go of the kept container, which refers back to this encoder.
    func retire() {
        isRetired = true
        binding = nil
        guaranteedBinding = nil
        dropContainer()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let box = containerBox else { return makeContainer(keyedBy: type) }
        return box.encodingContainer(keyedBy: type) { makeContainer(keyedBy: type) }
    }

    /// Makes a keyed container, and keeps it when this encoder is reused. Not inlined, so that the metadata
    /// lookups it needs stay out of `container(keyedBy:)`, which would otherwise make them for every record.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if isRetired { return KeyedEncodingContainer(FinishedKeyedEncodingContainer<Key>(codingPath: [])) }
        let container = KeyedEncodingContainer(RecordKeyedContainer<Key>(encoder: self))
        if binding != nil {
            // A box this replaces may hold a container of this same record, which could be kept.
            if containerBox != nil { handedOutUnboxedContainer = true }
            containerBox = KeyedContainerBox(container, keyedBy: type)
            if containerBox == nil { handedOutUnboxedContainer = true }
        }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if isRetired { return FinishedEncodingContainer(codingPath: []) }
        fail(nil, "A record encodes into a keyed container, one column per coding key; not an array")
        return DiscardingUnkeyedContainer(codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if isRetired { return FinishedEncodingContainer(codingPath: []) }
        fail(nil, "A record encodes into a keyed container, one column per coding key; not a single value")
        return ColumnValueEncoder(codingPath: [])
    }

    func fail(_ key: (any CodingKey)?, _ message: String, value: Any = ()) {
        guard !hasFailed else { return }
        hasFailed = true
        recordedFailure = EncodingError.invalidValue(
            value, .init(codingPath: key.map { [$0] } ?? [], debugDescription: message))
    }
}
