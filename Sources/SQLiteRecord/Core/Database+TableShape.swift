/// What SQLite says a table is, for the writes the library makes to it: a table or a view, whether it has a
/// rowid, its primary key, and the column that is an alias of the rowid, if one is.
///
/// Only an `INTEGER PRIMARY KEY` column of a rowid table is the rowid itself: `INT PRIMARY KEY`, `INTEGER
/// PRIMARY KEY DESC`, a composite key and any key of a WITHOUT ROWID table are ordinary columns backed by
/// a unique index, which SQLite does not fill in, and `sqlite3_last_insert_rowid` says nothing about them.
/// SQLite makes an index of origin `pk` for exactly those keys, so the alias is the one-column key of a
/// rowid table that has no such index. See <https://www.sqlite.org/lang_createtable.html#rowid> and
/// <https://www.sqlite.org/withoutrowid.html>.
struct TableShape: Sendable, Hashable {
    /// `table`, `view`, `virtual` or `shadow`, as `PRAGMA table_list` names it.
    let kind: String
    /// False for WITHOUT ROWID tables and views.
    let hasRowID: Bool
    /// The primary key's columns in key order; empty when the table declares none.
    let primaryKey: [String]
    /// The column that is another name for the rowid (`id INTEGER PRIMARY KEY`); nil when none is.
    let rowIDAlias: String?

    /// True for a view: writes to it go through INSTEAD OF triggers, after which SQLite reports neither the
    /// rowid nor the number of rows changed.
    var isView: Bool { kind == "view" }
}

extension Database {
    /// The shape of table `table` (see ``TableShape``), read once per schema and cached with its columns.
    /// - Throws: ``DatabaseError`` `no such table` when there is no table or view of that name.
    func tableShape(_ table: String) throws -> TableShape {
        try derivedSchemaValue(for: TableShapeBox.self, table: table) { columns in
            TableShapeBox(try readTableShape(table, columns: columns))
        }.shape
    }

    private func readTableShape(_ table: String, columns: [ColumnInfo]) throws -> TableShape {
        // A TEMP table hides a main one of the same name, as it does in the statements the library runs.
        let listSQL = """
            SELECT type, wr FROM pragma_table_list WHERE name = ? COLLATE NOCASE \
            ORDER BY schema = 'temp' DESC, schema = 'main' DESC LIMIT 1
            """
        let (kind, withoutRowID) = try withStatement(sql: listSQL, arguments: [table]) { statement in
            guard try statement.step() else { return ("table", false) }
            return (statement.string(at: 0), statement.int64(at: 1) != 0)
        }
        let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let hasRowID = kind != "view" && !withoutRowID
        var alias: String?
        if hasRowID, keyColumns.count == 1, let key = keyColumns.first, key.declaredType.uppercased() == "INTEGER" {
            let indexSQL = "SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'"
            if try integerScalar(sql: indexSQL, arguments: [table]) == 0 { alias = key.name }
        }
        return TableShape(kind: kind, hasRowID: hasRowID, primaryKey: keyColumns.map(\.name), rowIDAlias: alias)
    }
}

/// ``TableShape`` as the schema cache keeps derived values: an object.
private final class TableShapeBox {
    let shape: TableShape
    init(_ shape: TableShape) { self.shape = shape }
}
