/// SQL text and its arguments, ready to run.
struct SQLQuery: Equatable {
    var sql: String
    var arguments: StatementArguments
}

/// Builds the statements record operations run, for SQLite and (through `PostgresRecord`) PostgreSQL:
/// what differs between the two comes from the ``SQLDialect`` each builder takes, SQLite's by default.
/// Names are quoted by ``SQLIdentifier``; values are always bound as arguments, never written into the SQL.
package enum RecordSQL {
    /// `INSERT INTO "table" ("a", "b") VALUES (?, ?)` (`($1, $2)` on PostgreSQL); `DEFAULT VALUES` when
    /// there are no columns.
    package static func insert(into table: String, columns: [String], dialect: SQLDialect = .sqlite) -> String {
        guard !columns.isEmpty else { return "INSERT INTO \(SQLIdentifier.quoted(table)) DEFAULT VALUES" }
        let names = columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let parameters = dialect.parameters(from: 1, count: columns.count)
        return "INSERT INTO \(SQLIdentifier.quoted(table)) (\(names)) VALUES (\(parameters))"
    }

    /// `"a" = ?, "b" = ?` (`"a" = $1, "b" = $2`): the SET list of an UPDATE, its parameters from 1.
    private static func assignments(_ columns: [String], dialect: SQLDialect) -> String {
        columns.enumerated().map { index, column in SQLIdentifier.quoted(column) + " = " + dialect.parameter(index + 1) }
            .joined(separator: ", ")
    }

    /// `UPDATE "table" SET "a" = ?, "b" = ? WHERE "id" = ?`: the key's value is the last argument.
    static func update(_ table: String, columns: [String], primaryKey: String) -> String {
        "UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments(columns, dialect: .sqlite)) WHERE \(SQLIdentifier.quoted(primaryKey)) = ?"
    }

    /// `DELETE FROM "table" WHERE "id" = ?`.
    static func delete(from table: String, primaryKey: String) -> String {
        "DELETE FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(primaryKey)) = ?"
    }

    /// `SELECT * FROM "table" WHERE "id" = ?`.
    static func selectOne(from table: String, primaryKey: String) -> String {
        "SELECT * FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(primaryKey)) = ?"
    }

    /// `"a" = ? AND "b" IN (?, ?, ?)`: the condition that finds a row by its key, `columns` in key order,
    /// each binding `counts` values (more than one where a key value is stored in several forms, as a UUID
    /// is). On PostgreSQL the parameters are numbered from `firstParameter`.
    package static func keyCondition(
        columns: [String], counts: [Int], dialect: SQLDialect = .sqlite, firstParameter: Int = 1
    ) -> String {
        var next = firstParameter
        return zip(columns, counts).map { column, count in
            let name = SQLIdentifier.quoted(column)
            defer { next += count }
            if count == 1 { return name + " = " + dialect.parameter(next) }
            return name + " IN (" + dialect.parameters(from: next, count: count) + ")"
        }.joined(separator: " AND ")
    }

    /// `SELECT * FROM "table" WHERE <key condition>`.
    package static func selectOne(
        from table: String, keyColumns: [String], counts: [Int], dialect: SQLDialect = .sqlite
    ) -> String {
        "SELECT * FROM \(SQLIdentifier.quoted(table)) WHERE "
            + keyCondition(columns: keyColumns, counts: counts, dialect: dialect)
    }

    /// `SELECT * FROM "table" WHERE "k" IN (?, ?, ...)` for `keys` keys of one column each binding `counts[0]`
    /// values, or `WHERE ("a", "b") IN (VALUES (?, ?), ...)` for keys of several columns (SQLite's row
    /// values, <https://www.sqlite.org/rowvalue.html>).
    static func select(from table: String, keyColumns: [String], counts: [Int], keys: Int) -> String {
        let base = "SELECT * FROM \(SQLIdentifier.quoted(table)) WHERE "
        if keyColumns.count == 1, let column = keyColumns.first {
            let values = keys * (counts.first ?? 1)
            return base + SQLIdentifier.quoted(column) + " IN ("
                + repeatElement("?", count: values).joined(separator: ", ") + ")"
        }
        let row = "(" + repeatElement("?", count: keyColumns.count).joined(separator: ", ") + ")"
        return base + "(" + keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ") + ") IN (VALUES "
            + repeatElement(row, count: keys).joined(separator: ", ") + ")"
    }

    /// `SELECT count(*) FROM "table" WHERE <key condition>`.
    static func countOne(from table: String, keyColumns: [String], counts: [Int]) -> String {
        "SELECT count(*) FROM \(SQLIdentifier.quoted(table)) WHERE " + keyCondition(columns: keyColumns, counts: counts)
    }

    /// `DELETE FROM "table" WHERE <key condition>`.
    package static func delete(
        from table: String, keyColumns: [String], counts: [Int], dialect: SQLDialect = .sqlite
    ) -> String {
        "DELETE FROM \(SQLIdentifier.quoted(table)) WHERE "
            + keyCondition(columns: keyColumns, counts: counts, dialect: dialect)
    }

    /// `UPDATE "table" SET "a" = ?, "b" = ? WHERE <key condition>`: the key's values are the last
    /// arguments (`$3`... after `$1`, `$2` on PostgreSQL).
    package static func update(
        _ table: String, columns: [String], keyColumns: [String], counts: [Int], dialect: SQLDialect = .sqlite
    ) -> String {
        "UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments(columns, dialect: dialect)) WHERE "
            + keyCondition(columns: keyColumns, counts: counts, dialect: dialect, firstParameter: columns.count + 1)
    }

    /// `"a" = ? AND "b" IS NULL`: the condition of a `where:` dictionary, columns in the order given, one
    /// parameter for each column whose value is not NULL (numbered from `firstParameter` on PostgreSQL).
    package static func equalities(
        _ columns: [(name: String, isNull: Bool)], dialect: SQLDialect = .sqlite, firstParameter: Int = 1
    ) -> String {
        var next = firstParameter
        return columns.map { column in
            let name = SQLIdentifier.quoted(column.name)
            if column.isNull { return name + " IS NULL" }
            defer { next += 1 }
            return name + " = " + dialect.parameter(next)
        }.joined(separator: " AND ")
    }

    /// `SELECT count(*) FROM "table"`, with `WHERE condition` when there is one.
    /// `DELETE FROM "table" WHERE <condition>`, or of every row for an empty or nil condition.
    package static func delete(from table: String, condition: String?) -> String {
        let sql = "DELETE FROM " + SQLIdentifier.quoted(table)
        guard let condition, !condition.isEmpty else { return sql }
        return sql + " WHERE " + condition
    }

    package static func count(from table: String, condition: String?) -> String {
        let sql = "SELECT count(*) FROM " + SQLIdentifier.quoted(table)
        guard let condition, !condition.isEmpty else { return sql }
        return sql + " WHERE " + condition
    }

    /// `INSERT INTO "table" ("k", "a") VALUES (?, ?) ON CONFLICT ("k") DO UPDATE SET "a" = excluded."a"`:
    /// one statement that inserts the row or updates the one with its key (`DO NOTHING` when every column
    /// is a key column). PostgreSQL spells it the same way, with `$n` parameters. See
    /// <https://www.sqlite.org/lang_upsert.html> and
    /// <https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT>.
    package static func upsert(
        into table: String, columns: [String], keyColumns: [String], dialect: SQLDialect = .sqlite
    ) -> String {
        let keys = Set(keyColumns)
        let target = keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let updated = columns.filter { !keys.contains($0) }
        let action =
            updated.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET "
                + updated.map { SQLIdentifier.quoted($0) + " = excluded." + SQLIdentifier.quoted($0) }
                .joined(separator: ", ")
        return insert(into: table, columns: columns, dialect: dialect) + " ON CONFLICT (\(target)) " + action
    }

    /// `SELECT * FROM "table"`: every row of a table, as a row initializer's check reads them.
    package static func selectAll(from table: String) -> String {
        "SELECT * FROM " + SQLIdentifier.quoted(table)
    }

    /// `SELECT 1 FROM "table" WHERE "a" = ? AND "b" = ? LIMIT 1`: whether a row holds the values, as a
    /// failed foreign key's parent row is looked for.
    static func selectOneIfAny(from table: String, whereEqual columns: [String]) -> String {
        let condition = columns.map { SQLIdentifier.quoted($0) + " = ?" }.joined(separator: " AND ")
        return "SELECT 1 FROM " + SQLIdentifier.quoted(table) + " WHERE " + condition + " LIMIT 1"
    }

    /// `SELECT ? AS "a", ? AS "b"`: a row of bound values under the given column names, which the row
    /// decoder reads as it reads a table's.
    static func selectParameters(named columns: [String]) -> String {
        "SELECT " + columns.map { "? AS " + SQLIdentifier.quoted($0) }.joined(separator: ", ")
    }

    /// ` FROM "child" WHERE <condition>`: the start of the body of a correlated subquery on a parent row's
    /// children, which the caller ends (with `AND (filter)` and the closing parenthesis).
    static func correlatedFrom(_ table: String, where condition: String) -> String {
        " FROM " + SQLIdentifier.quoted(table) + " WHERE " + condition
    }
}
