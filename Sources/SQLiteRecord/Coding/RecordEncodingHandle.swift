/// The `Encoder` that a reused ``ColumnsEncoder`` (a write plan's, kept from record to record) hands to one
/// record's `encode(to:)`: the encoder, and which record it is for.
///
/// The encoder itself is never handed to user code, since it serves the next record too: a type that keeps
/// the encoder it was given past its record (to encode more later, or from the next record's `encode(to:)`)
/// keeps this handle, whose containers are then finished (``FinishedEncoding``) and throw, rather than bind
/// a value into the statement of a later write.
struct RecordEncodingHandle: Encoder {
    let encoder: ColumnsEncoder
    /// The record this handle was made for (see ``ColumnsEncoder/recordSerial``).
    let recordSerial: UInt

    var codingPath: [any CodingKey] { [] }
    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// True while the encoder is on the record this handle was made for.
    private var isCurrent: Bool {
        @inline(__always) get { encoder.recordSerial == recordSerial }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard isCurrent else { return KeyedEncodingContainer(FinishedKeyedEncodingContainer<Key>(codingPath: [])) }
        return encoder.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        guard isCurrent else { return FinishedEncodingContainer(codingPath: []) }
        return encoder.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        guard isCurrent else { return FinishedEncodingContainer(codingPath: []) }
        return encoder.singleValueContainer()
    }
}
