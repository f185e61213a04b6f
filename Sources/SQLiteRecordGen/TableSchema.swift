import Foundation
import SQLiteRecord

/// One table, view or virtual table of a database as the generator sees it: its columns, keys, foreign
/// keys, and the census of its stored values.
struct TableSchema: Sendable {
    /// What kind of schema object it is, as `PRAGMA table_list` names it
    /// (<https://www.sqlite.org/pragma.html#pragma_table_list>).
    enum Kind: String, Sendable {
        case table, view, virtual
    }

    let name: String
    let kind: Kind
    /// True for a WITHOUT ROWID table (<https://www.sqlite.org/withoutrowid.html>).
    let withoutRowID: Bool
    let columns: [ColumnInfo]
    /// One census per column, in column order, over every row.
    let censuses: [ColumnCensus]
    /// The number of rows the censuses read: every row of the table or view.
    let rowCount: Int
    let foreignKeys: [ForeignKeyInfo]
    /// The column lists of the table's UNIQUE indexes that are neither partial nor over expressions, in the
    /// order `PRAGMA index_list` names them: keys a record may use when the table declares no primary key.
    let uniqueKeys: [[String]]
    /// The primary key's columns in key order; empty when the table declares none.
    let primaryKey: [String]
    /// The column that is the rowid (`INTEGER PRIMARY KEY` in a rowid table), if one is.
    let rowIDAlias: String?

    /// The census of column `name` (matched as SQLite matches names, ASCII case-insensitively).
    func census(of name: String) -> ColumnCensus? {
        columns.firstIndex { $0.name.lowercased() == name.lowercased() }.map { censuses[$0] }
    }
}

/// Reads the ``TableSchema`` of every table and view of a database's main schema, skipping SQLite's own
/// tables (`sqlite_%`), the shadow tables of virtual tables, and the ledger ``DatabaseMigrator`` keeps
/// (`sqliterecord_migrations`), which no app reads as records.
enum SchemaReader {
    /// Every table, view and virtual table of `db`'s main schema, ordered by name, or those named in
    /// `tables` (matched ASCII case-insensitively, in the order given).
    /// Each table is read whole, once (``CensusQuery``).
    /// - Throws: ``GeneratorError/unknownTables(_:available:)`` for a name in `tables` that is not a table
    ///   or view; ``DatabaseError`` when the schema cannot be read (a file that is not a database).
    static func read(_ db: Database, tables: [String]? = nil) throws -> [TableSchema] {
        let listSQL = """
            SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' \
            AND type IN ('table', 'view', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
            AND name <> 'sqliterecord_migrations' ORDER BY name
            """
        let listed = try db.fetchAll(sql: listSQL).map { row -> (name: String, kind: TableSchema.Kind, wr: Bool) in
            let kind = TableSchema.Kind(rawValue: try row[1, as: String.self]) ?? .table
            return (try row[0, as: String.self], kind, try row[2, as: Int64.self] != 0)
        }
        var chosen = listed
        if let tables {
            let unknown = tables.filter { name in !listed.contains { $0.name.lowercased() == name.lowercased() } }
            guard unknown.isEmpty else {
                throw GeneratorError.unknownTables(unknown, available: listed.map(\.name))
            }
            chosen = tables.compactMap { name in listed.first { $0.name.lowercased() == name.lowercased() } }
        }
        try CensusQuery.register(on: db)
        return try chosen.map { try readTable($0.name, kind: $0.kind, withoutRowID: $0.wr, db) }
    }

    private static func readTable(
        _ name: String, kind: TableSchema.Kind, withoutRowID: Bool, _ db: Database
    ) throws -> TableSchema {
        let columns = try db.columns(in: name)
        let isTable = kind == .table
        let indexes = isTable ? try db.indexes(on: name) : []
        let foreignKeys = isTable ? try db.foreignKeys(in: name) : []
        let primaryKey = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        // Only INTEGER PRIMARY KEY (exactly that type, ascending) in a rowid table is the rowid: SQLite makes
        // an index of origin `pk` for every other key, `INTEGER PRIMARY KEY DESC` included.
        var alias: String?
        if isTable, !withoutRowID, primaryKey.count == 1, primaryKey[0].declaredType.uppercased() == "INTEGER",
            !indexes.contains(where: { $0.origin == .primaryKeyConstraint })
        {
            alias = primaryKey[0].name
        }
        let uniqueKeys = indexes.filter { $0.isUnique && !$0.isPartial && !$0.columns.contains(nil) }
            .map { $0.columns.compactMap { $0 } }

        // Named columns rather than `*`: the census must line up with `columns`, whatever a view's `*` says.
        let census = try CensusQuery.census(of: name, columns: columns.map(\.name), db)
        return TableSchema(
            name: name, kind: kind, withoutRowID: withoutRowID, columns: columns, censuses: census.columns,
            rowCount: census.rows, foreignKeys: foreignKeys, uniqueKeys: uniqueKeys,
            primaryKey: primaryKey.map(\.name), rowIDAlias: alias)
    }
}
