import Foundation

/// The comparison of one table with a record type's columns, and the plan it makes
/// (see ``Record/schemaChanges(in:options:)``).
struct SchemaDiff {
    /// One column of the table the plan builds, in order.
    private struct TargetColumn {
        var name: String
        var declaredType: String
        var isNotNull: Bool
        var defaultSQL: String?
        /// True for a column the rebuild copies from the old table (after renames).
        var isCopied: Bool
        /// The storage classes the property reads, for the copy's check; nil for any.
        var readable: Set<String>?
        var isChecked: Bool
        /// For a generated column: the clause that makes it (`AS (upper(name)) STORED`), written into the new
        /// table instead of a copy of its values; "" when the CREATE TABLE text gives none that can be read.
        var generatedClause: String? = nil
    }

    let table: String
    let db: Database
    let options: SchemaChangeOptions
    let encoder: RecordEncoder
    let decoder: RowDecoder
    let columns: [ColumnInfo]
    let rowCount: Int
    var changes: [SchemaChange] = []
    var refusals: [SchemaChangeError] = []
    var renames: [(from: String, to: String)] = []
    private var targets: [TargetColumn] = []
    private var added: [TargetColumn] = []
    private var targetKey: [String] = []
    private var targetRowIDAlias: String?
    private var targetWithoutRowID = false
    private var newForeignKeys: [(column: String, parent: String, parentKey: String, onDelete: String?)] = []
    private var uniqueToAdd: [(name: String, columns: [String])] = []
    private var checksToAdd: [TableDefinition.Check] = []
    /// The table's CREATE TABLE text, as `sqlite_schema` holds it.
    private let tableSQL: String
    /// What that text declares beyond `PRAGMA table_xinfo`: collations and CHECK constraints.
    private let clauses: CreateTableClauses

    init(
        table: String, db: Database, options: SchemaChangeOptions, encoder: RecordEncoder, decoder: RowDecoder
    )
        throws
    {
        self.table = table
        self.db = db
        self.options = options
        self.encoder = encoder
        self.decoder = decoder
        columns = try db.columns(in: table)
        rowCount = Int(try db.integerScalar(sql: "SELECT count(*) FROM \(SQLIdentifier.quoted(table))") ?? 0)
        tableSQL =
            try db.fetchOne(
                sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE",
                arguments: [table]
            )?[0, as: String?.self] ?? ""
        clauses = CreateTableClauses(sql: tableSQL)
    }

    static func folded(_ name: String) -> String { RowLayout.asciiLowercased(name) }

