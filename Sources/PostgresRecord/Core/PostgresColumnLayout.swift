#if PostgreSQL
import Foundation
import SQLiteRecord

/// The columns of a statement's results, and the order a `Decodable` type asks for them: made from the first
/// result of a SQL text and kept by its connection (``PostgresConnection/columnLayout(for:sql:)``) for every
/// result of that text whose column names are the same, so that a query of one row (`fetchOne(id:)`) neither
/// reads its column names nor looks its coding keys up again.
///
/// A layout belongs to one connection, used by one thread at a time, like the rows that read through it.
final class PostgresColumnLayout {
    /// The column names, in order.
    let names: [String]

    /// A coding key asked for at one position of a row, and the index of its column (nil for none).
    private struct KeyColumn {
        let key: String
        let index: Int?
    }

    /// The coding keys looked up in the first row, in the order a `Decodable` type asked for them, with the
    /// column each found; and where the next lookup is expected among them. A synthesized `init(from:)`
    /// asks for its keys in the same order in every row, so past the first row a key's column is one string
    /// comparison (equal literal strings compare by their bits): no renaming lookup, no name search. The
    /// order belongs to one key type and one renaming (`keyType`); a key asked out of that order, or of
    /// another key type (a `superDecoder` of a class, the joined record of a row), is found as in the first
    /// row. Only this class's methods touch these, one call at a time (the layout's connection is used by one
    /// thread at a time).
    private var keyOrder: [KeyColumn] = []
    private var keyPosition = 0
    /// True once the first row's lookups are all recorded.
    private var keyOrderComplete = false
    /// The key type and whether keys are renamed, of the recorded order.
    private var keyType: (type: ObjectIdentifier, renamed: Bool)?

    /// The names' UTF-8 bytes, each followed by a NUL: what ``PostgresResult/hasColumns(named:)`` compares
    /// with a result's names.
    let nameBytes: [CChar]

    init(names: [String]) {
        self.names = names
        nameBytes = names.flatMap { name in name.utf8.map { CChar(bitPattern: $0) } + [0] }
    }

    /// The column of coding key `key` of type `Key`, renamed through `renaming` (coding key to column name)
    /// when given: an exact match of the name first, then ASCII case-insensitively; nil when the result has
    /// no such column.
    func column<Key: CodingKey>(for key: Key, renaming: [String: String]?) -> Int? {
        let string = key.stringValue
        let type = (ObjectIdentifier(Key.self), renaming != nil)
        if let keyType, keyType == type {
            if keyPosition < keyOrder.count, keyOrder[keyPosition].key == string {
                keyPosition += 1
                return keyOrder[keyPosition - 1].index
            }
            if let first = keyOrder.first, first.key == string {
                // The next row begins.
                keyOrderComplete = true
                keyPosition = 1
                return first.index
            }
        } else if keyType != nil {
            // Another key type: found without the recorded order, which stays for the type that made it.
            return columnIndex(renaming?[string] ?? string)
        } else {
            keyType = type
        }
        let index = columnIndex(renaming?[string] ?? string)
        if !keyOrderComplete, keyPosition == keyOrder.count, keyOrder.count < 4 * names.count + 4 {
            keyOrder.append(KeyColumn(key: string, index: index))
            keyPosition += 1
        }
        return index
    }

    /// The decoding of the last result decoded as records through this layout, for the next
    /// (``PostgresRowDecoding/decodeOne(_:_:row:columnNames:jsonDecoder:missingOptionalColumnIsNil:)`` and
    /// ``PostgresRowDecoding/decodeAll(_:_:columnNames:jsonDecoder:missingOptionalColumnIsNil:)``), its reader
    /// parked on ``parkedRows``.
    private var keptDecoding: PostgresRowDecoding?

    /// Empty rows (no row, no column, `PQmakeEmptyPGresult`) of a layout of their own, which the kept
    /// decoding's reader reads while kept: it then holds none of a result's memory, and no reference to this
    /// layout, which holds it (no cycle). Made on the first keep; nil while libpq cannot allocate them.
    private var parkedRows: PostgresRows?

    /// The kept decoding, no longer kept.
    func takeKeptDecoding() -> PostgresRowDecoding? {
        defer { keptDecoding = nil }
        return keptDecoding
    }

    /// Keeps `decoding`, once nothing made for its rows holds it, for the next result of this layout, moved
    /// off its result onto ``parkedRows``; keeps none when they cannot be made.
    func keep(_ decoding: PostgresRowDecoding) {
        if parkedRows == nil, let empty = PostgresResult.empty() {
            parkedRows = PostgresRows(result: empty, sql: "", layout: PostgresColumnLayout(names: []))
        }
        guard let parkedRows else {
            keptDecoding = nil
            return
        }
        decoding.reader.read(parkedRows, row: 0)
        keptDecoding = decoding
    }

