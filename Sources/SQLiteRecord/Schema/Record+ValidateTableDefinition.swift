import Foundation

/// What a table declares beyond its columns, as an engine's catalog describes it: what ``Record/tableDefinition``
/// is compared with. SQLite fills it from its pragmas and the CREATE TABLE text, PostgreSQL from `pg_catalog`;
/// the comparison (``Record/tableDefinitionMismatches(_:probed:)``) is written once.
package struct TableConstraintCatalog {
    /// The primary key's columns, in order; empty for none.
    package var primaryKey: [String]
    /// Every index of the table, those made for UNIQUE and PRIMARY KEY constraints included.
    package var indexes: [IndexInfo]
    /// Each column's `DEFAULT` text as the engine keeps it, by ASCII-lowercased column name.
    package var defaults: [String: String]
    /// Every CHECK expression, the columns' and the table's, as ``normalizedCheck`` writes it.
    package var checks: Set<String>
    /// The foreign keys; a parent column is nil when the clause names none (the parent's primary key).
    package var foreignKeys: [ForeignKeyInfo]
    /// A declared default's text as the engine would keep it, to compare with ``defaults``.
    package var normalizedDefault: (String) -> String
    /// A CHECK expression as the engine would keep it, to compare with ``checks``.
    package var normalizedCheck: (String) -> String
    /// The primary key of another table, nil when there is no such table.
    package var parentPrimaryKey: (String) throws -> [String]?

    /// `name` as the comparison matches names: A-Z lowered, every other character kept (the key of
    /// ``defaults``).
    package static func folded(_ name: String) -> String { RowLayout.asciiLowercased(name) }

    /// A catalog of the given parts.
    package init(
        primaryKey: [String], indexes: [IndexInfo], defaults: [String: String], checks: Set<String>,
        foreignKeys: [ForeignKeyInfo], normalizedDefault: @escaping (String) -> String,
        normalizedCheck: @escaping (String) -> String, parentPrimaryKey: @escaping (String) throws -> [String]?
    ) {
        self.primaryKey = primaryKey
        self.indexes = indexes
        self.defaults = defaults
        self.checks = checks
        self.foreignKeys = foreignKeys
        self.normalizedDefault = normalizedDefault
        self.normalizedCheck = normalizedCheck
        self.parentPrimaryKey = parentPrimaryKey
    }
}

extension Record {
    /// SQLite's catalog of the table, for ``tableDefinitionMismatches(_:probed:)``: `PRAGMA index_list`,
    /// `table_xinfo` and `foreign_key_list`, and the CHECK constraints of the CREATE TABLE text (SQLite keeps
    /// them only as text; the schema diff reads them by the same rule).
    static func tableConstraintCatalog(_ db: Database, columns: [ColumnInfo]) throws -> TableConstraintCatalog {
        var defaults: [String: String] = [:]
        for column in columns {
            if let text = column.defaultValueSQL {
                defaults[RowLayout.asciiLowercased(column.name)] = text.trimmingCharacters(in: .whitespaces)
            }
        }
        let createSQL =
            try db.scalar(
                String.self, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
                arguments: [tableName]) ?? ""
        return TableConstraintCatalog(
            primaryKey: try db.tableShape(tableName).primaryKey, indexes: try db.indexes(on: tableName),
            defaults: defaults, checks: CreateTableClauses(sql: createSQL).checkExpressions,
            foreignKeys: try db.foreignKeys(in: tableName), normalizedDefault: { $0 },
            normalizedCheck: CreateTableClauses.squeezed,
            parentPrimaryKey: { parent in try db.tableExists(parent) ? try db.tableShape(parent).primaryKey : nil })
    }

    /// The parts of ``tableDefinition`` the table lacks or contradicts, for ``validateSchema(in:)``, on any
    /// engine: the engine reads its catalog, this compares. A part whose column the type does not encode is
    /// reported as missing; views, which have no constraints, are not compared (the engine passes no catalog).
    package static func tableDefinitionMismatches(
        _ catalog: TableConstraintCatalog, probed: [RecordColumn]
    ) throws -> [SchemaMismatch] {
        let definition = tableDefinition
        guard !definition.isEmpty else { return [] }
        let folded = RowLayout.asciiLowercased
        let quotedList = { (names: [String]) in "(" + names.map(SQLIdentifier.quoted).joined(separator: ", ") + ")" }
        var mismatches: [SchemaMismatch] = []
        let indexes = catalog.indexes
        let primaryKey = catalog.primaryKey.map(folded)

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
            let found = catalog.defaults[folded(name)]
            if found.map(catalog.normalizedDefault) != catalog.normalizedDefault(declared) {
                mismatches.append(
                    .tableDefinition(
                        "default of " + SQLIdentifier.quoted(name), declared: "DEFAULT " + declared,
                        table: found.map { "DEFAULT " + $0 }))
            }
        }
        for check in definition.checks where !catalog.checks.contains(catalog.normalizedCheck(check.sql)) {
            mismatches.append(.tableDefinition("check", declared: "CHECK (" + check.sql + ")", table: nil))
        }
        for key in definition.foreignKeys {
            let names = key.columns.map(columnName)
            let declared = key.sql(columns: names)
            let part = "foreign key " + quotedList(names)
            guard let found = catalog.foreignKeys.first(where: { $0.columns.map(folded) == names.map(folded) }) else {
                mismatches.append(.tableDefinition(part, declared: declared, table: nil))
                continue
            }
            var parentColumns = found.parentColumns.compactMap { $0 }
            if key.parentColumns.isEmpty, !parentColumns.isEmpty,
                try catalog.parentPrimaryKey(key.parentTable)?.map(folded) == parentColumns.map(folded)
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
        return mismatches
    }
}
