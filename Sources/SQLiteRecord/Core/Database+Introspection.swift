extension Database {
    /// The indexes of table `table`, ordered by name: those made by `CREATE INDEX` and those SQLite makes
    /// for UNIQUE and non-rowid PRIMARY KEY constraints (see ``IndexInfo/origin``). An `INTEGER PRIMARY KEY`
    /// is the rowid itself and has no index. Read with `PRAGMA index_list` and `PRAGMA index_info`; see
    /// <https://www.sqlite.org/pragma.html#pragma_index_list>.
    /// - Throws: ``DatabaseError`` with `SQLITE_ERROR` and the message `no such table: NAME` when there is no
    ///   such table (or view), or when the schema cannot be read.
    public func indexes(on table: String) throws -> [IndexInfo] {
        // The table-valued forms of the pragmas take names as bound arguments: nothing to quote.
        let listSQL = "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?) ORDER BY name"
        let list = try withStatement(sql: listSQL, arguments: [table]) { statement in
            var list: [(name: String, isUnique: Bool, origin: String, isPartial: Bool)] = []
            while try statement.step() {
                list.append(
                    (
                        statement.string(at: 0), statement.int64(at: 1) != 0, statement.string(at: 2),
                        statement.int64(at: 3) != 0
                    ))
            }
            return list
        }
        if list.isEmpty { try checkTableExists(table, sql: listSQL) }
        let infoSQL = "SELECT name FROM pragma_index_info(?) ORDER BY seqno"
        return try list.map { index in
            let columns = try withStatement(sql: infoSQL, arguments: [index.name]) { statement in
                var columns: [String?] = []
                while try statement.step() {
                    columns.append(statement.isNull(at: 0) ? nil : statement.string(at: 0))
                }
                return columns
            }
            return IndexInfo(
                name: index.name, columns: columns, isUnique: index.isUnique,
                origin: IndexInfo.Origin(rawValue: index.origin),
                isPartial: index.isPartial)
        }
    }

    /// The foreign keys of table `table`, ordered by ``ForeignKeyInfo/id``, a composite key as one element.
    /// Read with `PRAGMA foreign_key_list`; see <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>.
    /// The list says what the schema declares, whether or not foreign keys are enforced on this connection;
    /// `PRAGMA foreign_key_check` (<https://www.sqlite.org/pragma.html#pragma_foreign_key_check>) finds rows
    /// that violate them.
    /// - Throws: ``DatabaseError`` with `SQLITE_ERROR` and the message `no such table: NAME` when there is no
    ///   such table (or view), or when the schema cannot be read.
    public func foreignKeys(in table: String) throws -> [ForeignKeyInfo] {
        let sql = """
            SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq
            """
        let keys = try withStatement(sql: sql, arguments: [table]) { statement in
            var keys: [ForeignKeyInfo] = []
            while try statement.step() {
                let id = Int(statement.int64(at: 0))
                let column = statement.string(at: 2)
                let parentColumn = statement.isNull(at: 3) ? nil : statement.string(at: 3)
                if let last = keys.last, last.id == id {
                    keys[keys.count - 1] = ForeignKeyInfo(
                        id: id, parentTable: last.parentTable, columns: last.columns + [column],
                        parentColumns: last.parentColumns + [parentColumn], onUpdate: last.onUpdate,
                        onDelete: last.onDelete)
                } else {
                    keys.append(
                        ForeignKeyInfo(
                            id: id, parentTable: statement.string(at: 1), columns: [column],
                            parentColumns: [parentColumn], onUpdate: statement.string(at: 4),
                            onDelete: statement.string(at: 5)))
                }
            }
            return keys
        }
        if keys.isEmpty { try checkTableExists(table, sql: sql) }
        return keys
    }

    /// Throws `no such table` unless `table` is a table or view SQLite can describe: the pragmas above
    /// answer no rows for both a missing table and one without indexes or foreign keys.
    private func checkTableExists(_ table: String, sql: String) throws {
        guard try hasColumns(table) else {
            throw DatabaseError(resultCode: .error, message: "no such table: \(table)", sql: sql)
        }
    }
}
