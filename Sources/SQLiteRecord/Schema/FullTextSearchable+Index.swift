import Foundation

/// Creating, rebuilding, checking and dropping a record type's full-text index.
extension FullTextSearchable {
    /// Creates the full-text index. On SQLite: the FTS5 table, with the record's table as its external
    /// content, three triggers that keep it in step with inserts, updates and deletes, and a `rebuild` that
    /// indexes the rows already there (see <https://www.sqlite.org/fts5.html#external_content_tables>). On
    /// PostgreSQL: a stored generated `tsvector` column over the indexed columns and its GIN index, with the
    /// `unaccent` extension and configuration the tokenizer needs (see the PostgreSQL article). Run it once,
    /// in a migration (``DatabaseMigrator/registerFullTextIndex(_:for:)``).
    ///
    /// - Parameter db: the connection; inside a transaction the index is created in it.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` when the index names no column,
    ///   ``RecordError/unknownColumn(table:column:columns:)`` for a column that is not in the table, or the
    ///   engine's error (the index exists already; an unknown tokenizer; the table is missing).
    public static func createFullTextIndex(in db: some DatabaseConnection) throws {
        try db.createFullTextIndex(for: Self.self)
    }

    /// The statements ``createFullTextIndex(in:)`` runs on SQLite before its `rebuild`, in order, to read or
    /// to paste into a migration: `CREATE VIRTUAL TABLE ... USING fts5(...)` and the three triggers.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` when the index names no column.
    public static func createFullTextIndexSQL() throws -> [String] {
        let index = fullTextIndex
        guard !index.columns.isEmpty else {
            throw RecordError.invalidQuery(table: tableName, reason: "a full-text index needs at least one column")
        }
        let fts = SQLIdentifier.quoted(fullTextTableName)
        let table = SQLIdentifier.quoted(tableName)
        let columns = index.columns.map(SQLIdentifier.quoted)
        let columnList = columns.joined(separator: ", ")
        let newValues = columns.map { "new." + $0 }.joined(separator: ", ")
        let oldValues = columns.map { "old." + $0 }.joined(separator: ", ")
        let insertNew = "INSERT INTO \(fts)(rowid, \(columnList)) VALUES (new.rowid, \(newValues));"
        let deleteOld =
            "INSERT INTO \(fts)(\(fts), rowid, \(columnList)) VALUES ('delete', old.rowid, \(oldValues));"
        return [
            "CREATE VIRTUAL TABLE \(fts) USING fts5(\(columnList), content=\(stringLiteral(tableName)), "
                + "content_rowid='rowid', tokenize=\(stringLiteral(index.tokenizer.arguments)))",
            "CREATE TRIGGER \(triggerName("ai")) AFTER INSERT ON \(table) BEGIN \(insertNew) END",
            "CREATE TRIGGER \(triggerName("ad")) AFTER DELETE ON \(table) BEGIN \(deleteOld) END",
            // Every update, not only UPDATE OF the indexed columns: an update of the rowid moves the row too.
            "CREATE TRIGGER \(triggerName("au")) AFTER UPDATE ON \(table) BEGIN \(deleteOld) \(insertNew) END",
        ]
    }

    /// Rebuilds the index from the record's table (FTS5's `rebuild` command): what to run after rows were
    /// changed with the triggers missing, or when ``checkFullTextIndex(_:)`` finds the index out of step.
    /// See <https://www.sqlite.org/fts5.html#the_rebuild_command>.
    /// - Throws: ``DatabaseError`` from SQLite (the index is missing).
    public static func rebuildFullTextIndex(_ db: Database) throws {
        let fts = SQLIdentifier.quoted(fullTextTableName)
        try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')")
    }

    /// Checks the index (FTS5's `integrity-check` command, comparing it with the record's table): returns
    /// when the index matches the table's rows. FTS5 takes its commands as INSERTs: run it in a `write`.
    /// See <https://www.sqlite.org/fts5.html#the_integrity_check_command>.
    /// - Throws: ``DatabaseError`` with `SQLITE_CORRUPT_VTAB` when the index is out of step with the table
    ///   or damaged (``rebuildFullTextIndex(_:)`` repairs the first), or another ``DatabaseError`` (the index
    ///   is missing).
    public static func checkFullTextIndex(_ db: Database) throws {
        let fts = SQLIdentifier.quoted(fullTextTableName)
        // rank 1: compare with the content table too; without it FTS5 checks only the index's own structure.
        try db.execute(sql: "INSERT INTO \(fts)(\(fts), rank) VALUES ('integrity-check', 1)")
    }

    /// Drops the index (on SQLite its FTS5 table and triggers, on PostgreSQL its column and GIN index), if
    /// it exists; the record's table and rows are untouched.
    /// - Throws: the engine's error.
    public static func dropFullTextIndex(in db: some DatabaseConnection) throws {
        try db.dropFullTextIndex(for: Self.self)
    }

    /// SQLite's full-text index: the statements of ``createFullTextIndexSQL()``, then a `rebuild`.
    static func createFTS5Index(in db: Database) throws {
        try explainingMissingTable {
            let statements = try createFullTextIndexSQL()
            try checkColumns(db, fullTextIndex.columns, aliases: [])
            for sql in statements { try db.execute(sql: sql) }
            try rebuildFullTextIndex(db)
        }
    }

    /// Drops SQLite's FTS5 table and its triggers, if they exist.
    static func dropFTS5Index(in db: Database) throws {
        for suffix in ["ai", "ad", "au"] { try db.execute(sql: "DROP TRIGGER IF EXISTS \(triggerName(suffix))") }
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLIdentifier.quoted(fullTextTableName))")
    }

    private static func triggerName(_ suffix: String) -> String {
        SQLIdentifier.quoted(fullTextTableName + "_" + suffix)
    }

    /// `text` as an SQL string literal, each `'` doubled: FTS5 reads its options' values as SQL strings.
    private static func stringLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
