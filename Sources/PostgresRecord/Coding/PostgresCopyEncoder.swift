#if PostgreSQL
import Foundation
import SQLiteRecord

/// An `Encoder` that writes each record of `Record.copyIn(_:_:)` straight into the data of a binary
/// `COPY ... FROM STDIN` (<https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4>): one tuple
/// per record, each field in its column's binary form (see ``PostgresCopyColumn``), written as the record's
/// `encode(to:)` hands over its value, with no parameter buffer between.
///
/// A COPY tuple holds its fields in column order, so a field is written as its key arrives only while the
/// keys come in the order of the plan (``PostgresEncodingPlan``), which a synthesized `encode(to:)` follows:
/// each key is found at its expected place among the plan's keys, the columns of keys that `encodeIfPresent`
/// skipped (nil Optionals) are written NULL on the way, and so are the columns after the last key. A record
/// whose keys do not come in that order (a key out of order, written twice, or not among the plan's) is
/// *diverged*: what was written of its tuple is taken back, ``append(_:reservedID:)`` returns false, and the
/// caller writes the record through ``PostgresRecordEncoder``'s parameter slots, which take keys in any order
/// (and so run its `encode(to:)` a second time).
///
/// The keyed container is made for the first record and handed out again for the others (through
/// SQLiteRecord's `KeyedContainerBox`): making one costs an allocation and two generic metadata lookups per
/// record. The box refers back to the encoder: ``dropContainer()`` lets go of it when the COPY ends.
///
/// Invariant (this file is the owner of the encoder's unchecked state): the stored state is
/// `@exclusivity(unchecked)`, since the runtime's check of each access to a class's stored property costs
/// more than the field it writes. One COPY uses an encoder, on one thread, and no access to its state
/// overlaps another: every access ends before the call that made it returns, and none spans a call into
/// user code (a value's `encode(to:)` runs between accesses, never inside one).
final class PostgresCopyEncoder: Encoder {
    /// The COPY data not sent yet; each record's tuple is appended.
    @exclusivity(unchecked) var buffer: [UInt8] = []
    private let plan: PostgresEncodingPlan
    /// The COPY's columns, in the order of the plan's columns and of each tuple's fields.
    private let columns: [PostgresCopyColumn]
    /// Each column's form as the setters ask for it: a plain enumeration, read without touching the column.
    private let forms: [DirectForm]
    private let jsonEncoder: JSONEncoder
    /// The rowid column's index among ``columns`` when a sequence gives ids to new records; nil otherwise.
    private let rowIDColumn: Int?
    /// The id the sequence gave the record being written, which its ``rowIDColumn`` field holds whatever the
    /// record writes there (nil, or nothing); nil for a record that brings its own.
    @exclusivity(unchecked) private var reservedID: Int64?
    /// The column of the next field of the tuple.
    @exclusivity(unchecked) private var next = 0
    /// Where the next key is expected among the plan's keys.
    @exclusivity(unchecked) private var position = 0
    /// Where the record's tuple starts in ``buffer``.
    @exclusivity(unchecked) private var tupleStart = 0
    /// True once the record's keys left the plan's order: nothing more is written for it.
    @exclusivity(unchecked) private var diverged = false
    @exclusivity(unchecked) private var containerBox: ReusableContainerBox?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(plan: PostgresEncodingPlan, columns: [PostgresCopyColumn], jsonEncoder: JSONEncoder, rowIDColumn: Int?) {
        self.plan = plan
        self.columns = columns
        forms = columns.map { DirectForm($0.form) }
        self.jsonEncoder = jsonEncoder
        self.rowIDColumn = rowIDColumn
    }

    /// Appends `record`'s tuple to ``buffer``, its ``rowIDColumn`` field `reservedID` when one is given.
    /// - Returns: false, with nothing appended, when the record's keys left the plan's order (see the type's
    ///   comment): the caller writes it another way.
    /// - Throws: `EncodingError.invalidValue` naming the key for a value PostgreSQL cannot store;
    ///   ``PostgresCopyColumn/Refusal`` for a value its column's binary form cannot take; what `encode(to:)`
    ///   throws. Nothing of the record is left in ``buffer`` then.
    func append<T: Encodable>(_ record: T, reservedID: Int64?) throws -> Bool {
        tupleStart = buffer.count
        self.reservedID = reservedID
        next = 0
        position = 0
        diverged = false
        buffer.appendBigEndian(Int16(truncatingIfNeeded: columns.count))
        do {
            try record.encode(to: self)
            if !diverged { try fillNulls(upTo: columns.count) }
        } catch {
            buffer.removeSubrange(tupleStart...)
            throw error
        }
        if diverged {
            buffer.removeSubrange(tupleStart...)
            return false
        }
        return true
    }

