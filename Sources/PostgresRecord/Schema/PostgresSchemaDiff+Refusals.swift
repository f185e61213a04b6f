#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// The dry run's data checks on PostgreSQL: each stored value a change would not convert, or that would
/// break a new NOT NULL, UNIQUE, CHECK or foreign key, becomes one of the plan's refusals, counting the rows
/// and naming up to ten by their key, before anything is written. The checks only read (a conversion is
/// tried in a savepoint that is rolled back), so a dry run in a read-only transaction works.
extension PostgresSchemaDiff {
    /// A condition over the text `value` that is true when PostgreSQL's input function for `type` reads it;
    /// nil for a type whose input is not told by its form (JSONB, BYTEA: tried value by value instead).
    /// See <https://www.postgresql.org/docs/current/datatype.html>.
    static func readsAsInput(_ value: String, type: String) -> String? {
        let number = #"'^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?\s*$'"#
        switch type {
        case "TEXT": return "true"
        case "BIGINT", "INTEGER", "SMALLINT":
            let limit = type == "BIGINT" ? "9223372036854775807" : type == "INTEGER" ? "2147483647" : "32767"
            return "CASE WHEN \(value) ~ '^\\s*[+-]?[0-9]{1,19}\\s*$' THEN abs(btrim(\(value))::numeric) <= \(limit) "
                + "ELSE false END"
        case "DOUBLE PRECISION", "REAL": return "(\(value) ~* \(number) OR \(value) ~* '^\\s*[+-]?(inf|infinity)\\s*$')"
        case "NUMERIC": return "\(value) ~* \(number)"
        case "BOOLEAN":
            return "\(value) ~* '^\\s*(t|tr|tru|true|f|fa|fal|fals|false|y|ye|yes|n|no|on|of|off|1|0)\\s*$'"
        case "UUID":
            return "\(value) ~* '^\\s*\\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\\}?\\s*$'"
        case "TIMESTAMPTZ":
            return "\(value) ~* '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}([ t][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?)?"
                + "\\s*(z|[+-][0-9]{2}(:?[0-9]{2})?)?\\s*$'"
        default: return nil
        }
    }

    /// Adds a refusal counting the rows of `column` whose value `ALTER COLUMN ... TYPE wanted USING using`
    /// would not convert, naming up to ten with their values: found by the form of their text, then
    /// confirmed by converting the whole column in a savepoint that is rolled back; a conversion that fails
    /// where the form said none would is tried value by value to name the rows.
    mutating func refuseUnconvertibleValues(
        _ column: TableColumn, shownAs name: String, property: RecordColumn, to wanted: String, using: String
    ) throws {
        guard rowCount > 0 else { return }
        let quoted = SQLIdentifier.quoted(column.name)
        let value = "\(quoted)::text"
        var condition: String?
        if let reads = Self.readsAsInput(value, type: wanted) { condition = "\(quoted) IS NOT NULL AND NOT (\(reads))" }
        if let found = condition, try integer("SELECT count(*) FROM \(quotedTable) WHERE \(found)") > 0 {
            hasUnconvertibleValues = true
            try refuse(where: found, column: column, shownAs: name, valueType: property.valueType)
            return
        }
        do {
            try connection.transaction { _ = try connection.query("SELECT count(\(using)) FROM \(quotedTable)") }
            return
        } catch {
            // Some value does not convert although its form says it would ('2023-02-30'): find which.
        }
        let distinct = try connection.query(
            "SELECT DISTINCT \(value) FROM \(quotedTable) WHERE \(quoted) IS NOT NULL")
        var failing: [String] = []
        for index in 0..<distinct.count {
            let text = try distinct[index].decode(String.self, at: 0)
            let conversion = Self.conversion(of: "$1::\(column.typeName)", from: column.typeOID, to: wanted)
            do {
                let argument = try PostgresValue(text: text)
                try connection.transaction { _ = try connection.query("SELECT \(conversion)", [argument]) }
            } catch {
                failing.append("'" + text.replacingOccurrences(of: "'", with: "''") + "'")
            }
        }
        guard !failing.isEmpty else { return }
        hasUnconvertibleValues = true
        try refuse(
            where: "\(value) IN (\(failing.joined(separator: ", ")))", column: column, shownAs: name,
            valueType: property.valueType)
    }

    /// Adds a refusal counting the rows of `column` holding a value `property` cannot read although the
    /// column's type can hold its values: an integer other than 0 and 1 for a `Bool`, a fraction or a value
    /// beyond `Int64` for an integer, a text that is not a UUID for a `UUID`.
    mutating func refuseUnreadableValues(_ column: TableColumn, shownAs name: String, property: RecordColumn) throws {
        guard rowCount > 0 else { return }
        let quoted = SQLIdentifier.quoted(column.name)
        let integers: Set<UInt32> = [PostgresType.int2, PostgresType.int4, PostgresType.int8]
        let fractions: Set<UInt32> = [PostgresType.float4, PostgresType.float8, PostgresType.numeric]
        let texts: Set<UInt32> = [PostgresType.text, PostgresType.varchar, PostgresType.bpchar]
        let unreadable: String
        switch property.kind {
        case .bool where integers.contains(column.typeOID): unreadable = "\(quoted) NOT IN (0, 1)"
        case .integer where fractions.contains(column.typeOID):
            unreadable =
                "CASE WHEN \(quoted)::text IN ('NaN', 'Infinity', '-Infinity') THEN true ELSE "
                + "\(quoted)::numeric <> trunc(\(quoted)::numeric) OR abs(\(quoted)::numeric) > 9223372036854775807 END"
        case .uuid where texts.contains(column.typeOID):
            unreadable = "NOT (\(Self.readsAsInput("\(quoted)::text", type: "UUID") ?? "true"))"
        default: return
        }
        let condition = "\(quoted) IS NOT NULL AND (\(unreadable))"
        guard try integer("SELECT count(*) FROM \(quotedTable) WHERE \(condition)") > 0 else { return }
        try refuse(where: condition, column: column, shownAs: name, valueType: property.valueType)
    }

