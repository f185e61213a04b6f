/// What committed transactions changed: tables by lowercased name, the rows of them the update hook
/// reported by rowid, the tables whose changes it may not have reported row by row, and whether the schema
/// changed (which concerns every observer).
///
/// A table in ``tables`` and in ``unattributedTables`` changed in ways the rowids do not tell (see
/// ``ChangeTracker``): a read of some of its rows may now read something else. A table in ``tables`` only
/// changed the rows ``rows`` holds for it (none, when a statement that could write it changed nothing).
struct DatabaseChange: Sendable {
    var tables: Set<String> = []
    /// The rowids the update hook reported, by table; at most ``rowLimit`` per table, beyond which the
    /// table is unattributed.
    var rows: [String: Set<Int64>] = [:]
    /// Tables whose changes may include rows the update hook did not report.
    var unattributedTables: Set<String> = []
    /// The columns (lowercased) statements set, by table: the update hook reports a row whose rowid an
    /// update changed under its new rowid only, so a change of the rowid column concerns every row.
    var updatedColumns: [String: Set<String>] = [:]
    var changesSchema = false

    /// The most rowids kept per table: a bulk write past it counts as a change of the whole table, which
    /// costs the observers of its rows a read each, and bounds what a transaction keeps.
    static let rowLimit = 1024

    var isEmpty: Bool { tables.isEmpty && !changesSchema }

    /// True when a read that used `region` may now read something else.
    func concerns(_ region: ObservedRegion) -> Bool {
        if changesSchema || !tables.isDisjoint(with: region.tables) { return true }
        for (table, rowIDs) in region.rows where tables.contains(table) {
            if unattributedTables.contains(table) { return true }
            if let columns = updatedColumns[table], let key = region.rowIDColumns[table],
                columns.contains(where: { $0 == key || Self.rowIDNames.contains($0) })
            {
                return true
            }
            if let changed = rows[table], !changed.isDisjoint(with: rowIDs) { return true }
        }
        return false
    }

    /// The names SQLite gives the rowid of a table whose columns do not take them.
    static let rowIDNames: Set<String> = ["rowid", "oid", "_rowid_"]

    /// Notes that the row `rowID` of `table` changed.
    mutating func noteRow(_ rowID: Int64, of table: String) {
        tables.insert(table)
        if unattributedTables.contains(table) { return }
        var changed = rows.removeValue(forKey: table) ?? []
        changed.insert(rowID)
        if changed.count > Self.rowLimit {
            unattributedTables.insert(table)
        } else {
            rows[table] = changed
        }
    }

    /// Adds what `other` changed.
    mutating func formUnion(_ other: DatabaseChange) {
        tables.formUnion(other.tables)
        for (table, columns) in other.updatedColumns { updatedColumns[table, default: []].formUnion(columns) }
        unattributedTables.formUnion(other.unattributedTables)
        if other.changesSchema { changesSchema = true }
        for (table, rowIDs) in other.rows where !unattributedTables.contains(table) {
            var changed = rows.removeValue(forKey: table) ?? []
            changed.formUnion(rowIDs)
            if changed.count > Self.rowLimit {
                unattributedTables.insert(table)
            } else {
                rows[table] = changed
            }
        }
        for table in unattributedTables { rows[table] = nil }
    }
}

/// What an observed read used: whole tables (lowercased), and rows of other tables by rowid, read through
/// a request whose SQL the library wrote with the keys in it. A table read both ways counts as whole.
struct ObservedRegion: Sendable, Equatable {
    var tables: Set<String> = []
    var rows: [String: Set<Int64>] = [:]
    /// The column (lowercased) that is the rowid of each table of ``rows``.
    var rowIDColumns: [String: String] = [:]
}