    /// Compares the table with the type's columns and key, filling the changes.
    mutating func compare(
        probed: [RecordColumn], keyColumns: [String], keyIsRowID: Bool, withoutRowID: Bool, shape: TableShape,
        references: [(String, String, String, String?)]
    ) throws {
        let folded = Self.folded
        // Renames first: the rest of the comparison sees the new names.
        var tableNames = columns.map(\.name)
        for (old, new) in options.renamedColumns.sorted(by: { $0.key < $1.key }) {
            guard let index = tableNames.firstIndex(where: { folded($0) == folded(old) }),
                !tableNames.contains(where: { folded($0) == folded(new) })
            else { continue }
            renames.append((tableNames[index], new))
            changes.append(.renameColumn(from: tableNames[index], to: new))
            tableNames[index] = new
        }
        let keySet = Set(keyColumns.map(folded))
        let singleKey = keyColumns.count == 1 ? keyColumns[0] : nil
        targetRowIDAlias = keyIsRowID ? singleKey : nil
        targetKey = keyColumns
        targetWithoutRowID = withoutRowID

        // The table's columns in their order, each compared with the type's.
        for (index, column) in columns.enumerated() {
            let name = tableNames[index]
            guard let property = probed.first(where: { folded($0.name) == folded(name) }) else {
                let values = Int(
                    try db.integerScalar(
                        sql: "SELECT count(\(SQLIdentifier.quoted(column.name))) FROM \(SQLIdentifier.quoted(table))")
                        ?? 0)
                if values == 0 || options.dropsColumns {
                    changes.append(.dropColumn(name))
                } else {
                    changes.append(.keepColumn(name, valueCount: values))
                    targets.append(
                        generated(
                            TargetColumn(
                                name: name, declaredType: column.declaredType, isNotNull: column.isNotNull,
                                defaultSQL: column.defaultValueSQL, isCopied: true, readable: nil, isChecked: false),
                            column))
                }
                continue
            }
            var target = TargetColumn(
                name: name, declaredType: column.declaredType, isNotNull: column.isNotNull,
                defaultSQL: column.defaultValueSQL, isCopied: true, readable: readable(property), isChecked: false)
            let isKey = keySet.contains(folded(name))
            let isAlias = isKey && keyIsRowID
            if !isAlias, let wanted = retype(property, tableColumn: column) {
                changes.append(.changeColumnType(name, from: column.declaredType, to: wanted))
                target.declaredType = wanted
                target.isChecked = true
            }
            // Key columns are left as declared: SQLite's own rules hold for them (a WITHOUT ROWID key is NOT
            // NULL, a rowid table's may hold NULL), and a record refuses a nil key before writing.
            let mustBeNotNull = !property.isOptional
            if !isKey, mustBeNotNull != column.isNotNull {
                changes.append(.changeNullability(name, isNotNull: mustBeNotNull))
                target.isNotNull = mustBeNotNull
                target.isChecked = true
                if mustBeNotNull { try refuseNulls(in: column.name, shownAs: name) }
            }
            targets.append(generated(target, column))
        }
        try refuseUnreadableValues(probed: probed, tableNames: tableNames)
        // The type's columns the table lacks, in the type's order.
        for property in probed where !tableNames.contains(where: { folded($0) == folded(property.name) }) {
            let isKey = keySet.contains(folded(property.name))
            var type = property.declaredType(encoder: encoder)
            if isKey && keyIsRowID { type = "INTEGER" }
            let notNull = (!property.isOptional || isKey) && !(isKey && keyIsRowID)
            let defaultSQL = options.defaults[property.name].map(Self.literal)
            var definition = SQLIdentifier.quoted(property.name) + (type.isEmpty ? "" : " " + type)
            if notNull { definition += " NOT NULL" }
            if let defaultSQL { definition += " DEFAULT " + defaultSQL }
            if isKey { definition += " PRIMARY KEY" }
            changes.append(.addColumn(property.name, definition: definition))
            if notNull && defaultSQL == nil && rowCount > 0 {
                refusals.append(.missingDefault(table: table, column: property.name, rowCount: rowCount))
            }
            added.append(
                TargetColumn(
                    name: property.name, declaredType: type, isNotNull: notNull, defaultSQL: defaultSQL,
                    isCopied: false, readable: nil, isChecked: false))
        }

        // The key.
        let tableKey = shape.primaryKey.map { name -> String in
            renames.first { folded($0.from) == folded(name) }?.to ?? name
        }
        let sameKey = tableKey.map(folded) == keyColumns.map(folded)
        let aliasMatches =
            !keyIsRowID
            || shape.rowIDAlias.map { alias in
                folded(renames.first { folded($0.from) == folded(alias) }?.to ?? alias) == folded(keyColumns[0])
            } ?? false
        let uniqueKey =
            try !keyIsRowID
            && db.indexes(on: table).contains { index in
                index.isUnique && !index.isPartial
                    && Set(index.columns.map { folded($0 ?? "") }) == keySet
            }
        if (sameKey && aliasMatches) || uniqueKey {
            // The table's own key stays (a UNIQUE constraint on the type's key columns serves calls by key).
            targetKey = tableKey
            targetRowIDAlias = shape.rowIDAlias.map(renamed)
        } else {
            changes.append(.changePrimaryKey(from: tableKey, to: keyColumns))
            try refuseDuplicates(keyColumns, asKey: true)
            for key in keyColumns where !keyIsRowID {
                if let column = columns.first(where: { folded(renamed($0.name)) == folded(key) }) {
                    try refuseNulls(in: column.name, shownAs: key)
                }
            }
        }
        if withoutRowID == shape.hasRowID {
            changes.append(.changeWithoutRowID(withoutRowID))
        }

        // Foreign keys of the type's parent associations.
        let keys = try db.foreignKeys(in: table)
        for (column, parent, parentKey, onDelete) in references {
            let present = keys.contains { key in
                key.columns.map { folded(renamed($0)) } == [folded(column)]
                    && folded(key.parentTable) == folded(parent)
            }
            guard !present else { continue }
            let clause =
                "REFERENCES \(SQLIdentifier.quoted(parent)) (\(SQLIdentifier.quoted(parentKey)))"
                + (onDelete.map { " ON DELETE " + $0 } ?? "")
            changes.append(.addForeignKey(column, references: clause))
            newForeignKeys.append((column, parent, parentKey, onDelete))
            try refuseOrphans(column: column, parent: parent, parentKey: parentKey)
        }

        // UNIQUE constraints the caller declares.
        let indexes = try db.indexes(on: table)
        for unique in options.uniqueKeys where !unique.isEmpty {
            let set = Set(unique.map(folded))
            let exists = indexes.contains { index in
                index.isUnique && !index.isPartial && Set(index.columns.map { folded(renamed($0 ?? "")) }) == set
            }
            guard !exists else { continue }
            let name = table + "_" + unique.joined(separator: "_") + "_unique"
            changes.append(.addUniqueIndex(name, columns: unique))
            uniqueToAdd.append((name, unique))
            try refuseDuplicates(unique, asKey: false)
        }

        // CHECK constraints the caller or the type's table definition declares, found by their text.
        for check in options.checks where !clauses.checkExpressions.contains(CreateTableClauses.squeezed(check.sql)) {
            guard
                !checksToAdd.contains(where: {
                    CreateTableClauses.squeezed($0.sql) == CreateTableClauses.squeezed(check.sql)
                })
            else { continue }
            changes.append(.addCheck(check.sql))
            checksToAdd.append(check)
            try refuseCheckViolations(check.sql, addedColumns: added.map { ($0.name, $0.defaultSQL) })
        }
    }