    /// Lets go of the kept keyed container, which refers back to this encoder.
    func dropContainer() { containerBox = nil }

    /// The column of coding key `key`, once the fields before it are written (NULL for columns whose keys
    /// were skipped); nil when the record diverged, or when the column is the rowid column of a record whose
    /// id the sequence gave (its field is then written).
    private func column(for key: some CodingKey) throws -> Int? {
        guard !diverged else { return nil }
        let string = key.stringValue
        var index = position
        while index < plan.keys.count, plan.keys[index] != string { index += 1 }
        guard index < plan.keys.count, let column = plan.slots[index], column >= next else {
            diverged = true
            return nil
        }
        position = index + 1
        try fillNulls(upTo: column)
        next = column + 1
        if column == rowIDColumn, let reservedID {
            try appendReservedID(reservedID, column: column)
            return nil
        }
        return column
    }

    /// Appends the id the sequence gave as column `column`'s field, in the key column's own width (a
    /// `serial` key is an INTEGER, a `smallserial` one a SMALLINT).
    /// - Throws: as ``PostgresCopyColumn/appendField(_:to:)``, for an id the column cannot hold.
    private func appendReservedID(_ id: Int64, column: Int) throws {
        guard forms[column] == .int8 else {
            return try appendConverted(type: PostgresType.int8, isBinary: true, PostgresValue.bigEndian(id), column: column)
        }
        buffer.appendCopyField(int64: id)
    }

    /// Writes the fields from ``next`` up to `end`, excluded: NULL, or the reserved id in the rowid column.
    private func fillNulls(upTo end: Int) throws {
        while next < end {
            if next == rowIDColumn, let reservedID {
                try appendReservedID(reservedID, column: next)
            } else {
                buffer.appendBigEndian(Int32(-1))
            }
            next += 1
        }
    }

    /// Appends a value of the parameter form given as column `column`'s field, converted or refused as
    /// ``PostgresCopyColumn/appendField(_:to:)`` does.
    private func appendConverted(type: UInt32, isBinary: Bool, _ bytes: [UInt8]?, column: Int) throws {
        try columns[column].appendField((type, isBinary, bytes.map { $0[...] }), to: &buffer)
    }

    func setNull(for key: some CodingKey) throws {
        guard try column(for: key) != nil else { return }
        buffer.appendBigEndian(Int32(-1))
    }

    func set(_ value: Int64, for key: some CodingKey) throws {
        guard let column = try column(for: key) else { return }
        guard forms[column] == .int8 else {
            return try appendConverted(
                type: PostgresType.int8, isBinary: true, PostgresValue.bigEndian(value), column: column)
        }
        buffer.appendCopyField(int64: value)
    }

    /// - Throws: `EncodingError.invalidValue` for NaN, as ``PostgresRecordEncoder`` throws it.
    func set(_ value: Double, for key: some CodingKey) throws {
        // The coding path is made only for NaN: making it costs an allocation.
        if value.isNaN { try PostgresValueWriter.refuseNaN(value, codingPath: [key]) }
        guard let column = try column(for: key) else { return }
        guard forms[column] == .float8 else {
            return try appendConverted(
                type: PostgresType.float8, isBinary: true, PostgresValue.bigEndian(value.bitPattern), column: column)
        }
        buffer.appendCopyField(int64: Int64(bitPattern: value.bitPattern))
    }

    func set(_ value: Bool, for key: some CodingKey) throws {
        guard let column = try column(for: key) else { return }
        guard forms[column] == .bool else {
            return try appendConverted(type: PostgresType.bool, isBinary: true, [value ? 1 : 0], column: column)
        }
        buffer.appendBigEndian(Int32(1))
        buffer.append(value ? 1 : 0)
    }

