import CSQLiteRecord
import Foundation

/// What a boxed keyed container holds in place of the state's storage: nothing, so that the container stays
/// plain data (see ``RevokedRowStates``).
package struct Unretained {
    package init() {}
}

/// The keyed container over a row: `decode(_:forKey:)` reads the column named by the key.
///
/// Generic over the key type and reached through the standard library's type-erasing box, so it runs
/// unspecialized: it uses the key only to find its column (``KeyTrail``), then hands over to the column
/// reader, which is not generic.
struct RowKeyedContainer<Key: CodingKey, Retainer>: KeyedDecodingContainerProtocol {
    /// The context's state, not the context: the context keeps this container (in `containerBox`) for the
    /// rows after the first, so a strong reference would be a cycle, and every fetch would leak its context
    /// and column lookup. The state stays valid for as long as any copy of this container lives: a boxed
    /// container is plain data (`Retainer` is ``Unretained``), and ``RevokedRowStates`` keeps the state's
    /// storage alive while user code holds a copy; an unboxed one retains the storage in `retainer`. A
    /// container that user code keeps past its row is revoked when that row ends (see
    /// ``RowDecodingStateStorage``): its reads then all miss the emptied key trail, and the slow paths below
    /// check ``RowDecodingState/isRevoked`` before they reach the context.
    let state: RowDecodingState
    let retainer: Retainer

    /// The context: only while the state is not revoked (the context may be gone after that).
    var context: RowDecodingContext { state.context }
    var codingPath: [any CodingKey] { [] }
    /// The keys the row's columns answer to; none once the row is gone.
    var allKeys: [Key] {
        guard !state.isRevoked else { return [] }
        return context.columnNames.compactMap { Key(stringValue: context.lookup.keyString(forColumn: $0)) }
    }

    /// True when the row has a column for `key`; also true once the row is gone, so that the decode that
    /// follows throws the error that says so, where false would read as a column the row lacks.
    func contains(_ key: Key) -> Bool {
        column(key, position: state.takeKeyPosition()) >= 0 || state.isRevoked
    }

    /// The error for a container used after its row, or nil.
    @inline(never)
    private func rowIsGone(_ key: Key?) -> DecodingError? {
        guard state.isRevoked else { return nil }
        return RowDecodingStateStorage.rowIsGone(codingPath: key.map { [$0] } ?? [])
    }

    /// The column `key` names, -1 for none: from the key trail, or else by the key's string.
    @inline(__always)
    private func column(_ key: Key, position: Int) -> Int32 {
        if let column = state.trail.column(forKey: key, position: position) { return column }
        return lookUpColumn(key, position: position)
    }

    /// The column `key` names, by its string (a first row, or a key the trail does not know at `position`).
    /// Not inlined, as none of the paths below that a row takes only now and then: the container's methods
    /// run once per column of every row, and the code of the rare paths costs them registers and stack.
    @inline(never)
    private func lookUpColumn(_ key: Key, position: Int) -> Int32 {
        guard !state.isRevoked else { return -1 }
        return context.lookup.column(forKey: key, position: position)
    }

    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError { rowIsGone(key) ?? context.keyNotFound(key) }

    /// The reader for the column `key` names. It records the key by its position in the key trail, not as
    /// a String: only an error needs the key's name.
    @inline(__always)
    private func reader(_ key: Key) throws -> ColumnReader {
        let position = state.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { throw keyNotFound(key) }
        return ColumnReader(index: index, state: state, keyPosition: position)
    }

    /// The reader for an Optional key, or nil when the value is absent: NULL, or no such column in a raw-SQL
    /// row.
    @inline(__always)
    private func optionalReader(_ key: Key) throws -> ColumnReader? {
        let position = state.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { return try absentColumn(key) }
        let reader = ColumnReader(index: index, state: state, keyPosition: position)
        return reader.isNull ? nil : reader
    }

    /// The value of the column `key` names: `common`'s answer from the column alone (one of the reader's
    /// `common` functions), or else `read`'s through a reader, which converts or throws.
    ///
    /// The same as `read(reader(key))`, but the reader is made only when `common` has no answer, in
    /// ``read(column:position:_:)``: passed to a function that is not inlined, it is written to memory.
    @inline(__always)
    private func value<Value>(
        _ key: Key, _ common: (StatementColumn, Int32) -> Value?, _ read: (ColumnReader) throws -> Value
    ) throws -> Value {
        let position = state.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { throw keyNotFound(key) }
        let column = StatementColumn(state.row, at: index)
        if let value = common(column, column.storageClass) { return value }
        return try self.read(column: index, position: position, read)
    }