    /// Adds `SchemaChangeError.unreadableValues` for the rows matching
    /// `condition`: their count, and up to ten named with their values (`(3) ('A1')`).
    private mutating func refuse(where condition: String, column: TableColumn, shownAs name: String, valueType: String)
        throws
    {
        let count = try integer("SELECT count(*) FROM \(quotedTable) WHERE \(condition)")
        // A value as SQL writes it, as SQLite's refusals show it: a number bare, anything else quoted.
        let value = "\(SQLIdentifier.quoted(column.name))::text"
        let shown = Self.numericTypes.contains(column.typeOID) ? value : "quote_literal(\(value))"
        let rows = try connection.query(
            "SELECT \(rowNameSQL) || ' (' || \(shown) || ')' "
                + "FROM \(quotedTable) WHERE \(condition) ORDER BY \(rowOrderSQL) LIMIT 10")
        refusals.append(
            .unreadableValues(
                table: table, column: name, valueType: valueType, count: count,
                rows: try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }))
    }

    /// Up to ten rows matching `condition`, named by their key (`(42)`), in key order.
    func rowNames(where condition: String) throws -> [String] {
        let rows = try connection.query(
            "SELECT \(rowNameSQL) FROM \(quotedTable) WHERE \(condition) ORDER BY \(rowOrderSQL) LIMIT 10")
        return try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }
    }

    /// Adds a refusal naming the rows whose `column` (its stored name) is NULL.
    mutating func refuseNulls(in column: String, shownAs name: String) throws {
        let rows = try rowNames(where: "\(SQLIdentifier.quoted(column)) IS NULL")
        if !rows.isEmpty { refusals.append(.nullValues(table: table, column: name, rows: rows)) }
    }

    /// Adds a refusal naming the rows that share a value of `keyColumns` (after renames).
    mutating func refuseDuplicates(_ keyColumns: [String]) throws {
        let present = keyColumns.compactMap { tableColumn($0)?.name }
        guard present.count == keyColumns.count, rowCount > 1 else { return }
        let list = present.map(SQLIdentifier.quoted).joined(separator: ", ")
        let nonNull = present.map { "\(SQLIdentifier.quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
        let rows = try rowNames(
            where: "(\(list)) IN (SELECT \(list) FROM \(quotedTable) WHERE \(nonNull) GROUP BY \(list) "
                + "HAVING count(*) > 1)")
        if !rows.isEmpty { refusals.append(.duplicateValues(table: table, columns: keyColumns, rows: rows)) }
    }

    /// Adds a refusal naming the rows whose `column` (after renames) references no row of `parent`.
    mutating func refuseOrphans(column: String, parent: String, parentKey: String) throws {
        let parentExists = try connection.query(
            "SELECT to_regclass(quote_ident($1)) IS NOT NULL", [try PostgresValue(text: parent)])[0]
            .decode(Bool.self, at: 0)
        guard let stored = tableColumn(column)?.name, parentExists else { return }
        let child = "\(quotedTable).\(SQLIdentifier.quoted(stored))"
        let rows = try rowNames(
            where: "\(child) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(parent)) AS p "
                + "WHERE p.\(SQLIdentifier.quoted(parentKey)) = \(child))")
        if !rows.isEmpty {
            refusals.append(.foreignKeyViolations(table: table, rows: rows.map { "\(table) \($0)" }))
        }
    }

    /// Adds a refusal counting the rows that fail `check` (an expression over the type's column names) and
    /// naming up to ten: PostgreSQL fails a CHECK whose value is false, not one that is NULL, as `NOT (check)`
    /// is. The rows are read through a subquery that gives each column its new name and each added column
    /// its DEFAULT, since the dry run runs before the plan. Not run when a value would not convert anyway
    /// (the plan is refused already, and the expression may not apply to the old type).
    mutating func refuseCheckViolations(_ check: String) throws {
        guard rowCount > 0, !hasUnconvertibleValues else { return }
        let renamedColumns =
            columns.map { "\(SQLIdentifier.quoted($0.name)) AS \(SQLIdentifier.quoted(renamed($0.name)))" }
            + added.map { "\($0.defaultSQL ?? "NULL") AS \(SQLIdentifier.quoted($0.name))" }
        let source =
            "(SELECT \(rowNameSQL) AS sqliterecord_row, row_number() OVER (ORDER BY \(rowOrderSQL)) AS "
            + "sqliterecord_order, " + renamedColumns.joined(separator: ", ")
            + " FROM \(quotedTable)) AS s"
        let count = try integer("SELECT count(*) FROM \(source) WHERE NOT (\(check))")
        guard count > 0 else { return }
        let rows = try connection.query(
            "SELECT sqliterecord_row FROM \(source) WHERE NOT (\(check)) ORDER BY sqliterecord_order LIMIT 10")
        refusals.append(
            .checkViolations(
                table: table, check: check, count: count,
                rows: try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }))
    }
}
#endif
