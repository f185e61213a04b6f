import Foundation

/// What a prepared statement keeps for decoding (in its `codingCache` slot): the column lookup and the
/// context that ``RowDecoder/decode(_:from:)`` reuses from row to row. The context refers to the lookup,
/// never the other way, so nothing here is a cycle.
final class StatementCodingState {
    let lookup: ColumnLookup
    var reusableContext: RowDecodingContext?

    init(lookup: ColumnLookup) { self.lookup = lookup }
}

/// A statement's result columns, looked up by coding key. Built once per prepared statement and kept on
/// it (statements are cached per connection), so rows and calls after the first pay one hash per key.
final class ColumnLookup {
    let names: [String]
    let keyStrategy: RowDecoder.KeyDecodingStrategy
    /// Column name to index. When a join repeats a name, the first column of that name wins.
    private let indexes: [String: Int32]
    /// Key string to index for snake_case lookups, -1 for none: the conversion happens once per key.
    private var convertedIndexes: [String: Int32] = [:]

    init(statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy) {
        let names = statement.columnNames
        var indexes: [String: Int32] = [:]
        indexes.reserveCapacity(names.count)
        for (index, name) in names.enumerated() where indexes[name] == nil {
            indexes[name] = Int32(index)
        }
        self.names = names
        self.indexes = indexes
        self.keyStrategy = keyStrategy
        trailCount.initialize(to: 0)
    }

    /// The lookup for `statement` and `keyStrategy`, from the statement when it has one.
    static func of(_ statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy) -> ColumnLookup {
        state(of: statement, keyStrategy: keyStrategy).lookup
    }

    /// What the statement keeps for decoding, made anew when the key strategy or the column count changed.
    static func state(of statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy) -> StatementCodingState {
        if let state = statement.codingCache as? StatementCodingState, state.lookup.keyStrategy == keyStrategy,
            state.lookup.names.count == Int(statement.columnCount)
        {
            return state
        }
        let state = StatementCodingState(lookup: ColumnLookup(statement: statement, keyStrategy: keyStrategy))
        statement.codingCache = state
        return state
    }

    /// The keys asked for, in the order a row asks for them, with their columns. A type's `init(from:)`
    /// asks for the same keys in the same order on every row, so after the first row each key is found by
    /// comparing it with the key asked for at the same position, without hashing. Kept with the statement,
    /// so later fetches through the cached statement start with it.
    /// Raw memory for the same reason as the decoding context's key position: no exclusivity check per
    /// column. `trailCount` entries of `trail` are initialized.
    private static let trailCapacity = 256
    private let trail = UnsafeMutablePointer<(key: String, index: Int32?)>.allocate(capacity: trailCapacity)
    private let trailCount = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    deinit {
        trail.deinitialize(count: trailCount.pointee)
        trail.deallocate()
        trailCount.deallocate()
    }

    /// The column a key names, or nil; `position` is how many keys the row asked for before this one.
    func index(forKey key: String, position: Int) -> Int32? {
        let count = trailCount.pointee
        if position < count {
            if trail[position].key == key { return trail[position].index }
            // Another type, or a type that skips keys on some rows: a mismatch costs a hash, as without the
            // trail, and the trail is rebuilt from here.
            (trail + position).deinitialize(count: count - position)
            trailCount.pointee = position
        }
        let index = index(forKey: key)
        if position == trailCount.pointee && position < Self.trailCapacity {
            (trail + position).initialize(to: (key, index))
            trailCount.pointee = position + 1
        }
        return index
    }

    /// The column a key names, or nil.
    func index(forKey key: String) -> Int32? {
        switch keyStrategy {
        case .useDefaultKeys:
            return indexes[key]
        case .convertFromSnakeCase:
            if let known = convertedIndexes[key] { return known < 0 ? nil : known }
            let index = indexes[KeyCase.snakeCase(key)]
            convertedIndexes[key] = index ?? -1
            return index
        }
    }

