/// The migration step that brings a record type's table in line with the type.
extension DatabaseMigrator {
    /// Registers a migration that applies `type`'s ``Record/schemaChanges(in:options:)`` plan when it runs.
    /// On SQLite: columns added and renamed with `ALTER TABLE`, any other change by SQLite's table rebuild,
    /// with foreign keys off and `PRAGMA foreign_key_check` before COMMIT (``MigrationForeignKeyChecks/deferred``;
    /// see <https://www.sqlite.org/lang_altertable.html#otheralter>). On PostgreSQL: the plan's `ALTER TABLE`
    /// statements in the migration's transaction, with foreign keys checked as usual.
    ///
    /// ```swift
    /// migrator.registerSchemaChanges("3 cities: founded_at", for: City.self)
    /// ```
    ///
    /// The plan is made from the type as it is when the migration runs, so the migration does what the type
    /// asks at that moment: register it after the migrations that create the table, and print the plan first
    /// (a dry run) to see the SQL. Like every migration it then stays as it shipped; a later change of the
    /// type takes a migration of its own. The migration throws, and is rolled back with nothing written, when
    /// the plan has ``SchemaChangePlan/refusals`` or its rebuild would change a stored value.
    /// - Parameters:
    ///   - identifier: the migration's name, unique within the migrator.
    ///   - type: the record type whose table to change.
    ///   - options: renamed columns, whether to drop columns holding values, defaults and UNIQUE constraints.
    public mutating func registerSchemaChanges<T: Record & SendableMetatype>(
        _ identifier: String, for type: T.Type, options: SchemaChangeOptions = SchemaChangeOptions()
    ) {
        registerMigration(identifier, foreignKeyChecks: Connection.schemaChangesForeignKeyChecks) { db in
            try T.schemaChanges(in: db, options: options).apply(db)
        }
    }
}
