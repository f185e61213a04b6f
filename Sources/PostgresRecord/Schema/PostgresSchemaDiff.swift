#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// The comparison of one PostgreSQL table with a record type's columns, and the plan it makes (see
/// `Record.schemaChanges(in:options:)` on a ``PostgresConnection``): SQLite's rules, with PostgreSQL's
/// `ALTER TABLE` doing in place what SQLite needs a rebuild for. Every statement runs in one transaction
/// (PostgreSQL's DDL is transactional), so no change is half made. See
/// <https://www.postgresql.org/docs/current/sql-altertable.html>.
struct PostgresSchemaDiff {
    /// A column of the table, as `pg_attribute` describes it.
    struct TableColumn {
        let name: String
        /// `format_type`: `bigint`, `character varying(20)`, `timestamp with time zone`.
        let typeName: String
        let typeOID: UInt32
        let isNotNull: Bool
        /// True for an identity column (`GENERATED ... AS IDENTITY`): its values come from a sequence.
        let isIdentity: Bool
    }

    let table: String
    let connection: PostgresConnection
    let options: SchemaChangeOptions
    let encoder: RecordEncoder
    let columns: [TableColumn]
    let catalog: TableConstraintCatalog
    let rowCount: Int
    /// The SQL that names a row in a message (`(42)`, `('EUR')`, `(1, 2)`): its primary key's values, or its
    /// `ctid` when the table has none.
    let rowNameSQL: String
    /// The order rows are named in: the primary key's, or `ctid`'s.
    let rowOrderSQL: String
    var changes: [SchemaChange] = []
    var refusals: [SchemaChangeError] = []
    var statements: [String] = []
    var renames: [(from: String, to: String)] = []
    /// The columns the plan adds, with their DEFAULT text: what existing rows hold after the plan.
    var added: [(name: String, defaultSQL: String?)] = []
    /// True when a retyped column holds a value its new type would not take: CHECKs are then not tried
    /// (their expression may not apply to the old type, and the plan is refused anyway).
    var hasUnconvertibleValues = false

    /// The types whose values SQL writes bare (`42`, `1.5`), in row names and messages.
    static let numericTypes: Set<UInt32> = [
        PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.numeric, PostgresType.float4,
        PostgresType.float8,
    ]

    /// A name as PostgreSQL matches a quoted identifier: exactly, as the schema check (`validateSchema(in:)`)
    /// matches columns on PostgreSQL, so that the plan and the check agree ("Name" is not "name").
    static func folded(_ name: String) -> String { name }

