/// The changes that bring a table in line with its record type, and the SQL that makes them: made by
/// ``Record/schemaChanges(in:options:)``, printed as a dry run (``sql``), applied by
/// ``apply(_:)`` or a ``DatabaseMigrator`` migration
/// (``DatabaseMigrator/registerSchemaChanges(_:for:options:)``).
///
/// Columns are added with `ALTER TABLE ADD COLUMN` and renamed with `ALTER TABLE RENAME COLUMN` where SQLite
/// allows it; any other change rebuilds the table as SQLite documents
/// (<https://www.sqlite.org/lang_altertable.html#otheralter>): a new table, the rows copied, the old table
/// dropped, the new one renamed, its indexes and triggers and the views that name it recreated, and
/// `PRAGMA foreign_key_check` before the transaction commits.
public struct SchemaChangePlan: Sendable, Equatable, CustomStringConvertible {
    /// The rebuild's steps, kept so that ``apply(_:)`` can compare the copied rows before it drops anything.
    struct Rebuild: Sendable, Equatable {
        /// The new table's temporary name.
        let newTable: String
        let createSQL: String
        let copySQL: String
        /// Columns whose declared type or nullability changes: their copied values are compared with the old
        /// ones, and read as the property's type, before the old table is dropped.
        let checkedColumns: [CheckedColumn]
        /// How a row is named in an error, and matched between the two tables: `rowid`, or the key columns.
        let rowKey: [String]
        /// The new table's columns, ASCII-lowercased: indexes over other columns are not recreated.
        let keptColumns: Set<String>
        let dropAndRename: [String]
        /// Indexes, triggers and views to recreate, as the schema held them when the plan was made (for the
        /// dry run: ``apply(_:)`` reads them again after the renames ran).
        let recreate: [String]
    }

    /// A column whose copied values must read back as they were.
    struct CheckedColumn: Sendable, Equatable {
        let name: String
        /// The storage classes the property's type reads (SQLite's `typeof` names), or nil for any.
        let readable: Set<String>?
    }

    /// The engine whose SQL the plan holds: a plan applies only there.
    package let dialect: SQLDialect
    /// The record's table.
    public let table: String
    /// Every difference found, in the order the SQL makes them.
    public let changes: [SchemaChange]
    /// What stops the plan: stored values it would lose or change. ``apply(_:)`` throws the first before
    /// writing anything; empty when the plan can be applied.
    public let refusals: [SchemaChangeError]
    /// Statements before the rebuild (renames, views dropped), in order.
    let leadingStatements: [String]
    let rebuild: Rebuild?
    /// Statements after the rebuild (added columns, UNIQUE indexes).
    let trailingStatements: [String]

    /// A plan of SQLite's: `leadingStatements`, the rebuild, `trailingStatements`, run in that order.
    init(
        table: String, changes: [SchemaChange], refusals: [SchemaChangeError], leadingStatements: [String],
        rebuild: Rebuild?, trailingStatements: [String]
    ) {
        dialect = .sqlite
        self.table = table
        self.changes = changes
        self.refusals = refusals
        self.leadingStatements = leadingStatements
        self.rebuild = rebuild
        self.trailingStatements = trailingStatements
    }

    /// A plan of another engine's: `statements`, run in order in one transaction (the engine's DDL is
    /// transactional, so no rebuild is needed).
    package init(
        dialect: SQLDialect, table: String, changes: [SchemaChange], refusals: [SchemaChangeError],
        statements: [String]
    ) {
        self.dialect = dialect
        self.table = table
        self.changes = changes
        self.refusals = refusals
        leadingStatements = statements
        rebuild = nil
        trailingStatements = []
    }

    /// True when the table already matches the type.
    public var isEmpty: Bool { changes.allSatisfy { if case .keepColumn = $0 { return true } else { return false } } }

    /// True when a change needs the table rebuilt, which must run with foreign keys off: use
    /// ``DatabaseMigrator/registerSchemaChanges(_:for:options:)``, which turns them off for its migration.
    public var requiresRebuild: Bool { rebuild != nil }

    /// Every statement ``apply(_:)`` runs, in order: the dry run. A rebuild's copied rows are compared with
    /// the old ones between its `INSERT` and its `DROP TABLE` (no statement of its own).
    public var statements: [String] {
        var all = leadingStatements
        if let rebuild {
            all += [rebuild.createSQL, rebuild.copySQL] + rebuild.dropAndRename + rebuild.recreate
        }
        all += trailingStatements
        if rebuild != nil { all.append("PRAGMA foreign_key_check") }
        return all
    }

    /// The statements as one script, each ended by `;` on its own line.
    public var sql: String { statements.map { $0 + ";" }.joined(separator: "\n") }

    /// The changes, the refusals and the SQL, for a log or a review.
    public var description: String {
        var lines = ["Schema changes for table \"\(table)\"" + (isEmpty ? ": none" : ":")]
        lines += changes.map { "- \($0)" }
        lines += refusals.map { "refused: \($0)" }
        if !statements.isEmpty { lines.append(sql) }
        return lines.joined(separator: "\n")
    }

