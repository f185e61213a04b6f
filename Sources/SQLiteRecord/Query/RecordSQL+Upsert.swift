/// The statements of upserts, inserts that ignore conflicts, RETURNING clauses and partial reads. Names are
/// quoted by ``SQLIdentifier``; values are always bound.
extension RecordSQL {
    /// `INSERT OR IGNORE INTO "table" ("a", "b") VALUES (?, ?)` (`DEFAULT VALUES` without columns); the plain
    /// INSERT when `orIgnore` is false. See <https://www.sqlite.org/lang_conflict.html>.
    static func insert(into table: String, columns: [String], orIgnore: Bool) -> String {
        let insert = RecordSQL.insert(into: table, columns: columns)
        guard orIgnore else { return insert }
        return "INSERT OR IGNORE" + insert.dropFirst("INSERT".count)
    }

    /// `INSERT INTO "table" ("k", "a", "b") VALUES (?, ?, ?) ON CONFLICT ("k") DO UPDATE SET "a" =
    /// excluded."a", "b" = excluded."b" WHERE ("a", "b") IS NOT (excluded."a", excluded."b")`.
    ///
    /// The `WHERE` clause skips the update of a row that already holds the values, so that it is neither
    /// written nor counted as changed: the caller tells "unchanged" from "updated" by the changes count.
    /// `DO NOTHING` when `updated` is empty. See <https://www.sqlite.org/lang_upsert.html> and, for `IS NOT`
    /// between row values, <https://www.sqlite.org/rowvalue.html>. PostgreSQL spells the comparison
    /// `IS DISTINCT FROM`, names the existing row's columns by the table, and takes `$n` parameters (see
    /// <https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT>).
    package static func upsert(
        into table: String, columns: [String], conflictColumns: [String], updating updated: [String],
        dialect: SQLDialect = .sqlite
    ) -> String {
        let target = conflictColumns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let head = insert(into: table, columns: columns, dialect: dialect) + " ON CONFLICT (\(target)) "
        guard !updated.isEmpty else { return head + "DO NOTHING" }
        let quoted = updated.map(SQLIdentifier.quoted)
        let assignments = quoted.map { $0 + " = excluded." + $0 }.joined(separator: ", ")
        let incoming = quoted.map { "excluded." + $0 }.joined(separator: ", ")
        switch dialect {
        case .sqlite:
            return head + "DO UPDATE SET " + assignments + " WHERE (" + quoted.joined(separator: ", ") + ") IS NOT ("
                + incoming + ")"
        case .postgres:
            let current = quoted.map { SQLIdentifier.quoted(table) + "." + $0 }.joined(separator: ", ")
            return head + "DO UPDATE SET " + assignments + " WHERE (" + current + ") IS DISTINCT FROM (" + incoming
                + ")"
        }
    }

    package static func returning(_ columns: [String]?) -> String {
        guard let columns else { return " RETURNING *" }
        return " RETURNING " + columns.map(SQLIdentifier.quoted).joined(separator: ", ")
    }

    /// `SELECT "a", "b" FROM "table" WHERE "k" = ? AND "l" = ?` (`SELECT *` for nil columns): a row found by
    /// the columns of a unique constraint.
    package static func select(
        _ columns: [String]?, from table: String, whereEqual keyColumns: [String], dialect: SQLDialect = .sqlite
    ) -> String {
        select(columns, from: table, keyColumns: keyColumns, counts: keyColumns.map { _ in 1 }, dialect: dialect)
    }

    /// `SELECT "a", "b" FROM "table" WHERE <key condition>` (`SELECT *` for nil columns).
    static func select(
        _ columns: [String]?, from table: String, keyColumns: [String], counts: [Int], dialect: SQLDialect = .sqlite
    ) -> String {
        let selection = columns.map { $0.map(SQLIdentifier.quoted).joined(separator: ", ") } ?? "*"
        return "SELECT \(selection) FROM \(SQLIdentifier.quoted(table)) WHERE "
            + keyCondition(columns: keyColumns, counts: counts, dialect: dialect)
    }

    /// `SELECT ? AS "a", ? AS "b"`: one row holding bound values under the given names, which the row decoder
    /// reads as it reads a table's row.
    static func selectValues(named columns: [String]) -> String {
        "SELECT " + columns.map { "? AS " + SQLIdentifier.quoted($0) }.joined(separator: ", ")
    }
}