    /// ``value(_:_:_:)`` for an Optional key: nil when the value is absent (NULL, or no such column in a
    /// raw-SQL row).
    @inline(__always)
    private func valueIfPresent<Value>(
        _ key: Key, _ common: (StatementColumn, Int32) -> Value?, _ read: (ColumnReader) throws -> Value
    ) throws -> Value? {
        let position = state.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { return try absentColumn(key).map(read) }
        let column = StatementColumn(state.row, at: index)
        let storage = column.storageClass
        if storage == SQLITE_NULL { return nil }
        if let value = common(column, storage) { return value }
        return try self.read(column: index, position: position, read)
    }

    /// `read` through a reader of column `index`, asked for by the key at `position`: the conversions and
    /// errors of the reads above. Not inlined, so that the reader is made in memory only here.
    @inline(never)
    private func read<Value>(column index: Int32, position: Int, _ read: (ColumnReader) throws -> Value) throws -> Value
    {
        try read(ColumnReader(index: index, state: state, keyPosition: position))
    }

    /// A date, as ``ColumnReader/date()`` reads it.
    ///
    /// The strategy is read before the closure is made, so that it captures a flag, not the container: a
    /// closure over a generic container is allocated, with a generic metadata lookup, on every call.
    @inline(__always)
    private func date(_ key: Key) throws -> Date {
        let automatic = state.readsDatesAutomatically
        return try value(key, { automatic ? ColumnReader.commonDate($0, $1) : nil }) { try $0.date() }
    }

    /// ``date(_:)`` for an Optional key.
    @inline(__always)
    private func dateIfPresent(_ key: Key) throws -> Date? {
        let automatic = state.readsDatesAutomatically
        return try valueIfPresent(key, { automatic ? ColumnReader.commonDate($0, $1) : nil }) { try $0.date() }
    }

    /// nil for an Optional key with no column in a raw-SQL row; `keyNotFound` where the library wrote the
    /// SELECT; the error for two keys that differ only in case either way.
    @inline(never)
    private func absentColumn(_ key: Key) throws -> ColumnReader? {
        if let gone = rowIsGone(key) { throw gone }
        if context.missingOptionalColumnIsNil, context.lookup.keyDiffering(inCaseFrom: key.stringValue) == nil {
            return nil
        }
        throw context.keyNotFound(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try reader(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try value(key, ColumnReader.commonBool) { try $0.bool() }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try value(key, ColumnReader.commonString) { try $0.string() }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try value(key, ColumnReader.commonDouble) { try $0.double() }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A Date first, and straight to the column: the date read is inlined here, where going through the
        // reader's generic decode would compare the type again and make a call per step. T is the type just
        // compared, so the bit cast is the identity.
        if T.self == Date.self { return try SameTypeCast.cast(checked: try date(key), to: T.self) }
        return try reader(key).decode(type)
    }

    /// An integer of `type`, in range, as ``ColumnReader/integer(_:)`` reads it.
    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(key, { ColumnReader.commonInteger(type, $0, $1) }) { try $0.integer(type) }
    }

    /// ``integer(_:forKey:)`` for an Optional key.
    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T? {
        try valueIfPresent(key, { ColumnReader.commonInteger(type, $0, $1) }) { try $0.integer(type) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try valueIfPresent(key, ColumnReader.commonBool) { try $0.bool() }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try valueIfPresent(key, ColumnReader.commonString) { try $0.string() }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try valueIfPresent(key, ColumnReader.commonDouble) { try $0.double() }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optionalReader(key)?.float() }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // As in decode(_:forKey:).
        if T.self == Date.self { return try dateIfPresent(key).map { try SameTypeCast.cast(checked: $0, to: T.self) } }
        return try optionalReader(key)?.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw rowIsGone(key) ?? nestingError(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw rowIsGone(key) ?? nestingError(key)
    }

    /// A decoder over the same row, valid as long as this container is: for the row only.
    func superDecoder() throws -> any Decoder {
        if let gone = rowIsGone(nil) { throw gone }
        return StatementRowDecoder(context: context, rowSerial: state.rowSerial)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { ColumnValueDecoder(reader: try reader(key)) }

    private func nestingError(_ key: Key) -> DecodingError {
        DecodingError.typeMismatch(
            Any.self,
            .init(
                codingPath: [key],
                debugDescription: "Column \"\(key.stringValue)\" holds one value; a nested value is stored there "
                    + "as JSON and decodes through decode(_:forKey:) with a Decodable type"))
    }
}