    /// The key tables made so far, by key type and renaming (see ``keyColumns(for:renaming:)``).
    private var keyTables: [(type: ObjectIdentifier, renaming: [String: String]?, columns: [Int32])] = []

    /// For a key type of one byte of plain data (a `CodingKeys` enum), the column of each of its keys by the
    /// key's byte (`KeyIdentity.bytes(of:)`), -1 where the table does not tell; empty for other key types.
    /// Made once per key type and renaming of this layout, from the columns: each column name is turned back
    /// into the key that reads it (`Key(stringValue:)`), and a key found so names its column exactly, the
    /// first of that name. A key the table does not tell (a key no column is named after exactly, one whose
    /// `init(stringValue:)` gives another key) is found by ``column(for:renaming:)``, so the table changes no
    /// answer, only its cost.
    func keyColumns<Key: CodingKey>(for type: Key.Type, renaming: [String: String]?) -> [Int32] {
        let id = ObjectIdentifier(type)
        // A record's renaming is one dictionary kept by its shape, which `==` compares by identity first.
        if let kept = keyTables.first(where: { $0.type == id && $0.renaming == renaming }) { return kept.columns }
        let columns = Self.makeKeyColumns(for: type, names: names, renaming: renaming)
        // Bounded: a layout is decoded as a few types, each with one renaming.
        if keyTables.count < 8 { keyTables.append((id, renaming, columns)) }
        return columns
    }

    private static func makeKeyColumns<Key: CodingKey>(
        for type: Key.Type, names: [String], renaming: [String: String]?
    ) -> [Int32] {
        // A key that is not plain data has no bytes (`KeyIdentity.bytes(of:)`, which asks), so it finds nothing.
        guard MemoryLayout<Key>.size <= 1 else { return [] }
        // Column name to the key strings that read it.
        var keysOfColumn: [String: [String]] = [:]
        if let renaming { for (key, column) in renaming { keysOfColumn[column, default: []].append(key) } }
        var table = [Int32](repeating: -1, count: 256)
        var found = false
        for (index, name) in names.enumerated() {
            for string in (keysOfColumn[name] ?? []) + (renaming?[name] == nil ? [name] : []) {
                guard let key = Key(stringValue: string), renaming?[key.stringValue] ?? key.stringValue == name,
                    let bytes = KeyIdentity.bytes(of: key), bytes.0 < 256, table[Int(bytes.0)] < 0
                else { continue }
                table[Int(bytes.0)] = Int32(index)
                found = true
            }
        }
        return found ? table : []
    }

    /// The column named `name`: an exact match first (the first column of a name wins, as PostgreSQL
    /// resolves an ambiguous name in ORDER BY), then ASCII case-insensitively. A linear search: it runs for
    /// the first row's keys only, and a result has a few dozen columns at most, where it is cheaper than
    /// building a hash table per layout.
    func columnIndex(_ name: String) -> Int? {
        if let index = names.firstIndex(of: name) { return index }
        let lowered = name.lowercased()
        if let index = names.firstIndex(where: { $0.lowercased() == lowered }) { return index }
        return name.utf8.count > 63 ? columnIndex(Self.storedName(name)) : nil
    }

    /// `name` as the server stores an identifier: cut to at most 63 bytes (`NAMEDATALEN` - 1) at a
    /// character's boundary, as the server cuts a longer name it is given, in `CREATE` and in every other
    /// statement alike, so a result names such a column by its first 63 bytes. See
    /// <https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS>.
    static func storedName(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        var bytes = 0
        var end = name.unicodeScalars.startIndex
        for scalar in name.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > 63 { break }
            end = name.unicodeScalars.index(after: end)
        }
        return String(name.unicodeScalars[..<end])
    }
}

extension PostgresConnection {
    /// The layout kept for `sql` when its columns are `result`'s (the same names in the same order), else a
    /// new one of `result`'s columns, kept for `sql` from now on. Compared on every result, as the columns of
    /// a SQL text can change between two runs (`SELECT *` of a table another session altered, run unnamed).
    func columnLayout(for result: PostgresResult, sql: String) -> PostgresColumnLayout {
        if let kept = columnLayouts[sql], result.hasColumns(named: kept.nameBytes) { return kept }
        let layout = PostgresColumnLayout(names: result.columnNames)
        // Bounded: a program that builds SQL texts without end keeps a few layouts, not all of them.
        if columnLayouts.count >= Self.keptColumnLayouts { columnLayouts.removeAll() }
        columnLayouts[sql] = layout
        return layout
    }

    /// How many SQL texts' layouts a connection keeps at most.
    static let keptColumnLayouts = 256
}
#endif
