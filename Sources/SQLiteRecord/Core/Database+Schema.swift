extension Database {
    /// The columns of table (or view) `table`, in declaration order: name, declared type, NOT NULL, default,
    /// primary key position and whether SQLite generates it. Generated columns are columns here, as they are
    /// in `SELECT *`. Read with `PRAGMA table_xinfo`; see <https://www.sqlite.org/pragma.html#pragma_table_xinfo>.
    /// - Throws: ``DatabaseError`` with `SQLITE_ERROR` and the message `no such table: NAME` when there is no
    ///   such table or view.
    ///
    /// The answer is cached per connection and dropped when the schema changes: `PRAGMA schema_version` is
    /// compared before the cache is used (once per transaction inside one, since only this connection's own
    /// statements can change the schema then).
    public func columns(in table: String) throws -> [ColumnInfo] {
        try validateSchemaCache()
        return try cachedColumns(in: table)
    }

    /// The columns from the cache, read on first use; the caller validated the cache.
    private func cachedColumns(in table: String) throws -> [ColumnInfo] {
        let key = RowLayout.asciiLowercased(table)
        if let cached = schemaCache.columns[key] { return cached }
        let columns = try readColumns(in: table)
        schemaCache.columns[key] = columns
        return columns
    }

    /// Drops the schema cache when a statement that ran since may have changed the schema (see
    /// ``SchemaCache``: DDL, or a rollback of a transaction that ran DDL), or when `PRAGMA schema_version`
    /// moved since the cache was filled (another connection changed the schema).
    /// - Throws: ``DatabaseError`` when the schema version cannot be read.
    func validateSchemaCache() throws {
        if schemaCache.needsDrop { schemaCache.drop() }
        let inTransaction = isInsideTransaction
        if schemaCache.isCurrent && inTransaction { return }
        let version = try integerScalar(sql: "PRAGMA schema_version") ?? 0
        if version != schemaCache.version {
            schemaCache.drop()
            schemaCache.version = version
        }
        schemaCache.isCurrent = inTransaction
    }

    /// The schema cache's generation, checked as ``derivedSchemaValue(for:table:make:)`` checks the cache:
    /// it moves whenever the cache is dropped (the schema changed, or may have: see ``SchemaCache``). What
    /// another layer keeps beside the cache compares it to know when its own derived values are stale.
    /// - Throws: ``DatabaseError`` when the schema version cannot be read.
    func currentSchemaGeneration() throws -> Int {
        try validateSchemaCache()
        return schemaCache.generation
    }

    /// What another layer derived from table `table`'s columns, cached with them under `owner` (the
    /// deriving type) and dropped with them when the schema changes; `make` builds it on first use.
    /// - Throws: what ``columns(in:)`` or `make` throws.
    func derivedSchemaValue<Value: AnyObject>(
        for owner: Any.Type, table: String, make: ([ColumnInfo]) throws -> Value
    ) throws -> Value {
        try validateSchemaCache()
        let key = SchemaCache.DerivedKey(owner: ObjectIdentifier(owner), table: table)
        if let cached = schemaCache.derived[key] as? Value { return cached }
        let value = try make(try cachedColumns(in: table))
        schemaCache.derived[key] = value
        return value
    }

    /// The one query that lists a table's columns, for every place that needs them (``columns(in:)``,
    /// ``hasColumns(_:)``). `PRAGMA table_xinfo` rather than `table_info`, which hides generated columns;
    /// its `hidden` column is 0 for an ordinary column, 2 and 3 for generated VIRTUAL and STORED columns,
    /// and 1 for the hidden columns of a virtual table (FTS5's rank, say), which `SELECT *` does not return
    /// either, so they are left out. The table-valued form takes the name as a bound argument: nothing to
    /// quote.
    static let columnListSQL =
        "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) WHERE hidden <> 1"

    private func readColumns(in table: String) throws -> [ColumnInfo] {
        let sql = Self.columnListSQL
        let columns = try withStatement(sql: sql, arguments: [table]) { statement in
            var columns: [ColumnInfo] = []
            while try statement.step() {
                columns.append(
                    ColumnInfo(
                        name: statement.string(at: 0), declaredType: statement.string(at: 1),
                        isNotNull: statement.int64(at: 2) != 0,
                        defaultValueSQL: statement.isNull(at: 3) ? nil : statement.string(at: 3),
                        primaryKeyIndex: Int(statement.int64(at: 4)), isGenerated: statement.int64(at: 5) >= 2))
            }
            return columns
        }
        guard !columns.isEmpty else {
            throw DatabaseError(resultCode: .error, message: "no such table: \(table)", sql: sql)
        }
        return columns
    }

    /// True when `table` names a table or view, temporary ones included, whose columns SQLite can list: the
    /// check behind "no such table" where a query that lists no rows cannot tell a missing table from an
    /// empty answer. Uses ``columnListSQL``, as ``columns(in:)`` does.
    /// - Throws: ``DatabaseError`` when the schema cannot be read.
    func hasColumns(_ table: String) throws -> Bool {
        try integerScalar(sql: "SELECT count(*) FROM (\(Self.columnListSQL))", arguments: [table]) ?? 0 > 0
    }

    /// True when the database has a table named `table` (`sqlite_master`), compared as SQLite compares
    /// names: ASCII case-insensitively.
    /// - Throws: ``DatabaseError`` when the schema cannot be read.
    public func tableExists(_ table: String) throws -> Bool {
        let sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE"
        return try integerScalar(sql: sql, arguments: [table]) ?? 0 > 0
    }
}
