import Foundation

extension Record {
    /// Compares the type with its table and returns the changes that would make the table hold the type,
    /// with the SQL that makes them, as a ``SchemaChangePlan``: print it (a dry run), then apply it in a
    /// migration (``DatabaseMigrator/registerSchemaChanges(_:for:options:)``).
    ///
    /// ```swift
    /// let plan = try queue.read { db in try City.schemaChanges(in: db) }
    /// print(plan)  // - add column "founded_at" TEXT ... ALTER TABLE "cities" ADD COLUMN "founded_at" TEXT;
    /// ```
    ///
    /// The type says what the table should be, as ``createTable(in:ifNotExists:)`` would make it: its columns
    /// (a column per coding key, NOT NULL unless Optional), its key, ``withoutRowID`` and the foreign keys of
    /// ``parentAssociations``. Compared, as ``validateSchema(in:)`` compares them (names ASCII
    /// case-insensitively):
    /// - columns the type writes that the table lacks (``SchemaChange/addColumn(_:definition:)``), and the
    ///   ones renamed in ``SchemaChangeOptions/renamedColumns``;
    /// - columns the table has that the type does not: dropped when empty or with
    ///   ``SchemaChangeOptions/dropsColumns``, kept otherwise;
    /// - a column whose declared type ``validateSchema(in:)`` refuses for the property, by the same rule: TEXT
    ///   affinity for a number or a date stored as a number
    ///   (<https://www.sqlite.org/datatype3.html#type_affinity>), so a type that validates gets no retype.
    ///   Other differences of declared type give the values back as they are and are not changes (a
    ///   `String` over an `INTEGER_OR_TEXT` or `JSON` column; its saves of numeric-looking text are refused
    ///   by the save);
    /// - NOT NULL against the property's Optional, the primary key, WITHOUT ROWID, the UNIQUE
    ///   constraints of ``SchemaChangeOptions/uniqueKeys`` and the CHECK constraints of
    ///   ``SchemaChangeOptions/checks`` (both with the type's ``tableDefinition``'s).
    ///
    /// Stored values are checked before anything is written: values a property cannot read, as stored or as
    /// a new declared type would store them (``SchemaChangeError/unreadableValues(table:column:valueType:count:rows:)``),
    /// NULL in a column that must become NOT NULL, rows sharing a value that must become unique, rows that
    /// fail a CHECK constraint to add, rows whose new foreign key references no row, a NOT NULL column
    /// without a default for a table with rows. Each becomes one of the plan's
    /// ``SchemaChangePlan/refusals``, naming up to ten rows.
    ///
    /// A rebuild keeps what the table declares: its columns' collations and CHECK constraints and its own
    /// CHECK constraints (read from its CREATE TABLE text, renamed columns written with their new names),
    /// its indexes (partial and expression ones too), triggers, UNIQUE constraints, DEFAULTs, foreign keys,
    /// WITHOUT ROWID, STRICT, AUTOINCREMENT on a rowid key that stays, with its sequence (the largest rowid
    /// handed out, kept in `sqlite_sequence`), and generated columns (told by `PRAGMA table_xinfo`), made
    /// again by their `AS (...)` clause, VIRTUAL or STORED, their values computed rather than copied. A
    /// table CHECK or a generated column naming a column the plan drops, or a plan that would change a
    /// generated column's type or NOT NULL, cannot be rebuilt: such a plan is refused with
    /// ``SchemaChangeError/cannotRebuild(table:reason:)``. Views and other tables'
    /// triggers whose SQL names the table are dropped before the rebuild and recreated after it (the plan's
    /// ``SchemaChangePlan/statements`` list both).
    ///
    /// On PostgreSQL (a `PostgresConnection`) the same comparison, by the same rules and with the same
    /// values, reads `pg_catalog` and plans `ALTER TABLE` statements that change the table in place, in one
    /// transaction: `ADD COLUMN`, `RENAME COLUMN` (which keeps the column's constraints and indexes), `DROP
    /// COLUMN`, `ALTER COLUMN ... TYPE ... USING`, `SET`/`DROP NOT NULL`, the primary key, foreign keys,
    /// UNIQUE indexes and CHECKs. It never rebuilds (``SchemaChangePlan/requiresRebuild`` is false), and its
    /// refusals name rows by their primary key (`(42)`, `('EUR')`; `ctid (0,1)` without one). See
    /// <https://www.postgresql.org/docs/current/sql-altertable.html> and the PostgreSQL article.
    /// - Throws: ``SchemaChangeError/notATable(_:)`` for a view or a virtual table; ``SchemaProbeError``
    ///   when the type cannot be probed; ``RecordError/missingPrimaryKey(table:column:)`` when no coding
    ///   key names ``primaryKeyColumn``; the engine's error (``DatabaseError``, `PostgresError`) when the
    ///   schema cannot be read.
    public static func schemaChanges(
        in db: some DatabaseConnection, options: SchemaChangeOptions = SchemaChangeOptions()
    ) throws -> SchemaChangePlan {
        try db.schemaChanges(for: Self.self, options: options)
    }

