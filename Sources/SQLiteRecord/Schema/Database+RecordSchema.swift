/// SQLite's side of the schema calls a record type makes: its `CREATE TABLE`, its FTS5 index, and raw DDL.
extension Database {
    /// Runs `sql`, one statement or several separated by semicolons, with no arguments: what
    /// ``DatabaseConnection/execute(sql:)`` requires, so that a migration written for both engines runs
    /// raw DDL. ``execute(sql:arguments:)`` with its default arguments is the same call.
    /// - Throws: ``DatabaseError`` with SQLite's result code and the statement.
    public func execute(sql: String) throws {
        try execute(sql: sql, arguments: [])
    }

    @_spi(RecordEngine)
    public func createTable<R: Record>(for type: R.Type, ifNotExists: Bool) throws {
        try execute(sql: R.createTableSQL(ifNotExists: ifNotExists))
    }

    @_spi(RecordEngine)
    public func schemaChanges<R: Record>(for type: R.Type, options: SchemaChangeOptions) throws -> SchemaChangePlan {
        try R.sqliteSchemaChanges(in: self, options: options)
    }

    @_spi(RecordEngine)
    public func applySchemaChanges(_ plan: SchemaChangePlan) throws {
        try plan.applyOnSQLite(self)
    }

    /// Deferred: a plan may rebuild a table, which needs foreign keys off while the old table is dropped.
    @_spi(RecordEngine)
    public static var schemaChangesForeignKeyChecks: MigrationForeignKeyChecks { .deferred }

    @_spi(RecordEngine)
    public func createFullTextIndex<T: FullTextSearchable>(for type: T.Type) throws {
        try T.createFTS5Index(in: self)
    }

    @_spi(RecordEngine)
    public func dropFullTextIndex<T: FullTextSearchable>(for type: T.Type) throws {
        try T.dropFTS5Index(in: self)
    }

    @_spi(RecordEngine)
    public func fetchFullTextMatches<Base: FullTextSearchable>(
        _ request: QueryInterfaceRequest<Base>, excerpt: FullTextExcerpt
    ) throws -> [FullTextMatch<Base>] {
        try request.fetchFTS5Matches(self, excerpt: excerpt)
    }
}
