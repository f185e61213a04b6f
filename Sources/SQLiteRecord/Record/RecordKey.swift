import Foundation

/// The rowid key, `Int64?`, read and made without a dynamic cast per call (through ``SameTypeCast``).
enum RowIDKey {
    /// True when `ID` is `Int64?`, the rowid.
    @inline(__always)
    static func isRowID<ID>(_ type: ID.Type) -> Bool { type == Optional<Int64>.self }

    /// The rowid `id` holds: nil for a record not saved yet, and for an `ID` that is not `Int64?`.
    @inline(__always)
    static func rowID<ID>(_ id: ID) -> Int64? { SameTypeCast.cast(id, to: Optional<Int64>.self) ?? nil }

    /// `rowID` as the key type `ID`; nil when `ID` is not `Int64?`.
    @inline(__always)
    static func key<ID>(_ rowID: Int64?) -> ID? { SameTypeCast.cast(rowID, to: ID.self) }
}

extension Record {
    /// Sets `id` to `rowID` when the key is the rowid (`Int64?`); does nothing for another key type.
    ///
    /// Not inlined, and holding no `ID?`: the write paths that call it are not specialized for the record
    /// type, where a function that holds an `ID?` makes the metadata of that Optional on every call, which
    /// an insert or upsert would pay for every record.
    @inline(never)
    package mutating func setRowID(_ rowID: Int64) {
        SameTypeCast.assign(Optional(rowID), to: &id)
    }

    /// True for a rowid record (`id: Int64?`) whose id is nil: a new row whose rowid (or identity column)
    /// chooses its id. Found by comparing types, with no dynamic cast; here, where the cast is inlined with the
    /// rowid's type concrete, rather than in another engine's module, which would call the unspecialized cast
    /// (and make the metadata of its result type) on every call.
    package var hasNilRowID: Bool { Self.keyIsRowID && RowIDKey.rowID(id) == nil }

    /// The rowid of a rowid record; nil for a nil id or a key of another kind.
    package var rowIDIfAny: Int64? { RowIDKey.rowID(id) }
}

/// A record's primary key as SQL matches it: its columns and, for each, the values that match the key.
///
/// A column has one value, the one the type's encoder writes. A UUID key also has the other forms a UUID
/// is stored in by other tools (lowercase or uppercase text, with or without hyphens or braces, the 16-byte
/// BLOB), every form the decoder reads: ``allForms`` matches them with `IN`. Calls by key try the written
/// form first (one index probe, what rows this library wrote need) and the others only when it finds no
/// row, so a row another tool wrote with uppercase text is found, updated and deleted like one this
/// library wrote, and a row stored in two forms is touched once.
struct KeyMatch: Hashable {
    /// The key's columns, in key order.
    var columns: [String]
    /// For each column, the values that match it; the first is the one the encoder writes.
    var values: [[SQLiteValue]]
    /// For a UUID key, the UUID, whose other stored forms ``allForms`` adds.
    var uuid: UUID?

    /// True when the key may be stored in other forms than the one written (a UUID).
    var hasAlternateForms: Bool { uuid != nil }

    /// The key in every stored form: the written one first, then the others.
    var allForms: KeyMatch {
        guard let uuid, columns.count == 1, let written = values.first?.first else { return self }
        let lower = UUIDText.lowercase(uuid)
        let upper = uuid.uuidString
        let compactLower = lower.replacingOccurrences(of: "-", with: "")
        let compactUpper = upper.replacingOccurrences(of: "-", with: "")
        let forms: [SQLiteValue] = [
            .text(lower), .text(upper), Self.blob(uuid), .text(compactLower),
            .text(compactUpper), .text("{" + lower + "}"), .text("{" + upper + "}"),
        ]
        // Exactly one occurrence of the written form comes out, so that every UUID binds the same number of
        // values (a UUID of digits alone has equal lowercase and uppercase text) and a list of keys splits
        // into statements of one shape.
        var others = forms
        if let position = others.firstIndex(of: written) { others.remove(at: position) }
        return KeyMatch(columns: columns, values: [[written] + others], uuid: nil)
    }

    /// Every value, in the order the SQL binds them.
    var arguments: StatementArguments { StatementArguments(values.flatMap { $0 }) }

    /// What the SQL text depends on: the columns and how many values each binds.
    var shape: String {
        zip(columns, values).map { "\($0.0)\u{1}\($0.1.count)" }.joined(separator: "\u{2}")
    }

    /// The key for messages: `42`, `e621e1f8-...`, or `auth_name = 'EPSG', code = 9001`.
    var description: String {
        if columns.count == 1, let value = values.first?.first { return value.keyDescription }
        return zip(columns, values).map { "\($0.0) = \($0.1.first?.keyDescription ?? "NULL")" }
            .joined(separator: ", ")
    }