    /// The key string a column answers to under the strategy (for `allKeys`).
    func keyString(forColumn name: String) -> String {
        guard keyStrategy == .convertFromSnakeCase else { return name }
        var parts = name.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return name }
        for index in parts.indices.dropFirst() { parts[index] = parts[index].capitalized }
        return parts.joined()
    }
}

/// What every row of one fetch shares while it is decoded: the column lookup, the table name for errors,
/// the strategies, and one JSON decoder for nested values.
final class RowDecodingContext {
    /// Unowned: a context lives inside one fetch over its statement, or is kept by that statement's own
    /// ``StatementCodingState``, so the statement always outlives it; a strong reference would make that
    /// kept context a retain cycle, and costs a retain and release per column.
    unowned(unsafe) let statement: Statement
    /// The statement's current row by handle: column reads through it retain nothing.
    let row: StatementRow
    /// The table the library selected from, named in errors; nil for raw SQL.
    let tableName: String?
    /// True for raw SQL: an Optional key with no column decodes as nil, as `decodeIfPresent` does in
    /// Foundation's decoders, so partial SELECTs work. False when the library wrote the SELECT: then a
    /// misspelled key is an error at the first fetch, not a nil forever.
    let missingOptionalColumnIsNil: Bool
    let decoder: RowDecoder
    let lookup: ColumnLookup
    /// The keyed container the rows of this fetch share, and the key type it was made for.
    var containerKeyType: ObjectIdentifier?
    var containerBox: AnyObject?
    var columnNames: [String] { lookup.names }

    init(statement: Statement, tableName: String?, missingOptionalColumnIsNil: Bool, decoder: RowDecoder = RowDecoder())
    {
        self.statement = statement
        self.row = statement.row
        self.tableName = tableName
        self.missingOptionalColumnIsNil = missingOptionalColumnIsNil
        self.decoder = decoder
        self.lookup = ColumnLookup.of(statement, keyStrategy: decoder.keyDecodingStrategy)
        keyPosition.initialize(to: 0)
    }

    /// How many keys the current row has asked for: the position in ``ColumnLookup``'s key trail. Kept in
    /// raw memory rather than a stored `var`, because a class's stored `var` costs a dynamic exclusivity
    /// check on every access, and this one changes for every column of every row.
    private let keyPosition = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    deinit { keyPosition.deallocate() }

    /// The column a key names, or nil.
    func index(forKey key: String) -> Int32? {
        let position = keyPosition.pointee
        keyPosition.pointee = position + 1
        return lookup.index(forKey: key, position: position)
    }

    /// Decodes the statement's current row as `T`. A row of one column decodes Date, Data, UUID, URL and
    /// Decimal as that column's value, by the value table, rather than through their own `Decodable`.
    func decodeRow<T: Decodable>(_ type: T.Type) throws -> T {
        keyPosition.pointee = 0
        if ColumnReader.readsDirectly(type), lookup.names.count == 1 {
            return try ColumnReader(index: 0, context: self, key: nil).decode(type)
        }
        return try T(from: StatementRowDecoder(context: self))
    }

    /// `column "name" of table "cities"`, or `column "name"` when the table is unknown.
    func describeColumn(at index: Int32) -> String {
        let name = index >= 0 && Int(index) < columnNames.count ? columnNames[Int(index)] : "#\(index)"
        guard let tableName else { return "column \"\(name)\"" }
        return "column \"\(name)\" of table \"\(tableName)\""
    }

    /// The `keyNotFound` error for a key with no column, listing the columns the row has.
    func keyNotFound(_ key: any CodingKey) -> DecodingError {
        let place = tableName.map { " in table \"\($0)\"" } ?? " in the row"
        let column = lookup.keyStrategy == .convertFromSnakeCase ? KeyCase.snakeCase(key.stringValue) : key.stringValue
        let text =
            "No column \"\(column)\"\(place); the row has columns: "
            + columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        return DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: text))
    }
}