    /// Applies the plan in one transaction (a savepoint inside the caller's): everything or nothing. A plan
    /// applies on the engine it was made on.
    ///
    /// A plan that ``requiresRebuild`` needs foreign keys off (SQLite's procedure turns them off so that
    /// dropping the old table does not delete or rewrite its children's rows); run it in a migration
    /// registered with ``MigrationForeignKeyChecks/deferred``, as
    /// ``DatabaseMigrator/registerSchemaChanges(_:for:options:)`` does.
    /// - Throws: ``SchemaChangeError/plannedForAnotherEngine(table:engine:)`` for a plan made on another
    ///   engine; the first of ``refusals`` before anything is written;
    ///   ``SchemaChangeError/valuesWouldChange(table:column:rows:)`` when the rebuild's copy would store a
    ///   row's value differently or as a value the property cannot read (nothing stays written);
    ///   ``SchemaChangeError/cannotRebuild(table:reason:)`` when foreign keys are on for a rebuild;
    ///   the engine's error (``DatabaseError``, `PostgresError`: a value that does not convert, a NULL where
    ///   NOT NULL is set), with nothing written.
    public func apply(_ db: some DatabaseConnection) throws {
        try db.applySchemaChanges(self)
    }

    /// ``apply(_:)`` on SQLite.
    func applyOnSQLite(_ db: Database) throws {
        guard dialect == .sqlite else {
            throw SchemaChangeError.plannedForAnotherEngine(table: table, engine: "PostgreSQL")
        }
        if let refusal = refusals.first { throw refusal }
        if rebuild != nil, try db.integerScalar(sql: "PRAGMA foreign_keys") == 1 {
            throw SchemaChangeError.cannotRebuild(
                table: table,
                reason: "foreign keys are on, and dropping the old table would delete or change its children's "
                    + "rows; run the plan in a migration registered with registerSchemaChanges (or "
                    + "foreignKeyChecks: .deferred)")
        }
        try db.transaction {
            guard let rebuild else {
                for statement in leadingStatements + trailingStatements { try db.execute(sql: statement) }
                return
            }
            // The renames, then what the schema holds about the table as they left it.
            for statement in leadingStatements
            where !statement.hasPrefix("DROP VIEW ") && !statement.hasPrefix("DROP TRIGGER ") {
                try db.execute(sql: statement)
            }
            let objects = try SchemaDiff.schemaObjects(
                of: table, keeping: rebuild.keptColumns, renames: [], db: db)
            for statement in objects.dropped { try db.execute(sql: statement) }
            try db.execute(sql: rebuild.createSQL)
            try db.execute(sql: rebuild.copySQL)
            try checkCopiedValues(rebuild, db)
            for statement in rebuild.dropAndRename + objects.statements { try db.execute(sql: statement) }
            for statement in trailingStatements { try db.execute(sql: statement) }
            let violations = try db.fetchAll(sql: "SELECT \"table\", rowid FROM pragma_foreign_key_check LIMIT 10")
            if !violations.isEmpty {
                let rows = violations.map { row in
                    "\((try? row[0, as: String.self]) ?? "?") rowid \((try? row[1, as: Int64?.self]).flatMap { $0 }.map(String.init) ?? "?")"
                }
                throw SchemaChangeError.foreignKeyViolations(table: table, rows: rows)
            }
        }
    }

    /// Throws when a checked column's copied value differs from the old one (in content: see the condition),
    /// or is of a storage class the property does not read.
    private func checkCopiedValues(_ rebuild: Rebuild, _ db: Database) throws {
        let oldTable = SQLIdentifier.quoted(table)
        let newTable = SQLIdentifier.quoted(rebuild.newTable)
        let join = rebuild.rowKey.map { "n.\(SQLIdentifier.quoted($0)) IS o.\(SQLIdentifier.quoted($0))" }
            .joined(separator: " AND ")
        let rowName = rebuild.rowKey.map { "quote(n.\(SQLIdentifier.quoted($0)))" }.joined(separator: " || ', ' || ")
        for column in rebuild.checkedColumns {
            let name = SQLIdentifier.quoted(column.name)
            // Unchanged: the same value exactly, or the same text ('120' becoming 120 under INTEGER affinity,
            // 120 becoming '120' under TEXT), or the same number (2.0 becoming 2). '00120' becoming 120 is a
            // change, and so is 'abc' staying text in a column whose property reads only numbers.
            let (old, new) = ("o.\(name)", "n.\(name)")
            var condition = """
                NOT (quote(\(old)) = quote(\(new)) \
                OR (typeof(\(old)) <> 'blob' AND CAST(\(old) AS TEXT) IS CAST(\(new) AS TEXT)) \
                OR (typeof(\(old)) IN ('integer', 'real') AND typeof(\(new)) IN ('integer', 'real') AND \(old) = \(new)))
                """
            if let readable = column.readable {
                let list = (readable.union(["null"])).sorted().map { "'\($0)'" }.joined(separator: ", ")
                condition += " OR typeof(n.\(name)) NOT IN (\(list))"
            }
            let sql = """
                SELECT \(rowName) FROM \(newTable) AS n JOIN \(oldTable) AS o ON \(join) \
                WHERE \(condition) LIMIT 10
                """
            let rows = try db.fetchAll(sql: sql).map { row in
                let key = (try? row[0, as: String.self]) ?? "?"
                return rebuild.rowKey == ["rowid"] ? "rowid \(key)" : "(\(key))"
            }
            if !rows.isEmpty {
                throw SchemaChangeError.valuesWouldChange(table: table, column: column.name, rows: rows)
            }
        }
    }
}
