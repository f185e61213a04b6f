#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

extension Record {
    /// Compares the type with its PostgreSQL table and returns the changes that would make the table hold
    /// the type, with the SQL that makes them: SQLite's `schemaChanges(in:options:)`, by the same rules and
    /// with the same `SchemaChangePlan`, `SchemaChange` and `SchemaChangeError` values, over
    /// PostgreSQL's `ALTER TABLE`. Print it (a dry run), then apply it (`SchemaChangePlan.apply(_:)` with the
    /// connection, or a migration of `DatabaseMigrator<PostgresConnection>`, `registerSchemaChanges(_:for:options:)`).
    ///
    /// ```swift
    /// let options = SchemaChangeOptions(renamedColumns: ["name": "title"])
    /// let plan = try City.schemaChanges(in: connection, options: options)
    /// print(plan)  // - rename column "name" to "title" ... ALTER TABLE "cities" RENAME COLUMN "name" TO "title";
    /// try plan.apply(connection)
    /// ```
    ///
    /// Compared as on SQLite: columns to add (`ADD COLUMN`), renamed (`SchemaChangeOptions.renamedColumns`:
    /// `RENAME COLUMN`, which keeps the column's NOT NULL, DEFAULT, CHECK, UNIQUE, indexes and foreign keys),
    /// dropped or kept (`DROP COLUMN`); a column whose type `validateSchema(in:)` refuses for the property
    /// (`ALTER COLUMN ... TYPE ... USING "column"::text::TYPE`, the type `createTable(in:)` declares), so
    /// that a type that validates gets no retype; NOT NULL against Optional (`SET`/`DROP NOT NULL`); the
    /// primary key (`DROP CONSTRAINT`, `ADD PRIMARY KEY`); the foreign keys of `parentAssociations`
    /// (`ADD FOREIGN KEY`); UNIQUE constraints (`CREATE UNIQUE INDEX`) and CHECK constraints (`ADD CHECK`, found
    /// by their text as PostgreSQL deparses it), the caller's and the type's `tableDefinition`'s.
    ///
    /// Stored values are checked before anything is written, by reading only: values a retyped column would
    /// not convert (`'A1'` for a BIGINT) or its property cannot read (`2` for a `Bool` over an integer
    /// column), NULL in a column that must become NOT NULL, rows sharing a value that must become unique,
    /// rows that fail a CHECK to add, rows whose new foreign key references no row, a NOT NULL column
    /// without a default for a table with rows. Each is one of the plan's `SchemaChangePlan.refusals`,
    /// counting or naming up to ten rows by their primary key (`(42)`, `('EUR')`; `ctid (0,1)` without one).
    /// PostgreSQL's DDL is transactional, so a plan runs in one transaction and no table is rebuilt
    /// (`SchemaChangePlan.requiresRebuild` is false). See
    /// <https://www.postgresql.org/docs/current/sql-altertable.html>.
    /// - Throws: `SchemaChangeError.notATable` for a view; `SchemaProbeError` when the type cannot be
    ///   probed; `RecordError.missingPrimaryKey` when no coding key names
    ///   `primaryKeyColumn`; ``PostgresError`` when the catalog cannot be read.
    public static func schemaChanges(
        in connection: PostgresConnection, options: SchemaChangeOptions = SchemaChangeOptions()
    ) throws -> SchemaChangePlan {
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
    /// Applies a plan made on PostgreSQL (`schemaChanges(in:options:)` through a ``PostgresConnection``) in
    /// one transaction, a savepoint inside the caller's: everything or nothing. A statement PostgreSQL
    /// refuses (a value that does not convert, a NULL where NOT NULL is set) rolls back every other.
    /// - Throws: `SchemaChangeError.plannedForAnotherEngine` for a plan made on SQLite; the
    ///   first of `refusals` before anything is written; ``PostgresError`` from the server, with nothing
    ///   written.
    public func apply(_ connection: PostgresConnection) throws {
        guard dialect == .postgres else {
            throw SchemaChangeError.plannedForAnotherEngine(table: table, engine: "SQLite")
        }
        if let refusal = refusals.first { throw refusal }
        try connection.transaction {
            for statement in statements { try connection.execute(statement) }
        }
    }
}

extension DatabaseMigrator where Connection == PostgresConnection {
    /// Registers a migration that applies `type`'s `schemaChanges(in:options:)` plan when it runs, in the
    /// migration's transaction: a plan with refusals throws, and nothing of that migration is applied.
    /// The plan is made from the type as it is when the migration runs; print it first (a dry run).
    ///
    /// ```swift
    /// migrator.registerSchemaChanges("3 cities: founded_at", for: City.self)
    /// ```
    /// - Parameters:
    ///   - name: the migration's name, unique within the migrator.
    ///   - type: the record type whose table to change.
    ///   - options: renamed columns, whether to drop columns holding values, defaults, UNIQUE and CHECK
    ///     constraints.
    public mutating func registerSchemaChanges<T: Record & SendableMetatype>(
        _ name: String, for type: T.Type, options: SchemaChangeOptions = SchemaChangeOptions()
    ) {
        registerMigration(name) { connection in
            try T.schemaChanges(in: connection, options: options).apply(connection)
        }
    }
}
#endif