    /// `target` made from the generated column `column` as the CREATE TABLE text declares it, not copied;
    /// `target` as it is for another column.
    private func generated(_ target: TargetColumn, _ column: ColumnInfo) -> TargetColumn {
        guard column.isGenerated else { return target }
        var target = target
        target.isCopied = false
        target.generatedClause = clauses.generatedClauses[Self.folded(column.name)] ?? ""
        return target
    }

    /// A table column's name after the renames.
    func renamed(_ name: String) -> String {
        renames.first { Self.folded($0.from) == Self.folded(name) }?.to ?? name
    }

    /// The declared type to give a column whose affinity cannot give back the property's values, or nil when
    /// it can (see ``Record/schemaChanges(in:options:)``).
    ///
    /// The rule is ``Record/validateSchema(in:)``'s, the one function both call (`incompatibility`), so that
    /// a type that passes validation gets no retype: a `String` over an INTEGER or NUMERIC column (an
    /// `INTEGER_OR_TEXT` or `JSON` column holding both) reads every value back, and its saves of
    /// numeric-looking text, which the affinity would turn into numbers, are refused by the save itself.
    private func retype(_ property: RecordColumn, tableColumn: ColumnInfo) -> String? {
        guard property.incompatibility(with: tableColumn.affinity, encoder: encoder, decoder: decoder) != nil else {
            return nil
        }
        return property.declaredType(encoder: encoder)
    }

    /// The storage classes the property's type reads (the value table of DESIGN.md), nil for any.
    private func readable(_ property: RecordColumn) -> Set<String>? {
        switch property.kind {
        case .bool, .integer: return ["integer", "real"]
        case .real: return ["integer", "real"]
        case .string, .url, .nested: return ["text", "integer", "real"]
        case .data: return ["blob", "text"]
        case .date: return ["text", "integer", "real"]
        case .uuid: return ["text", "blob"]
        case .decimal: return ["text", "integer", "real"]
        case .unknown: return nil
        }
    }