    /// How many values each column binds, for ``RecordSQL``'s key conditions.
    var counts: [Int] { values.map(\.count) }

    /// `uuid`'s 16 bytes as a BLOB, in the order RFC 9562 writes them (`UUIDEncodingStrategy.blob`).
    static func blob(_ uuid: UUID) -> SQLiteValue {
        let bytes = uuid.uuid
        return .blob(
            Data([
                bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7, bytes.8, bytes.9, bytes.10,
                bytes.11, bytes.12, bytes.13, bytes.14, bytes.15,
            ]))
    }

    /// The form `strategy` writes `uuid` in: the form a UUID key is matched in first.
    static func writtenForm(_ uuid: UUID, strategy: RecordEncoder.UUIDEncodingStrategy) -> SQLiteValue {
        switch strategy {
        case .lowercaseText: return .text(UUIDText.lowercase(uuid))
        case .blob: return blob(uuid)
        }
    }
}

extension SQLiteValue {
    /// The value as a key in a message: text quoted, numbers as they are.
    fileprivate var keyDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return "'" + text + "'"
        case .blob(let data): return "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}

/// What a record type's key encoding needs, worked out once per type: the type's encoder (read once, as
/// the write plans read it) and whether the key is a struct of several columns.
private struct KeyEncoding: Sendable {
    let encoder: RecordEncoder
    let isComposite: Bool
}

/// The key encodings of every record type met so far, by type. Process-wide: they depend on the type
/// alone, never on a connection, and ``Record/keyMatch(_:)`` has no connection to ask; `Locked` guards them.
private enum KeyEncodings {
    static let entries = Locked<[ObjectIdentifier: KeyEncoding]>([:])
}

/// A one-column key wrapped as a keyed value, so that the type's encoder stores it as it stores a
/// property: its UUID, date and enum strategies apply.
private struct SingleColumnKey<Value: Encodable>: Encodable {
    let column: String
    let value: Value

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ColumnCodingKey.self)
        try container.encode(value, forKey: ColumnCodingKey(stringValue: column))
    }
}

extension Record {
    /// True when the key is the rowid (`id` is `Int64?`).
    static var keyIsRowID: Bool { RowIDKey.isRowID(ID.self) }

    /// The key as messages on every engine show it: `42`, `'EUR'`, or `auth_name = 'EPSG', code = 9001`
    /// (see ``KeyMatch/description``); the key as Swift prints it when it does not encode.
    package static func keyDescription(_ id: ID) -> String {
        (try? keyMatch(id).description) ?? "\(id)"
    }

    /// `id` as SQL matches it: columns and values, encoded as the type's encoder writes them.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` for a nil rowid, ``RecordError/missingKey(table:column:)``
    ///   for a key (or a key column) that is nil, or `EncodingError` for a value that cannot be stored exactly.
    static func keyMatch(_ id: ID) throws -> KeyMatch {
        if keyIsRowID {
            guard let rowID = RowIDKey.rowID(id) else { throw RecordError.recordNotSaved(table: tableName) }
            return KeyMatch(columns: [primaryKeyColumn], values: [[.integer(rowID)]])
        }
        if let value = plainKeyValue(id) { return KeyMatch(columns: [primaryKeyColumn], values: [[value]]) }
        let encoding = keyEncoding()
        if let uuid = SameTypeCast.cast(id, to: UUID.self) {
            return KeyMatch(
                columns: [primaryKeyColumn], values: [[writtenForm(uuid, encoder: encoding.encoder)]], uuid: uuid)
        }
        if encoding.isComposite {
            let columns = try encoding.encoder.encode(id, tableName: tableName)
            if let index = columns.values.firstIndex(of: .null) {
                throw RecordError.missingKey(table: tableName, column: columns.names[index])
            }
            return KeyMatch(columns: columns.names, values: columns.values.map { [$0] })
        }
        let column = primaryKeyColumn
        let encoded = try encoding.encoder.encode(SingleColumnKey(column: column, value: id), tableName: tableName)
        guard let value = encoded.values.first, value != .null else {
            throw RecordError.missingKey(table: tableName, column: column)
        }
        if let uuid = id as? UUID {
            // An Optional<UUID> or another wrapper of one.
            return KeyMatch(columns: [column], values: [[value]], uuid: uuid)
        }
        return KeyMatch(columns: [column], values: [[value]])
    }

    /// `id` as the value its one column holds, for the common key types that need no encoder (`String`,
    /// `Int64`, `Int`); nil for any other.
    @inline(__always)
    static func plainKeyValue(_ id: ID) -> SQLiteValue? {
        if let text = SameTypeCast.cast(id, to: String.self) { return .text(text) }
        if let integer = SameTypeCast.cast(id, to: Int64.self) { return .integer(integer) }
        if let integer = SameTypeCast.cast(id, to: Int.self) { return .integer(Int64(integer)) }
        return nil
    }

