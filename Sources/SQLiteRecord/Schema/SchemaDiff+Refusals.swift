import Foundation

/// The dry run's data checks: each stored value a change would lose or refuse becomes one of the plan's
/// refusals, naming up to ten rows, before anything is written.
extension SchemaDiff {
    /// Adds a refusal for each column holding non-NULL values its property cannot read, as they are or as
    /// the column's new declared type would store them (`'120'` in a column retyped INTEGER is `120`): after
    /// the plan, a fetch would throw on those rows. One scan of the table, in Swift, by the library's own
    /// conversions (``SQLiteValueReadable``); properties of nested, Decimal and custom-date types are not
    /// checked here (their decoding is the type's own).
    mutating func refuseUnreadableValues(probed: [RecordColumn], tableNames: [String]) throws {
        let folded = Self.folded
        let numericTargets: Set<String> = Set(
            changes.compactMap { change -> String? in
                guard case .changeColumnType(let name, _, let to) = change else { return nil }
                let affinity = ColumnAffinity(declaredType: to)
                return affinity == .integer || affinity == .real || affinity == .numeric ? folded(name) : nil
            })
        var checked: [(column: String, shownAs: String, property: RecordColumn)] = []
        for (index, column) in columns.enumerated() {
            guard let property = probed.first(where: { folded($0.name) == folded(tableNames[index]) }) else { continue }
            switch property.kind {
            case .nested, .unknown, .decimal: continue
            case .date: if case .automatic = decoder.dateDecodingStrategy {} else { continue }
            default: break
            }
            checked.append((column.name, tableNames[index], property))
        }
        guard !checked.isEmpty, rowCount > 0 else { return }
        let shape = try db.tableShape(table)
        let key = shape.hasRowID ? ["rowid"] : shape.primaryKey
        let keySQL = key.map { "quote(\(SQLIdentifier.quoted($0)))" }.joined(separator: " || ', ' || ")
        let sql =
            "SELECT \(keySQL), " + checked.map { SQLIdentifier.quoted($0.column) }.joined(separator: ", ")
            + " FROM \(SQLIdentifier.quoted(table))"
        var found = Array(repeating: (count: 0, rows: [String]()), count: checked.count)
        let cursor = try db.fetchCursor(sql: sql)
        defer { cursor.close() }
        while let row = try cursor.next() {
            for (index, entry) in checked.enumerated() {
                var value = row[index + 1]
                if case .null = value { continue }
                if numericTargets.contains(folded(entry.shownAs)) { value = Self.numericAffinity(value) }
                guard !Self.reads(entry.property.kind, value) else { continue }
                found[index].count += 1
                if found[index].rows.count < 10 {
                    let name = (try? row[0, as: String.self]) ?? "?"
                    found[index].rows.append(
                        (shape.hasRowID ? "rowid \(name)" : "(\(name))") + " (\(Self.literal(value)))")
                }
            }
        }
        for (index, entry) in checked.enumerated() where found[index].count > 0 {
            refusals.append(
                .unreadableValues(
                    table: table, column: entry.shownAs, valueType: entry.property.valueType,
                    count: found[index].count, rows: found[index].rows))
        }
    }

    /// `value` as a column of INTEGER, REAL or NUMERIC affinity stores it: a text that is exactly an
    /// integer's or a REAL's shortest text becomes that number; any other text stays (the rebuild's copy
    /// refuses those that change in another way, like `'00120'`).
    static func numericAffinity(_ value: SQLiteValue) -> SQLiteValue {
        guard case .text(let text) = value else { return value }
        if let integer = Int64(text), String(integer) == text { return .integer(integer) }
        if let real = Double(text), real.isFinite, "\(real)" == text { return .real(real) }
        return value
    }

    /// True when a property of `kind` reads `value`, by the library's conversions.
    static func reads(_ kind: ProbedValueKind, _ value: SQLiteValue) -> Bool {
        switch kind {
        case .bool: return Bool(sqliteValue: value) != nil
        case .integer: return Int64(sqliteValue: value) != nil
        case .real: return Double(sqliteValue: value) != nil
        case .string, .url: return String(sqliteValue: value) != nil
        case .data: return Data(sqliteValue: value) != nil
        case .date: return Date(sqliteValue: value) != nil
        case .uuid: return UUID(sqliteValue: value) != nil
        case .decimal, .nested, .unknown: return true
        }
    }

