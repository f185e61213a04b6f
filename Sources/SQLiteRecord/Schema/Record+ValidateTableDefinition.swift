import Foundation

extension Record {
    /// The parts of ``tableDefinition`` the table lacks or contradicts, for ``validateSchema(in:)``. A part
    /// whose column the type does not encode is reported as missing; views, which have no constraints, are
    /// not compared.
    static func tableDefinitionMismatches(
        _ db: Database, probed: [RecordColumn], columns: [ColumnInfo]
    ) throws -> [SchemaMismatch] {
        let definition = tableDefinition
        guard !definition.isEmpty, try db.tableExists(tableName) else { return [] }
        let folded = RowLayout.asciiLowercased
        let quotedList = { (names: [String]) in "(" + names.map(SQLIdentifier.quoted).joined(separator: ", ") + ")" }
        var mismatches: [SchemaMismatch] = []
        let indexes = try db.indexes(on: tableName)
        let primaryKey = try db.tableShape(tableName).primaryKey.map(folded)

        for unique in definition.uniqueKeys {
            let names = unique.columns.map(columnName)
            let wanted = Set(names.map(folded))
            let found =
                Set(primaryKey) == wanted
                || indexes.contains {
                    $0.isUnique && !$0.isPartial && Set($0.columns.map { folded($0 ?? "") }) == wanted
                }
            if !found {
                mismatches.append(
                    .tableDefinition("unique " + quotedList(names), declared: "UNIQUE " + quotedList(names), table: nil)
                )
            }
        }
        for index in definition.indexes {
            let names = index.columns.map(columnName)
            let wanted = names.map(folded)
            let sameColumns = indexes.filter { $0.columns.map { folded($0 ?? "") } == wanted }
            if !sameColumns.contains(where: { $0.isUnique || !index.isUnique }) {
                let declared = indexSQL(names, name: index.name, isUnique: index.isUnique, ifNotExists: false)
                let table = sameColumns.first.map { "the index \(SQLIdentifier.quoted($0.name)), not UNIQUE" }
                mismatches.append(.tableDefinition("index " + quotedList(names), declared: declared, table: table))
            }
        }
        for columnDefault in definition.defaults {
            let name = columnName(columnDefault.column)
            let declared = try columnDefault.value.sql(table: tableName, column: name)
            let column = columns.first { folded($0.name) == folded(name) }
            let found = column?.defaultValueSQL?.trimmingCharacters(in: .whitespaces)
            if found != declared {
                mismatches.append(
                    .tableDefinition(
                        "default of " + SQLIdentifier.quoted(name), declared: "DEFAULT " + declared,
                        table: found.map { "DEFAULT " + $0 }))
            }
        }
        if !definition.checks.isEmpty {
            let createSQL =
                try db.scalar(
                    String.self, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
                    arguments: [tableName]) ?? ""
            // SQLite keeps CHECK constraints only as the text of the CREATE TABLE; the schema diff reads them
            // from it by the same rule.
            let found = CreateTableClauses(sql: createSQL).checkExpressions
            for check in definition.checks where !found.contains(CreateTableClauses.squeezed(check.sql)) {
                mismatches.append(.tableDefinition("check", declared: "CHECK (" + check.sql + ")", table: nil))
            }
        }
        if !definition.foreignKeys.isEmpty {
            let keys = try db.foreignKeys(in: tableName)
            for key in definition.foreignKeys {
                let names = key.columns.map(columnName)
                let declared = key.sql(columns: names)
                let part = "foreign key " + quotedList(names)
                guard let found = keys.first(where: { $0.columns.map(folded) == names.map(folded) }) else {
                    mismatches.append(.tableDefinition(part, declared: declared, table: nil))
                    continue
                }
                var parentColumns = found.parentColumns.compactMap { $0 }
                if key.parentColumns.isEmpty, !parentColumns.isEmpty, try db.tableExists(key.parentTable),
                    try db.tableShape(key.parentTable).primaryKey.map(folded) == parentColumns.map(folded)
                {
                    // REFERENCES "parent" ("id") and REFERENCES "parent" name the same key.
                    parentColumns = []
                }
                let same =
                    folded(found.parentTable) == folded(key.parentTable)
                    && parentColumns.map(folded) == key.parentColumns.map(folded)
                    && found.onDelete == (key.onDelete ?? .noAction).rawValue
                    && found.onUpdate == (key.onUpdate ?? .noAction).rawValue
                if !same {
                    let table =
                        "FOREIGN KEY " + quotedList(found.columns) + " REFERENCES "
                        + SQLIdentifier.quoted(found.parentTable)
                        + (parentColumns.isEmpty ? "" : " " + quotedList(parentColumns)) + " ON DELETE "
                        + found.onDelete
                        + " ON UPDATE " + found.onUpdate
                    mismatches.append(.tableDefinition(part, declared: declared, table: table))
                }
            }
        }
        return mismatches
    }
}
