#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

extension Record {
    /// PostgreSQL's plan: what `schemaChanges(in:options:)` returns on a ``PostgresConnection``, by SQLite's
    /// rules over `ALTER TABLE` in place (the values the dry run reads are listed at
    /// `schemaChanges(in:options:)`).
    static func postgresSchemaChanges(in connection: PostgresConnection, options: SchemaChangeOptions) throws
        -> SchemaChangePlan
    {
        let probed = try probedColumns()
        let keyColumns = try probedKeyColumns()
        for key in keyColumns where !probed.contains(where: { $0.name == key }) {
            throw RecordError.missingPrimaryKey(table: tableName, column: key)
        }
        let declared = try declaredOptions(options, probed: probed)
        guard
            var diff = try PostgresSchemaDiff(
                table: tableName, connection: connection, options: declared, encoder: recordEncoder)
        else {
            return SchemaChangePlan(
                dialect: .postgres, table: tableName, changes: [.createTable(tableName)], refusals: [],
                statements: try createTableSQL(ifNotExists: false, dialect: .postgres).components(separatedBy: "; "))
        }
        try diff.compare(
            probed: probed, keyColumns: keyColumns, keyIsRowID: schemaKeyIsRowID,
            // A foreign key of several columns is kept as the table declares it, not added by a change.
            references: parentAssociations.filter { $0.foreignKeyColumns.count <= 1 }.map {
                ($0.foreignKey, $0.parentTable, $0.parentKey, $0.onDelete?.rawValue)
            })
        return diff.plan()
    }
}

extension SchemaChangePlan {
    /// `apply(_:)` on PostgreSQL: in one transaction, a savepoint inside the caller's, so a statement
    /// PostgreSQL refuses (a value that does not convert, a NULL where NOT NULL is set) rolls back every other.
    func applyOnPostgres(_ connection: PostgresConnection) throws {
        guard dialect == .postgres else {
            throw SchemaChangeError.plannedForAnotherEngine(table: table, engine: "SQLite")
        }
        if let refusal = refusals.first { throw refusal }
        try connection.transaction {
            for statement in statements { try connection.execute(statement) }
        }
    }
}

extension PostgresConnection {
    @_spi(RecordEngine)
    public func schemaChanges<R: Record>(for type: R.Type, options: SchemaChangeOptions) throws -> SchemaChangePlan {
        try R.postgresSchemaChanges(in: self, options: options)
    }

    @_spi(RecordEngine)
    public func applySchemaChanges(_ plan: SchemaChangePlan) throws {
        try plan.applyOnPostgres(self)
    }

    /// Immediate: PostgreSQL's DDL is transactional and a plan changes its table in place, never dropping it.
    @_spi(RecordEngine)
    public static var schemaChangesForeignKeyChecks: MigrationForeignKeyChecks { .immediate }
}
#endif
