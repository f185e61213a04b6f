import Foundation

/// A statement's result columns, looked up by coding key. Built once per prepared statement and kept on
/// it (statements are cached per connection), so rows and calls after the first pay one hash per key.
final class ColumnLookup {
    let names: [String]
    /// `names.count`, as SQLite counts columns.
    let columnCount: Int32
    /// The statement's ``Statement/reprepareCount`` when the names were read: compared on every row that
    /// ``RowDecoder/decode(_:from:)`` decodes and on every fetch, which is how a statement that SQLite
    /// prepared again after a schema change is noticed, even when its columns only changed names.
    let reprepareCount: Int32
    let keyStrategy: RowDecoder.KeyDecodingStrategy
    /// Column name to index, as SQLite matches names (see ``ColumnNameIndex``).
    private let indexes: ColumnNameIndex
    /// Key string to index for snake_case lookups, -1 for none: the conversion happens once per key.
    private var convertedIndexes: [String: Int32] = [:]

    /// The lookup of every column, or of those in `range` only: a joined row holds two tables' columns,
    /// and each record is decoded from its own.
    init(statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy, range: Range<Int>? = nil) {
        reprepareCount = statement.reprepareCount
        let names = statement.columnNames
        self.names = range.map { Array(names[$0.clamped(to: names.indices)]) } ?? names
        self.columnCount = Int32(names.count)
        self.indexes = ColumnNameIndex(names, range: range)
        self.keyStrategy = keyStrategy
    }

    /// What the statement keeps for decoding, made anew when the key strategy changed or SQLite prepared
    /// the statement again.
    static func state(of statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy) -> StatementCodingState {
        if let state = statement.codingState, state.lookup.keyStrategy == keyStrategy,
            state.lookup.reprepareCount == statement.reprepareCount
        {
            return state
        }
        let state = StatementCodingState(lookup: ColumnLookup(statement: statement, keyStrategy: keyStrategy))
        statement.codingState = state
        return state
    }

    /// The memory of ``trail`` and ``nameTrail``, which lives as long as this lookup.
    private let keyTrailAllocation = KeyTrailAllocation()
    private let nameTrailAllocation = KeyTrailAllocation()

    /// The keys asked for, in the order a row asks for them, with their columns (see ``KeyTrail``). Kept
    /// with the statement, so later fetches through the cached statement start with it.
    var trail: KeyTrail { keyTrailAllocation.trail }
    /// The column names ``FetchedRow`` reads by name, in the order a row reads them, with their columns: a
    /// trail of its own, since a name is a column name whatever the key strategy, where a coding key in
    /// ``trail`` may name another column under it.
    var nameTrail: KeyTrail { nameTrailAllocation.trail }

    /// The column named `name` (as SQLite matches names), -1 for none, when ``nameTrail`` does not know it at
    /// `position`; recorded there for the next row.
    @inline(never)
    func column(named name: String, position: Int) -> Int32 {
        let column = indexes.index(of: name) ?? -1
        nameTrail.record(name, column: column, at: position, keyType: 0, keyBytes: (0, 0))
        return column
    }

    /// The column named `name` (as SQLite matches names), or nil.
    func columnIndex(named name: String) -> Int32? { indexes.index(of: name) }

    /// The column `key` names, -1 for none, when the trail does not know it at `position` (a first row, or
    /// a row that asks for other keys): by the key's string, a hash, recorded in the trail for the next row.
    func column<Key: CodingKey>(forKey key: Key, position: Int) -> Int32 {
        let bytes = KeyIdentity.bytes(of: key)
        let keyType = bytes == nil ? 0 : KeyIdentity.typeBits(of: Key.self)
        return column(forKey: key.stringValue, position: position, type: keyType, bytes: bytes ?? (0, 0))
    }

    private func column(forKey key: String, position: Int, type: UInt, bytes: KeyIdentity.Bytes) -> Int32 {
        if let column = trail.column(forKey: key, position: position, keyType: type, keyBytes: bytes) {
            return column
        }
        var column = index(forKey: key) ?? -1
        // Two keys that name one column up to case: -2 sends every row of this key to the error path.
        if indexes.mayConflictInCase(columnName(forKey: key)), keyDiffering(inCaseFrom: key, before: position) != nil {
            column = -2
        }
        trail.record(key, column: column, at: position, keyType: type, keyBytes: bytes)
        return column
    }

    /// A key asked for before `position` in the current row (anywhere in the trail when nil) whose column
    /// name differs from `key`'s only in ASCII case: SQLite would take both for one column.
    func keyDiffering(inCaseFrom key: String, before position: Int? = nil) -> String? {
        let name = columnName(forKey: key)
        for earlier in 0..<min(position ?? Int.max, trail.count) {
            guard let other = trail.key(atPosition: earlier) else { break }
            if ColumnNameIndex.differOnlyInCase(columnName(forKey: other), name) { return other }
        }
        return nil
    }

    /// The column name `key` asks for under the key strategy.
    func columnName(forKey key: String) -> String {
        keyStrategy == .convertFromSnakeCase ? KeyCase.snakeCase(key) : key
    }

    /// The column a key names, or nil.
    func index(forKey key: String) -> Int32? {
        switch keyStrategy {
        case .useDefaultKeys:
            return indexes.index(of: key)
        case .convertFromSnakeCase:
            if let known = convertedIndexes[key] { return known < 0 ? nil : known }
            let index = indexes.index(of: KeyCase.snakeCase(key))
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