    /// SQLite's plan: what ``schemaChanges(in:options:)`` returns on a ``Database``.
    static func sqliteSchemaChanges(in db: Database, options: SchemaChangeOptions) throws -> SchemaChangePlan {
        let probed = try probedColumns()
        let keyColumns = try probedKeyColumns()
        for key in keyColumns where !probed.contains(where: { $0.name == key }) {
            throw RecordError.missingPrimaryKey(table: tableName, column: key)
        }
        return try SchemaChangePlanner.plan(
            table: tableName, columns: probed, keyColumns: keyColumns, keyIsRowID: keyIsRowID,
            withoutRowID: withoutRowID,
            // A foreign key of several columns is kept as the table declares it, not added by a change.
            references: parentAssociations.filter { $0.foreignKeyColumns.count <= 1 }.map {
                ($0.foreignKey, $0.parentTable, $0.parentKey, $0.onDelete?.rawValue)
            }, options: try declaredOptions(options, probed: probed),
            createSQL: { try createTableSQL().components(separatedBy: "; ") }, in: db, encoder: recordEncoder,
            decoder: rowDecoder)
    }

    /// True when the key is the rowid (`id` is `Int64?`): SQLite's `INTEGER PRIMARY KEY`, PostgreSQL's identity
    /// column. For another engine's schema diff.
    package static var schemaKeyIsRowID: Bool { keyIsRowID }

    /// `options` with what ``tableDefinition`` declares added: its UNIQUE keys and unique indexes as
    /// ``SchemaChangeOptions/uniqueKeys``, its CHECK constraints as ``SchemaChangeOptions/checks``, and its
    /// value DEFAULTs as ``SchemaChangeOptions/defaults`` for the columns `options` gives none. A DEFAULT
    /// written as SQL (``TableDefinition/DefaultValue/sql(_:)``) is not a value a copied row can take, so only
    /// a value default fills an added NOT NULL column.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a declared column the type does
    ///   not encode.
    package static func declaredOptions(_ options: SchemaChangeOptions, probed: [RecordColumn]) throws -> SchemaChangeOptions {
        let definition = tableDefinition
        var options = options
        let declaredKeys =
            try definition.uniqueKeys.map { try checkedColumnNames($0.columns, in: probed) }
            + definition.indexes.filter(\.isUnique).map { try checkedColumnNames($0.columns, in: probed) }
        let folded = { (columns: [String]) in columns.map(RowLayout.asciiLowercased) }
        for key in declaredKeys where !options.uniqueKeys.contains(where: { folded($0) == folded(key) }) {
            options.uniqueKeys.append(key)
        }
        for check in definition.checks
        where !options.checks.contains(where: {
            CreateTableClauses.squeezed($0.sql) == CreateTableClauses.squeezed(check.sql)
        }) {
            options.checks.append(check)
        }
        for columnDefault in definition.defaults {
            guard case .value(let value) = columnDefault.value else { continue }
            let name = try checkedColumnNames([columnDefault.column], in: probed)[0]
            if options.defaults[name] == nil { options.defaults[name] = value }
        }
        return options
    }
}

/// The schema diff for a table described by its columns rather than by a Swift type: what
/// ``Record/schemaChanges(in:options:)`` runs, and what `sqlite-record-gen diff` runs for the tables of a
/// reference database, so that both plan by one rule.
package enum SchemaChangePlanner {
    /// The CHECK constraints a CREATE TABLE statement declares, the columns' and the table's, in order, each
    /// with its `CONSTRAINT` name and its expression as written: what `sqlite-record-gen diff` asks of a
    /// table, as a type's ``Record/tableDefinition`` would.
    package static func checks(inCreateTableSQL sql: String) -> [TableDefinition.Check] {
        CreateTableClauses(sql: sql).checks
    }

    /// The plan that makes `table` in `db` hold `columns` with the key `keyColumns`.
    /// - Parameters:
    ///   - references: the one-column foreign keys the table must have: column, parent table, parent key,
    ///     ON DELETE action.
    ///   - createSQL: the statements that create the table when `db` has none (called only then).
    /// - Throws: ``SchemaChangeError/notATable(_:)`` for a view or a virtual table; ``DatabaseError`` when
    ///   the schema cannot be read.
    package static func plan(
        table: String, columns: [RecordColumn], keyColumns: [String], keyIsRowID: Bool, withoutRowID: Bool,
        references: [(String, String, String, String?)], options: SchemaChangeOptions,
        createSQL: () throws -> [String],
        in db: Database, encoder: RecordEncoder = RecordEncoder(), decoder: RowDecoder = RowDecoder()
    ) throws -> SchemaChangePlan {
        guard try db.hasColumns(table) else {
            return SchemaChangePlan(
                table: table, changes: [.createTable(table)], refusals: [], leadingStatements: try createSQL(),
                rebuild: nil, trailingStatements: [])
        }
        let shape = try db.tableShape(table)
        guard shape.kind == "table" else { throw SchemaChangeError.notATable(table) }
        var diff = try SchemaDiff(table: table, db: db, options: options, encoder: encoder, decoder: decoder)
        try diff.compare(
            probed: columns, keyColumns: keyColumns, keyIsRowID: keyIsRowID, withoutRowID: withoutRowID,
            shape: shape, references: references)
        return try diff.plan()
    }
}