    /// The forms a UUID is stored in, the one `encoder` writes first: what a request's equality on a UUID
    /// matches.
    static func uuidForms(_ uuid: UUID, encoder: RecordEncoder) -> [SQLiteValue] {
        let lower = SQLiteValue.text(UUIDText.lowercase(uuid))
        let upper = SQLiteValue.text(uuid.uuidString)
        let blob = KeyMatch.blob(uuid)
        switch encoder.uuidEncodingStrategy {
        case .lowercaseText: return [lower, upper, blob]
        case .blob: return [blob, lower, upper]
        }
    }

    /// The form `encoder` writes `uuid` in.
    private static func writtenForm(_ uuid: UUID, encoder: RecordEncoder) -> SQLiteValue {
        KeyMatch.writtenForm(uuid, strategy: encoder.uuidEncodingStrategy)
    }

    /// ``recordEncoder``, read once per type (the default one builds a JSONEncoder each time it is read).
    static func cachedRecordEncoder() -> RecordEncoder { keyEncoding().encoder }

    /// The type's key encoding, worked out on first use.
    private static func keyEncoding() -> KeyEncoding {
        let type = ObjectIdentifier(Self.self)
        if let cached = KeyEncodings.entries.withLock({ $0[type] }) { return cached }
        // Worked out outside the lock: `recordEncoder` and the key's `init(from:)` are the type's own code.
        let encoding = KeyEncoding(encoder: recordEncoder, isComposite: keyIsComposite())
        KeyEncodings.entries.withLock { $0[type] = encoding }
        return encoding
    }

    /// True when `ID` encodes to a keyed container (a struct of several columns). Found by decoding: a type
    /// that asks a decoder for a keyed container is a struct; one that asks for a single value is a column.
    static func keyIsComposite() -> Bool {
        let probe = KeyShapeProbe()
        _ = try? ID(from: probe)
        return probe.askedForKeyedContainer
    }

    /// Throws unless the key's columns are the table's primary key or a UNIQUE constraint on exactly those
    /// columns: an update or delete by a key that is not unique would touch many rows. Checked once per
    /// type and schema on each connection.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key column the table lacks,
    ///   ``RecordError/keyNotUnique(table:columns:)``, or ``DatabaseError`` `no such table`. `keyColumns` is
    ///   asked for only when the type was not checked yet.
    static func checkKey(_ db: Database, columns keyColumns: @autoclosure () -> [String]) throws {
        let keyChecks = RecordConnectionCache.of(db).keyChecks
        let generation = try db.currentSchemaGeneration()
        if keyChecks[ObjectIdentifier(Self.self)] == generation { return }
        try checkKeyInSchema(db, columns: keyColumns(), generation: generation, keyChecks: keyChecks)
    }

    /// ``checkKey(_:columns:)`` once its result is not known for this schema generation. Apart, so that the
    /// check every update makes first stays a few loads and compares.
    @inline(never)
    private static func checkKeyInSchema(
        _ db: Database, columns keyColumns: [String], generation: Int,
        keyChecks: RecentlyUsedCache<ObjectIdentifier, Int>
    ) throws {
        let type = ObjectIdentifier(Self.self)
        let columns = try explainingMissingTable { try db.columns(in: tableName) }
        let names = Set(columns.map { RowLayout.asciiLowercased($0.name) })
        for column in keyColumns where !names.contains(RowLayout.asciiLowercased(column)) {
            throw RecordError.unknownColumn(table: tableName, column: column, columns: columns.map(\.name))
        }
        let key = Set(keyColumns.map(RowLayout.asciiLowercased))
        let shape = try db.tableShape(tableName)
        // A view declares no key; reads through it are the user's to trust, and writes to it are refused.
        if shape.isView {
            keyChecks[type] = generation
            return
        }
        var unique = Set(shape.primaryKey.map(RowLayout.asciiLowercased)) == key
        if !unique {
            unique = try db.indexes(on: tableName).contains { index in
                index.isUnique && !index.isPartial
                    && Set(index.columns.map { RowLayout.asciiLowercased($0 ?? "") }) == key
            }
        }
        guard unique else { throw RecordError.keyNotUnique(table: tableName, columns: keyColumns) }
        keyChecks[type] = generation
    }
}

/// A decoder that only notes which container a type asks for, then fails: what ``Record/keyIsComposite()``
/// asks a key type.
private final class KeyShapeProbe: Decoder {
    var askedForKeyedContainer = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private var stop: DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "probing the key's shape"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        askedForKeyedContainer = true
        throw stop
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw stop }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw stop }
}