    /// The diff of `table`, nil when `connection` has no table of that name on its search path.
    /// - Throws: `SchemaChangeError.notATable` for a view; ``PostgresError`` when the catalog cannot
    ///   be read.
    init?(table: String, connection: PostgresConnection, options: SchemaChangeOptions, encoder: RecordEncoder) throws {
        let name = try PostgresValue(text: table)
        let kind = try connection.query(
            "SELECT relkind::text FROM pg_catalog.pg_class WHERE oid = to_regclass(quote_ident($1))", [name])
        guard kind.count == 1 else { return nil }
        guard let catalog = try connection.tableConstraintCatalog(table) else {
            throw SchemaChangeError.notATable(table)
        }
        let rows = try connection.query(
            """
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), \(PostgresSchemaCheck.valueTypeOID)::int8,
                a.attnotnull,
                a.attidentity <> ''
            FROM pg_catalog.pg_attribute a
            WHERE a.attrelid = to_regclass(quote_ident($1)) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, [name])
        let tableColumns = try (0..<rows.count).map { index in
            let row = rows[index]
            return TableColumn(
                name: try row.decode(String.self, at: 0), typeName: try row.decode(String.self, at: 1),
                typeOID: UInt32(try row.decode(Int64.self, at: 2)), isNotNull: try row.decode(Bool.self, at: 3),
                isIdentity: try row.decode(Bool.self, at: 4))
        }
        columns = tableColumns
        self.table = table
        self.connection = connection
        self.options = options
        self.encoder = encoder
        self.catalog = catalog
        rowCount = Int(
            try connection.query("SELECT count(*) FROM \(SQLIdentifier.quoted(table))")[0].decode(Int64.self, at: 0))
        let keyParts = catalog.primaryKey.map { key -> String in
            let quoted = SQLIdentifier.quoted(key)
            let isNumber = tableColumns.first { $0.name == key }.map { Self.numericTypes.contains($0.typeOID) } ?? false
            return isNumber ? "coalesce(\(quoted)::text, 'NULL')" : "quote_nullable(\(quoted)::text)"
        }
        rowOrderSQL =
            catalog.primaryKey.isEmpty ? "ctid" : catalog.primaryKey.map(SQLIdentifier.quoted).joined(separator: ", ")
        rowNameSQL =
            keyParts.isEmpty
            ? "'ctid ' || ctid::text" : "'(' || " + keyParts.joined(separator: " || ', ' || ") + " || ')'"
    }

    /// A table column's name after the renames.
    func renamed(_ name: String) -> String {
        renames.first { Self.folded($0.from) == Self.folded(name) }?.to ?? name
    }

    /// The table's column now called `name` (after the renames), by its stored name.
    func tableColumn(_ name: String) -> TableColumn? {
        columns.first { Self.folded(renamed($0.name)) == Self.folded(name) }
    }

    var quotedTable: String { SQLIdentifier.quoted(table) }

    /// Compares the table with the type, filling the changes, the statements and the refusals.
    /// - Parameter references: the one-column foreign keys of the type's parent associations: column, parent
    ///   table, parent key, ON DELETE action.
    mutating func compare(
        probed: [RecordColumn], keyColumns: [String], keyIsRowID: Bool,
        references: [(String, String, String, String?)]
    ) throws {
        let folded = Self.folded
        // Renames first: PostgreSQL's RENAME COLUMN keeps the column's NOT NULL, DEFAULT, CHECK, UNIQUE,
        // indexes and foreign keys, and the rest of the comparison sees the new names.
        for (old, new) in options.renamedColumns.sorted(by: { $0.key < $1.key }) {
            guard let column = columns.first(where: { folded($0.name) == folded(old) }),
                !columns.contains(where: { folded(renamed($0.name)) == folded(new) })
            else { continue }
            renames.append((column.name, new))
            changes.append(.renameColumn(from: column.name, to: new))
            statements.append(
                "ALTER TABLE \(quotedTable) RENAME COLUMN \(SQLIdentifier.quoted(column.name)) TO "
                    + SQLIdentifier.quoted(new))
        }
        let keySet = Set(keyColumns.map(folded))
        for column in columns {
            let name = renamed(column.name)
            let quoted = SQLIdentifier.quoted(name)
            guard let property = probed.first(where: { folded($0.name) == folded(name) }) else {
                let values = try integer("SELECT count(\(SQLIdentifier.quoted(column.name))) FROM \(quotedTable)")
                // A column of a type no Swift type reads cannot be a property: its absence from the type
                // does not ask for it to go, even empty.
                let read = try connection.schemaReadType(of: column.typeOID)
                let isReadable = PostgresSchemaCheck.readsIntoSwiftType(oid: read.oid, isEnum: read.isEnum)
                if (values == 0 && isReadable) || options.dropsColumns {
                    changes.append(.dropColumn(name))
                    statements.append("ALTER TABLE \(quotedTable) DROP COLUMN \(quoted)")
                } else {
                    changes.append(.keepColumn(name, valueCount: values))
                }
                continue
            }
            let isKey = keySet.contains(folded(name))
            let read = try connection.schemaReadType(of: column.typeOID)
            if !(isKey && keyIsRowID),
                PostgresSchemaCheck.incompatibility(
                    kind: property.kind, valueType: property.valueType, oid: read.oid, isEnum: read.isEnum) != nil
            {
                let wanted = SQLDialect.postgres.declaredType(of: property, encoder: encoder)
                changes.append(.changeColumnType(name, from: column.typeName, to: wanted))
                let using = Self.conversion(of: SQLIdentifier.quoted(column.name), from: column.typeOID, to: wanted)
                try refuseUnconvertibleValues(column, shownAs: name, property: property, to: wanted, using: using)
                statements.append(
                    "ALTER TABLE \(quotedTable) ALTER COLUMN \(quoted) TYPE \(wanted) USING "
                        + Self.conversion(of: quoted, from: column.typeOID, to: wanted))
            } else {
                try refuseUnreadableValues(column, shownAs: name, property: property)
            }
            // Key columns are left as PostgreSQL keeps them: a primary key is NOT NULL.
            let mustBeNotNull = !property.isOptional
            if !isKey, mustBeNotNull != column.isNotNull {
                changes.append(.changeNullability(name, isNotNull: mustBeNotNull))
                statements.append(
                    "ALTER TABLE \(quotedTable) ALTER COLUMN \(quoted) \(mustBeNotNull ? "SET" : "DROP") NOT NULL")
                if mustBeNotNull { try refuseNulls(in: column.name, shownAs: name) }
            }
        }
        // The type's columns the table lacks, in the type's order.
        for property in probed where tableColumn(property.name) == nil {
            let isKey = keySet.contains(folded(property.name))
            let isIdentity = isKey && keyIsRowID
            var type = SQLDialect.postgres.declaredType(of: property, encoder: encoder)
            if isIdentity { type = "BIGINT GENERATED BY DEFAULT AS IDENTITY" }
            let notNull = !property.isOptional || isKey
            let defaultSQL = options.defaults[property.name].map(Self.literal)
            var definition = SQLIdentifier.quoted(property.name) + " " + type
            if notNull && !isIdentity { definition += " NOT NULL" }
            if let defaultSQL { definition += " DEFAULT " + defaultSQL }
            changes.append(.addColumn(property.name, definition: definition))
            statements.append("ALTER TABLE \(quotedTable) ADD COLUMN \(definition)")
            if notNull && !isIdentity && defaultSQL == nil && rowCount > 0 {
                refusals.append(.missingDefault(table: table, column: property.name, rowCount: rowCount))
            }
            added.append((property.name, defaultSQL))
        }

        // The key: the table's primary key, or a UNIQUE index on the type's key columns, serves calls by key.
        let tableKey = catalog.primaryKey.map(renamed)
        let uniqueKey = catalog.indexes.contains { index in
            index.isUnique && !index.isPartial && Set(index.columns.map { folded(renamed($0 ?? "")) }) == keySet
        }
        if tableKey.map(folded) != keyColumns.map(folded) && !uniqueKey {
            changes.append(.changePrimaryKey(from: tableKey, to: keyColumns))
            if let primaryKey = catalog.indexes.first(where: { $0.origin == .primaryKeyConstraint }) {
                statements.append("ALTER TABLE \(quotedTable) DROP CONSTRAINT \(SQLIdentifier.quoted(primaryKey.name))")
            }
            statements.append(
                "ALTER TABLE \(quotedTable) ADD PRIMARY KEY ("
                    + keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
            try refuseDuplicates(keyColumns)
            for key in keyColumns {
                if let column = tableColumn(key) { try refuseNulls(in: column.name, shownAs: key) }
            }
        }

        // Foreign keys of the type's parent associations.
        for (column, parent, parentKey, onDelete) in references {
            let present = catalog.foreignKeys.contains { key in
                key.columns.map { folded(renamed($0)) } == [folded(column)] && folded(key.parentTable) == folded(parent)
            }
            guard !present else { continue }
            let clause =
                "REFERENCES \(SQLIdentifier.quoted(parent)) (\(SQLIdentifier.quoted(parentKey)))"
                + (onDelete.map { " ON DELETE " + $0 } ?? "")
            changes.append(.addForeignKey(column, references: clause))
            statements.append("ALTER TABLE \(quotedTable) ADD FOREIGN KEY (\(SQLIdentifier.quoted(column))) \(clause)")
            try refuseOrphans(column: column, parent: parent, parentKey: parentKey)
        }

        // UNIQUE constraints the caller or the type's table definition declares.
        for unique in options.uniqueKeys where !unique.isEmpty {
            let set = Set(unique.map(folded))
            let exists = catalog.indexes.contains { index in
                index.isUnique && !index.isPartial && Set(index.columns.map { folded(renamed($0 ?? "")) }) == set
            }
            guard !exists else { continue }
            let name = table + "_" + unique.joined(separator: "_") + "_unique"
            changes.append(.addUniqueIndex(name, columns: unique))
            statements.append(
                "CREATE UNIQUE INDEX \(SQLIdentifier.quoted(name)) ON \(quotedTable) ("
                    + unique.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
            try refuseDuplicates(unique)
        }

        // CHECK constraints, found by their text as PostgreSQL deparses it.
        var checksAdded: Set<String> = []
        for check in options.checks {
            let normalized = catalog.normalizedCheck(check.sql)
            guard !catalog.checks.contains(normalized), checksAdded.insert(normalized).inserted else { continue }
            changes.append(.addCheck(check.sql))
            statements.append(
                "ALTER TABLE \(quotedTable) ADD " + (check.name.map { "CONSTRAINT \(SQLIdentifier.quoted($0)) " } ?? "")
                    + "CHECK (\(check.sql))")
            try refuseCheckViolations(check.sql)
        }
    }

    /// The expression `ALTER COLUMN ... TYPE wanted USING` converts `column` with: through its text, which
    /// every type has, and a boolean through an integer when the new type is a number.
    static func conversion(of column: String, from oid: UInt32, to wanted: String) -> String {
        let numbers = ["BIGINT", "INTEGER", "SMALLINT", "DOUBLE PRECISION", "REAL", "NUMERIC"]
        if oid == PostgresType.bool, numbers.contains(wanted) { return "\(column)::integer::\(wanted)" }
        return "\(column)::text::\(wanted)"
    }

    /// A value as an SQL literal for a DEFAULT clause, as PostgreSQL reads it.
    static func literal(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return real.isFinite ? "\(real)" : real < 0 ? "'-Infinity'" : "'Infinity'"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'::bytea"
        }
    }

    /// The plan.
    func plan() -> SchemaChangePlan {
        SchemaChangePlan(dialect: .postgres, table: table, changes: changes, refusals: refusals, statements: statements)
    }

    /// The single integer `sql` returns.
    func integer(_ sql: String) throws -> Int {
        Int(try connection.query(sql)[0].decode(Int64?.self, at: 0) ?? 0)
    }
}
#endif
