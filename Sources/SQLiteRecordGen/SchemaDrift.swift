import Foundation
import SQLiteRecord

/// `sqlite-record-gen diff DATABASE --reference REFERENCE`: the schema changes that would bring DATABASE's
/// tables in line with REFERENCE's, for a CI step that fails on drift (as `prisma migrate diff
/// --exit-code` does).
///
/// The record types an app compiles cannot be loaded by a command, so the types are given by the database
/// they make: REFERENCE is a file the app's own migrations (or `createTable(in:)`) wrote into an empty
/// database, in a test or a step before this one. Each table of REFERENCE is read as the generator reads
/// it (its columns, the types the generator would choose, its key, WITHOUT ROWID, its one-column foreign
/// keys, UNIQUE constraints and CHECK constraints) and planned against DATABASE by the same schema diff as
/// ``Record/schemaChanges(in:options:)``, so the SQL printed is the SQL a migration registered with
/// ``DatabaseMigrator/registerSchemaChanges(_:for:options:)`` would run. Tables of DATABASE that REFERENCE
/// lacks are not the types' concern and are not reported; views and virtual tables are not compared.
public enum SchemaDrift {
    /// The plans for the tables of the database at `reference`, against the database at `path`, in
    /// REFERENCE's table order; a plan that ``SchemaChangePlan/isEmpty`` is no drift. Both files are opened
    /// read-only.
    /// - Throws: ``GeneratorError`` for a missing file, a file that is not a database or an unknown table;
    ///   ``SchemaChangeError/notATable(_:)`` when DATABASE has a view where REFERENCE has a table;
    ///   ``DatabaseError`` when a schema cannot be read.
    public static func plans(database path: String, reference: String, tables: [String]? = nil) throws
        -> [SchemaChangePlan]
    {
        let referenceDB = try ModelGenerator.open(reference)
        let db = try ModelGenerator.open(path)
        let schemas = try referenceDB.transaction(.deferred) {
            try SchemaReader.read(referenceDB, tables: tables).filter { $0.kind == .table }
        }
        let types = schemas.map { GeneratedType.make($0, typeName: $0.name) }
        return try db.transaction(.deferred) {
            try types.map { type in try plan(type, types: types, referenceDB: referenceDB, db: db) }
        }
    }

    private static func plan(
        _ type: GeneratedType, types: [GeneratedType], referenceDB: Database, db: Database
    ) throws -> SchemaChangePlan {
        let table = type.table
        let columns = type.properties.map { property in
            RecordColumn(
                key: property.column, name: property.column, readName: property.column,
                kind: kind(property.type.swiftType), isOptional: property.type.isOptional,
                valueType: property.type.swiftType)
        }
        var references: [(String, String, String, String?)] = []
        for key in table.foreignKeys where key.columns.count == 1 {
            guard let parent = types.first(where: { $0.table.name.lowercased() == key.parentTable.lowercased() }),
                parent.keyColumns.count == 1
            else { continue }
            let parentColumn = key.parentColumns.first.flatMap { $0 } ?? parent.keyColumns[0]
            guard parentColumn.lowercased() == parent.keyColumns[0].lowercased() else { continue }
            let action = ["CASCADE", "SET NULL", "RESTRICT"].contains(key.onDelete.uppercased()) ? key.onDelete : nil
            references.append((key.columns[0], key.parentTable, parentColumn, action))
        }
        // UNIQUE constraints beyond the key, which the app's types declare in their tableDefinition.
        let uniqueKeys = table.uniqueKeys.filter { $0.map { $0.lowercased() } != type.keyColumns.map { $0.lowercased() } }
        let createSQL = try referenceDB.fetchAll(
            String.self,
            sql: """
                SELECT sql FROM sqlite_schema WHERE tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL
                AND type IN ('table', 'index', 'trigger') ORDER BY type = 'trigger', type = 'index', name
                """, arguments: [table.name])
        // CHECK constraints, which the app's types declare in their tableDefinition: found in the database by
        // their text, as the schema diff finds a type's.
        let tableSQL =
            try referenceDB.scalar(
                String.self, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE",
                arguments: [table.name]) ?? ""
        let checks = SchemaChangePlanner.checks(inCreateTableSQL: tableSQL)
        var keyIsRowID = false
        if case .rowID = type.key { keyIsRowID = true }
        return try SchemaChangePlanner.plan(
            table: table.name, columns: columns, keyColumns: type.keyColumns, keyIsRowID: keyIsRowID,
            withoutRowID: table.withoutRowID, references: references,
            options: SchemaChangeOptions(uniqueKeys: uniqueKeys, checks: checks), createSQL: { createSQL }, in: db)
    }

    /// The probe's kind of a type the generator chooses.
    private static func kind(_ swiftType: String) -> ProbedValueKind {
        switch swiftType {
        case "Bool": return .bool
        case "Int64": return .integer
        case "Double": return .real
        case "String": return .string
        case "Data": return .data
        case "Date": return .date
        case "UUID": return .uuid
        case "Decimal": return .decimal
        default: return .unknown
        }
    }
}