    /// - Throws: `EncodingError.invalidValue` for text holding U+0000, as ``PostgresParameters`` throws it.
    func set(_ value: String, for key: some CodingKey) throws {
        guard let column = try column(for: key) else { return }
        let form = forms[column]
        guard form == .text || form == .jsonb else {
            let bytes = Array(value.utf8)
            if bytes.contains(0) { throw PostgresValue.nulInText(value, codingPath: [key]) }
            return try appendConverted(type: 0, isBinary: false, bytes, column: column)
        }
        // The field's length is written once the text's bytes are in.
        let lengthAt = buffer.count
        buffer.appendBigEndian(Int32(0))
        // `jsonb`'s binary form: a version byte (1), then the text.
        if form == .jsonb { buffer.append(1) }
        // The UTF-8 is checked and copied as one contiguous run (a small string's from the stack).
        var text = value
        let holdsNUL = text.withUTF8 { utf8 in
            if utf8.contains(0) { return true }
            buffer.append(contentsOf: utf8)
            return false
        }
        if holdsNUL {
            buffer.removeSubrange(lengthAt...)
            throw PostgresValue.nulInText(value, codingPath: [key])
        }
        buffer.setBigEndian(Int32(truncatingIfNeeded: buffer.count - lengthAt - 4), at: lengthAt)
    }

    func set(_ value: Date, for key: some CodingKey) throws {
        guard let column = try column(for: key) else { return }
        let micros = try PostgresValueWriter.at([key]) { try PostgresType.microseconds(value) }
        guard forms[column] == .timestamp else {
            return try appendConverted(
                type: PostgresType.timestamptz, isBinary: true, PostgresValue.bigEndian(micros), column: column)
        }
        buffer.appendCopyField(int64: micros)
    }

    /// Any other value, through the value table (``PostgresValueWriter``); an array of scalars as JSON when
    /// its column is no array column, as ``PostgresRecordEncoder/writeArraysAsJSON(inColumns:)`` writes it.
    func set<T: Encodable>(_ value: T, for key: some CodingKey) throws {
        if T.self == Date.self { return try set(SameTypeCast.cast(checked: value, to: Date.self), for: key) }
        guard let column = try column(for: key) else { return }
        var written = try PostgresValueWriter.value(value, codingPath: [key], jsonEncoder: jsonEncoder)
        if PostgresType.elementType(ofArray: written.typeOID) != nil, !columns[column].isArray {
            written = try PostgresValueWriter.json(value, codingPath: [key], jsonEncoder: jsonEncoder)
        }
        try appendConverted(type: written.typeOID, isBinary: written.isBinary, written.bytes, column: column)
    }

    /// The forms a value of the setters' types is written in without a conversion.
    private enum DirectForm {
        /// Text as its bytes: `text`, `varchar`, `char(n)`, `name`, `citext`, an enum, `json`.
        case text
        case jsonb, int8, float8, bool
        /// `timestamptz` and `timestamp`, microseconds since 2000 either way.
        case timestamp
        /// Every other form: values go through ``PostgresCopyColumn/appendField(_:to:)``.
        case converted

        init(_ form: PostgresCopyColumn.Form) {
            switch form {
            case .text, .json: self = .text
            case .jsonb: self = .jsonb
            case .int8: self = .int8
            case .float8: self = .float8
            case .bool: self = .bool
            case .timestamptz, .timestamp: self = .timestamp
            default: self = .converted
            }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let box = containerBox else { return makeContainer(keyedBy: type) }
        return box.encodingContainer(keyedBy: type) { makeContainer(keyedBy: type) }
    }

    /// Makes a keyed container, and keeps it for the next records when none is kept. Not inlined, so that its
    /// metadata lookups stay out of ``container(keyedBy:)``.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = KeyedEncodingContainer(Container<Key>(encoder: self))
        if containerBox == nil { containerBox = KeyedContainerBox(container, keyedBy: type) }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PostgresValueEncoder.RefusingUnkeyed(codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PostgresValueEncoder(codingPath: [], jsonEncoder: jsonEncoder).singleValueContainer()
    }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: PostgresCopyEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { try encoder.setNull(for: key) }
        // The Optionals of the types above skip the protocol's default `encodeIfPresent`, one call deeper.
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encoder.set(value, for: key) }
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            if let value { try encoder.set(value, for: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encoder.set(Int64(value), for: key) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            if let value { try encoder.set(value, for: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { try encoder.set(value, for: key) }
        }
        mutating func encode(_ value: String, forKey key: Key) throws { try encoder.set(value, for: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encoder.set(value, for: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try encoder.set(Int64(value), for: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try encoder.set(value, for: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.set(value, for: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.set(value, for: key) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(PostgresValueEncoder.RefusingContainer<NestedKey>(codingPath: [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            PostgresValueEncoder.RefusingUnkeyed(codingPath: [key])
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}
#endif