    /// Adds a refusal naming the rows whose `column` (after renames) references no row of `parent`: the
    /// foreign key to add would fail `PRAGMA foreign_key_check` (the rebuild checks it again before COMMIT).
    mutating func refuseOrphans(column: String, parent: String, parentKey: String) throws {
        guard let stored = columns.first(where: { Self.folded(renamed($0.name)) == Self.folded(column) })?.name,
            try db.hasColumns(parent)
        else { return }
        let child = "\(SQLIdentifier.quoted(table)).\(SQLIdentifier.quoted(stored))"
        let rows = try rowNames(
            where: "\(child) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(parent)) AS p "
                + "WHERE p.\(SQLIdentifier.quoted(parentKey)) = \(child))")
        if !rows.isEmpty {
            refusals.append(.foreignKeyViolations(table: table, rows: rows.map { "\(table) \($0)" }))
        }
    }

    /// Adds a refusal naming the rows whose `column` is NULL.
    mutating func refuseNulls(in column: String, shownAs name: String) throws {
        let rows = try rowNames(where: "\(SQLIdentifier.quoted(column)) IS NULL")
        if !rows.isEmpty { refusals.append(.nullValues(table: table, column: name, rows: rows)) }
    }

    /// Adds a refusal naming the rows that share a value of `keyColumns` (after renames).
    mutating func refuseDuplicates(_ keyColumns: [String], asKey: Bool) throws {
        let present = keyColumns.compactMap { key in
            columns.first { Self.folded(renamed($0.name)) == Self.folded(key) }?.name
        }
        guard present.count == keyColumns.count, rowCount > 1 else { return }
        let list = present.map(SQLIdentifier.quoted).joined(separator: ", ")
        let nonNull = present.map { "\(SQLIdentifier.quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
        let rows = try rowNames(
            where: "(\(list)) IN (SELECT \(list) FROM \(SQLIdentifier.quoted(table)) WHERE \(nonNull) "
                + "GROUP BY \(list) HAVING count(*) > 1)")
        if !rows.isEmpty { refusals.append(.duplicateValues(table: table, columns: keyColumns, rows: rows)) }
    }

    /// Up to ten rows matching `condition`, named by rowid (or by their primary key in a WITHOUT ROWID table).
    func rowNames(where condition: String) throws -> [String] {
        let shape = try db.tableShape(table)
        let key = shape.hasRowID ? ["rowid"] : shape.primaryKey
        let name = key.map { "quote(\(SQLIdentifier.quoted($0)))" }.joined(separator: " || ', ' || ")
        let sql = "SELECT \(name) FROM \(SQLIdentifier.quoted(table)) WHERE \(condition) LIMIT 10"
        return try db.fetchAll(sql: sql).map { row in
            let value = (try? row[0, as: String.self]) ?? "?"
            return shape.hasRowID ? "rowid \(value)" : "(\(value))"
        }
    }

    /// Adds a refusal counting the rows that fail `check` (an expression over the type's column names, so
    /// over the columns as renamed) and naming up to ten: SQLite fails a CHECK whose value is false, not
    /// one that is NULL (<https://www.sqlite.org/lang_createtable.html#ckconst>), as `NOT (check)` is.
    /// The rows are read through a subquery that gives each column its new name, since the dry run runs
    /// before the renames, and each column the plan adds the value its DEFAULT gives existing rows.
    mutating func refuseCheckViolations(_ check: String, addedColumns: [(name: String, defaultSQL: String?)]) throws {
        guard rowCount > 0 else { return }
        let shape = try db.tableShape(table)
        let key = shape.hasRowID ? ["rowid"] : shape.primaryKey
        let rowName = key.map { "quote(\(SQLIdentifier.quoted($0)))" }.joined(separator: " || ', ' || ")
        let renamedColumns =
            columns.map { "\(SQLIdentifier.quoted($0.name)) AS \(SQLIdentifier.quoted(renamed($0.name)))" }
            + addedColumns.map { "\($0.defaultSQL ?? "NULL") AS \(SQLIdentifier.quoted($0.name))" }
        let source =
            "(SELECT \(rowName) AS sqliterecord_row, " + renamedColumns.joined(separator: ", ")
            + " FROM \(SQLIdentifier.quoted(table)))"
        let count = Int(try db.integerScalar(sql: "SELECT count(*) FROM \(source) WHERE NOT (\(check))") ?? 0)
        guard count > 0 else { return }
        let rows = try db.fetchAll(sql: "SELECT sqliterecord_row FROM \(source) WHERE NOT (\(check)) LIMIT 10").map {
            row in
            let value = (try? row[0, as: String.self]) ?? "?"
            return shape.hasRowID ? "rowid \(value)" : "(\(value))"
        }
        refusals.append(.checkViolations(table: table, check: check, count: count, rows: rows))
    }
}