/// A `Decoder` over the current row of a statement: each coding key names a column.
///
/// Rows decode into keyed types (structs with coding keys). A row of exactly one column also decodes as a
/// single value, so `SELECT count(*)` reads as an `Int`.
struct StatementRowDecoder: Decoder {
    let context: RowDecodingContext
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // The container holds nothing that changes between rows, so one serves every row of the fetch:
        // making it anew costs two generic metadata lookups and an allocation per row.
        if context.containerKeyType == ObjectIdentifier(type), let box = context.containerBox {
            // The key type was compared just above, so the box holds a container of this type.
            return unsafeDowncast(box, to: KeyedContainerBox<Key>.self).container
        }
        let container = KeyedDecodingContainer(RowKeyedContainer<Key>(context: context))
        context.containerKeyType = ObjectIdentifier(type)
        context.containerBox = KeyedContainerBox(container)
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            .init(
                codingPath: [],
                debugDescription: "A row decodes into a keyed type (a struct with coding keys) or, when it has "
                    + "one column, a single value; not an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard context.columnNames.count == 1 else {
            throw DecodingError.typeMismatch(
                Any.self,
                .init(
                    codingPath: [],
                    debugDescription: "A single value decodes from a row of one column; this row has "
                        + "\(context.columnNames.count): \(context.columnNames.joined(separator: ", "))"))
        }
        return ColumnValueDecoder(
            reader: ColumnReader(index: 0, context: context, key: nil))
    }
}

/// Holds a keyed container so it can be kept, type-erased, in the decoding context.
final class KeyedContainerBox<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}

/// The keyed container over a row: `decode(_:forKey:)` reads the column named by the key.
private struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// Unowned: the context keeps this container (in `containerBox`) for the rows after the first, so a
    /// strong reference would be a cycle, and every fetch would leak its context and column lookup. The
    /// container is used only while a row decodes, inside `decodeRow`, which holds the context.
    unowned(unsafe) let context: RowDecodingContext

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { context.columnNames.compactMap { Key(stringValue: context.lookup.keyString(forColumn: $0)) } }

    func contains(_ key: Key) -> Bool { context.index(forKey: key.stringValue) != nil }

    private func reader(_ key: Key) throws -> ColumnReader {
        guard let index = context.index(forKey: key.stringValue) else { throw context.keyNotFound(key) }
        return ColumnReader(index: index, context: context, key: key.stringValue)
    }

    /// The reader for an Optional key, or nil when the value is absent: NULL, or no such column in a raw-SQL
    /// row.
    private func optionalReader(_ key: Key) throws -> ColumnReader? {
        guard let index = context.index(forKey: key.stringValue) else {
            if context.missingOptionalColumnIsNil { return nil }
            throw context.keyNotFound(key)
        }
        let reader = ColumnReader(index: index, context: context, key: key.stringValue)
        return reader.isNull ? nil : reader
    }

    func decodeNil(forKey key: Key) throws -> Bool { try reader(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader(key).decode(type) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optionalReader(key)?.bool() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optionalReader(key)?.string()
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optionalReader(key)?.double()
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optionalReader(key)?.float() }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalReader(key)?.integer(type) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optionalReader(key)?.integer(type)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optionalReader(key)?.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw nestingError(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw nestingError(key)
    }

    func superDecoder() throws -> any Decoder { StatementRowDecoder(context: context) }

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

/// A `Decoder` over one column: what a value type's own `init(from:)` sees (a RawRepresentable enum reads
/// its raw value here). Keyed and unkeyed containers are not offered: asking for one means the type is a
/// nested struct, array or dictionary, and ``ColumnReader/decode(_:)`` then reads the column as JSON.
struct ColumnValueDecoder: Decoder, SingleValueDecodingContainer {
    /// Thrown when the type asks for a keyed or unkeyed container; caught by ``ColumnReader/decode(_:)``.
    struct NeedsContainer: Error {}

    let reader: ColumnReader

    var codingPath: [any CodingKey] { reader.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsContainer()
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { reader.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.bool() }
    func decode(_ type: String.Type) throws -> String { try reader.string() }
    func decode(_ type: Double.Type) throws -> Double { try reader.double() }
    func decode(_ type: Float.Type) throws -> Float { try reader.float() }
    func decode(_ type: Int.Type) throws -> Int { try reader.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decode(type) }
}