    /// A value as an SQL literal, for a DEFAULT clause.
    static func literal(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return "\(real)"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// The plan: statements for the changes found, a rebuild when one needs it.
    func plan() throws -> SchemaChangePlan {
        let quotedTable = SQLIdentifier.quoted(table)
        var leading = renames.map {
            "ALTER TABLE \(quotedTable) RENAME COLUMN \(SQLIdentifier.quoted($0.from)) TO \(SQLIdentifier.quoted($0.to))"
        }
        var trailing: [String] = []
        let needsRebuild = changes.contains { $0.requiresRebuild }
        var rebuild: SchemaChangePlan.Rebuild?
        if needsRebuild {
            rebuild = try makeRebuild(leading: &leading)
        } else {
            for column in added {
                if case .addColumn(_, let definition)? = changes.first(where: {
                    if case .addColumn(column.name, _) = $0 { return true } else { return false }
                }) {
                    trailing.append("ALTER TABLE \(quotedTable) ADD COLUMN \(definition)")
                }
            }
        }
        for unique in uniqueToAdd {
            trailing.append(
                "CREATE UNIQUE INDEX \(SQLIdentifier.quoted(unique.name)) ON \(quotedTable) ("
                    + unique.columns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
        }
        return SchemaChangePlan(
            table: table, changes: changes, refusals: refusals, leadingStatements: leading, rebuild: rebuild,
            trailingStatements: trailing)
    }

    /// SQLite's rebuild: the new table, the copy, the drop and rename, and what the schema held about the
    /// table, recreated. Views naming the table are dropped first (`leading`) and recreated after.
    private func makeRebuild(leading: inout [String]) throws -> SchemaChangePlan.Rebuild {
        let folded = Self.folded
        let quotedTable = SQLIdentifier.quoted(table)
        // A generated column (told by `PRAGMA table_xinfo`, not by the text: a column may be named "generated")
        // is made again by its clause, its values computed, not copied; one whose clause cannot be read, or
        // whose type or NULL rule the plan would change, cannot be.
        for target in targets where target.generatedClause != nil {
            if target.generatedClause == "" {
                throw SchemaChangeError.cannotRebuild(
                    table: table,
                    reason: "its generated column \"\(target.name)\" cannot be read from its CREATE TABLE")
            }
            if target.isChecked {
                throw SchemaChangeError.cannotRebuild(
                    table: table, reason: "the plan would change generated column \"\(target.name)\"")
            }
        }
        let newTable = "sqliterecord_new_" + table
        let all = targets + added
        // A STRICT table stays STRICT, and so keeps its type enforcement
        // (<https://www.sqlite.org/stricttables.html>): its columns take the types STRICT allows.
        let isStrict =
            try db.scalar(
                Int64.self,
                sql: "SELECT strict FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE",
                arguments: [table]) == 1
        func strictType(_ declared: String) -> String {
            guard isStrict else { return declared }
            let upper = declared.uppercased()
            if ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"].contains(upper) { return declared }
            switch ColumnAffinity(declaredType: declared) {
            case .integer: return "INTEGER"
            case .real: return "REAL"
            case .text: return "TEXT"
            case .blob: return declared.isEmpty ? "ANY" : "BLOB"
            case .numeric: return "ANY"
            }
        }
        // AUTOINCREMENT stays on a rowid alias that stays, and so does the sequence it guards: the largest
        // rowid ever handed out, which deleted rows may have held (<https://www.sqlite.org/autoinc.html>).
        let shape = try db.tableShape(table)
        let keepsAutoincrement =
            clauses.hasAutoincrement && targetRowIDAlias != nil
            && shape.rowIDAlias.map { folded(renamed($0)) } == targetRowIDAlias.map(folded)
        let keySet = targetKey.map(folded)
        let kept = Set(all.map { folded($0.name) })
        var definitions = all.map { column -> String in
            var text = SQLIdentifier.quoted(column.name)
            // A copied column keeps its collation and CHECK constraints, written with the new names.
            let old = renames.first { folded($0.to) == folded(column.name) }?.from ?? column.name
            let carried =
                column.isCopied || column.generatedClause != nil
                ? (clauses.columnClauses[folded(old)] ?? []).map { CreateTableClauses.renaming(renames, in: $0) } : []
            let tail = carried.map { " " + $0 }.joined()
            if let clause = column.generatedClause {
                let declared = strictType(column.declaredType)
                return text + (declared.isEmpty ? "" : " " + declared) + (column.isNotNull ? " NOT NULL" : "") + " "
                    + CreateTableClauses.renaming(renames, in: clause) + tail
            }
            if let alias = targetRowIDAlias, folded(alias) == folded(column.name) {
                return text + " INTEGER PRIMARY KEY" + (keepsAutoincrement ? " AUTOINCREMENT" : "") + tail
            }
            let declared = strictType(column.declaredType)
            if !declared.isEmpty { text += " " + declared }
            if column.isNotNull || keySet.contains(folded(column.name)) { text += " NOT NULL" }
            if let defaultSQL = column.defaultSQL { text += " DEFAULT " + defaultSQL }
            return text + tail
        }
        if targetRowIDAlias == nil, !targetKey.isEmpty {
            definitions.append("PRIMARY KEY (" + targetKey.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
        }
        // A generated column naming a column the plan drops cannot stay.
        let droppedColumns = columns.map { renamed($0.name) }.filter { !kept.contains(folded($0)) }
        for column in all {
            guard let clause = column.generatedClause else { continue }
            let named = Set(CreateTableClauses.identifiers(in: clause).map(folded))
            if let dropped = droppedColumns.first(where: { named.contains(folded($0)) }) {
                throw SchemaChangeError.cannotRebuild(
                    table: table,
                    reason: "its generated column \"\(column.name)\" names column \"\(dropped)\", which the plan drops")
            }
        }
        // The table's CHECK constraints, then the new ones. One naming a column the plan drops cannot stay.
        for check in clauses.tableChecks {
            let renamedCheck = CreateTableClauses.renaming(renames, in: check)
            let dropped = columns.map { renamed($0.name) }.filter { !kept.contains(folded($0)) }
            let named = Set(CreateTableClauses.identifiers(in: renamedCheck).map(folded))
            if let column = dropped.first(where: { named.contains(folded($0)) }) {
                throw SchemaChangeError.cannotRebuild(
                    table: table, reason: "its \(check) names column \"\(column)\", which the plan drops")
            }
            definitions.append(renamedCheck)
        }
        for check in checksToAdd {
            definitions.append(
                (check.name.map { "CONSTRAINT " + SQLIdentifier.quoted($0) + " " } ?? "") + "CHECK (" + check.sql + ")")
        }
        // UNIQUE constraints the table declared (indexes of origin `u`) over columns it keeps.
        for index in try db.indexes(on: table) where index.origin == .uniqueConstraint {
            let names = index.columns.compactMap { $0.map(renamed) }
            guard names.count == index.columns.count, names.allSatisfy({ kept.contains(folded($0)) }) else { continue }
            definitions.append("UNIQUE (" + names.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
        }
        // Foreign keys the table declared over columns it keeps, then the type's new ones.
        for key in try db.foreignKeys(in: table) {
            let names = key.columns.map(renamed)
            guard names.allSatisfy({ kept.contains(folded($0)) }) else { continue }
            let parentColumns = key.parentColumns.compactMap { $0 }
            let parentList =
                parentColumns.count == key.parentColumns.count
                ? " (" + parentColumns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")" : ""
            definitions.append(
                "FOREIGN KEY (" + names.map(SQLIdentifier.quoted).joined(separator: ", ") + ") REFERENCES "
                    + SQLIdentifier.quoted(key.parentTable) + parentList
                    + (key.onUpdate == "NO ACTION" ? "" : " ON UPDATE " + key.onUpdate)
                    + (key.onDelete == "NO ACTION" ? "" : " ON DELETE " + key.onDelete))
        }
        for key in newForeignKeys {
            definitions.append(
                "FOREIGN KEY (\(SQLIdentifier.quoted(key.column))) REFERENCES \(SQLIdentifier.quoted(key.parent)) ("
                    + SQLIdentifier.quoted(key.parentKey) + ")" + (key.onDelete.map { " ON DELETE " + $0 } ?? ""))
        }
        let tableOptions = [targetWithoutRowID ? "WITHOUT ROWID" : nil, isStrict ? "STRICT" : nil].compactMap { $0 }
        let createSQL =
            "CREATE TABLE \(SQLIdentifier.quoted(newTable)) (" + definitions.joined(separator: ", ") + ")"
            + (tableOptions.isEmpty ? "" : " " + tableOptions.joined(separator: ", "))
        let copied = targets.filter(\.isCopied).map(\.name)
        let oldHasRowID = shape.hasRowID
        // A rowid table keeps its rowids, which other tables or the app may hold.
        let keepsRowID = oldHasRowID && !targetWithoutRowID && targetRowIDAlias == nil
        let copyColumns = (keepsRowID ? ["rowid"] : []) + copied.map(SQLIdentifier.quoted)
        let copySQL =
            "INSERT INTO \(SQLIdentifier.quoted(newTable)) (" + copyColumns.joined(separator: ", ") + ") SELECT "
            + copyColumns.joined(separator: ", ") + " FROM \(quotedTable)"

        let objects = try Self.schemaObjects(of: table, keeping: kept, renames: renames, db: db)
        leading += objects.dropped
        let checked = all.filter(\.isChecked).map {
            SchemaChangePlan.CheckedColumn(name: $0.name, readable: $0.readable)
        }
        let rowKey = keepsRowID || (targetRowIDAlias != nil && oldHasRowID) ? ["rowid"] : targetKey
        return SchemaChangePlan.Rebuild(
            newTable: newTable, createSQL: createSQL, copySQL: copySQL, checkedColumns: checked, rowKey: rowKey,
            keptColumns: kept,
            dropAndRename: (keepsAutoincrement
                ? [
                    "DELETE FROM sqlite_sequence WHERE name = \(Self.literal(.text(newTable)))",
                    "INSERT INTO sqlite_sequence (name, seq) SELECT \(Self.literal(.text(newTable))), seq "
                        + "FROM sqlite_sequence WHERE name = \(Self.literal(.text(table)))",
                ] : []) + [
                "DROP TABLE \(quotedTable)",
                "ALTER TABLE \(SQLIdentifier.quoted(newTable)) RENAME TO \(quotedTable)",
            ], recreate: objects.statements)
    }

    /// What the schema holds about `table`, to recreate after a rebuild: its indexes (but those over a
    /// column not in `kept`) and triggers, and every view, and every trigger of another table, whose SQL
    /// names it: those the rebuild drops first (`dropped`, the DROP statements), since SQLite checks them
    /// when a table is renamed (a trigger elsewhere naming the table fails the RENAME: "error in trigger").
    /// `renames` are put into the SQL as `ALTER TABLE RENAME COLUMN` would, for a dry run read before the
    /// renames ran.
    static func schemaObjects(
        of table: String, keeping kept: Set<String>, renames: [(from: String, to: String)], db: Database
    ) throws -> (dropped: [String], statements: [String]) {
        let schemaSQL = """
            SELECT type, name, sql, tbl_name = ? COLLATE NOCASE FROM sqlite_schema WHERE sql IS NOT NULL AND (
                (type IN ('index', 'trigger') AND tbl_name = ? COLLATE NOCASE)
                OR (type IN ('view', 'trigger') AND instr(lower(sql), lower(?)) > 0))
            ORDER BY type = 'view', type = 'trigger', name
            """
        var dropped: [String] = []
        var statements: [String] = []
        for row in try db.fetchAll(sql: schemaSQL, arguments: [table, table, table]) {
            let type = try row[0, as: String.self]
            let name = try row[1, as: String.self]
            var sql = try row[2, as: String.self]
            let onTable = try row[3, as: Int64.self] != 0
            if type == "view" { dropped.append("DROP VIEW \(SQLIdentifier.quoted(name))") }
            // A trigger of the table goes with DROP TABLE; one of another table must be dropped by name.
            if type == "trigger" && !onTable { dropped.append("DROP TRIGGER \(SQLIdentifier.quoted(name))") }
            if type == "index" {
                let indexed = try db.fetchAll(sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
                    .compactMap { try $0[0, as: String?.self] }
                let renamed = indexed.map { column in
                    renames.first { folded($0.from) == folded(column) }?.to ?? column
                }
                if !renamed.allSatisfy({ kept.contains(folded($0)) }) { continue }
            }
            for rename in renames {
                sql = sql.replacingOccurrences(
                    of: SQLIdentifier.quoted(rename.from), with: SQLIdentifier.quoted(rename.to))
            }
            statements.append(sql)
        }
        return (dropped, statements)
    }
}
