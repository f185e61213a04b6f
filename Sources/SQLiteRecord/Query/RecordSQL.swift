/// SQL text and its arguments, ready to run.
struct SQLQuery: Equatable {
    var sql: String
    var arguments: StatementArguments
}

/// Builds the statements record operations run. Names are quoted by ``SQLIdentifier``; values are always
/// bound as arguments, never written into the SQL.
enum RecordSQL {
    /// `INSERT INTO "table" ("a", "b") VALUES (?, ?)`; `DEFAULT VALUES` when there are no columns.
    static func insert(into table: String, columns: [String]) -> String {
        guard !columns.isEmpty else { return "INSERT INTO \(SQLIdentifier.quoted(table)) DEFAULT VALUES" }
        let names = columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let parameters = repeatElement("?", count: columns.count).joined(separator: ", ")
        return "INSERT INTO \(SQLIdentifier.quoted(table)) (\(names)) VALUES (\(parameters))"
    }

    /// `UPDATE "table" SET "a" = ?, "b" = ? WHERE "id" = ?`: the key's value is the last argument.
    static func update(_ table: String, columns: [String], primaryKey: String) -> String {
        let assignments = columns.map { SQLIdentifier.quoted($0) + " = ?" }.joined(separator: ", ")
        return "UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments) WHERE \(SQLIdentifier.quoted(primaryKey)) = ?"
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
    /// is).
    static func keyCondition(columns: [String], counts: [Int]) -> String {
        zip(columns, counts).map { column, count in
            let name = SQLIdentifier.quoted(column)
            if count == 1 { return name + " = ?" }
            return name + " IN (" + repeatElement("?", count: count).joined(separator: ", ") + ")"
        }.joined(separator: " AND ")
    }

    /// `SELECT * FROM "table" WHERE <key condition>`.
    static func selectOne(from table: String, keyColumns: [String], counts: [Int]) -> String {
        "SELECT * FROM \(SQLIdentifier.quoted(table)) WHERE " + keyCondition(columns: keyColumns, counts: counts)
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
    static func delete(from table: String, keyColumns: [String], counts: [Int]) -> String {
        "DELETE FROM \(SQLIdentifier.quoted(table)) WHERE " + keyCondition(columns: keyColumns, counts: counts)
    }

    /// `UPDATE "table" SET "a" = ?, "b" = ? WHERE <key condition>`: the key's values are the last
    /// arguments.
    static func update(_ table: String, columns: [String], keyColumns: [String], counts: [Int]) -> String {
        let assignments = columns.map { SQLIdentifier.quoted($0) + " = ?" }.joined(separator: ", ")
        return "UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments) WHERE "
            + keyCondition(columns: keyColumns, counts: counts)
    }

    /// `INSERT INTO "table" ("k", "a") VALUES (?, ?) ON CONFLICT ("k") DO UPDATE SET "a" = excluded."a"`:
    /// one statement that inserts the row or updates the one with its key (`DO NOTHING` when every column
    /// is a key column). See <https://www.sqlite.org/lang_upsert.html>.
    static func upsert(into table: String, columns: [String], keyColumns: [String]) -> String {
        let keys = Set(keyColumns)
        let target = keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let updated = columns.filter { !keys.contains($0) }
        let action =
            updated.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET "
                + updated.map { SQLIdentifier.quoted($0) + " = excluded." + SQLIdentifier.quoted($0) }
                .joined(separator: ", ")
        return insert(into: table, columns: columns) + " ON CONFLICT (\(target)) " + action
    }
}
