/// One difference between a record type and its table, found by ``Record/schemaChanges(in:options:)``: what a
/// migration must change for the table to hold the type.
public enum SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// The table does not exist: `CREATE TABLE`, as ``Record/createTableSQL(ifNotExists:)`` writes it.
    case createTable(String)
    /// A column the type writes that the table lacks, with its definition (`"note" TEXT`, `"rank" INTEGER
    /// NOT NULL DEFAULT 0`): `ALTER TABLE ADD COLUMN` where SQLite allows it, a rebuild otherwise.
    case addColumn(String, definition: String)
    /// A column the caller declared renamed (``SchemaChangeOptions/renamedColumns``):
    /// `ALTER TABLE RENAME COLUMN`, which keeps its values, indexes and references.
    case renameColumn(from: String, to: String)
    /// A column the type no longer has, dropped by a rebuild: it holds no value, or the plan was made with
    /// ``SchemaChangeOptions/dropsColumns``.
    case dropColumn(String)
    /// A column the type no longer has that holds `valueCount` non-NULL values: kept, since the plan was made
    /// without ``SchemaChangeOptions/dropsColumns``; on PostgreSQL also an empty column of a type no Swift type
    /// reads (`time`, `interval`, `inet`...), which a record type cannot have. No SQL.
    case keepColumn(String, valueCount: Int)
    /// A column whose declared type gives it an affinity that does not hold the property's values
    /// (`population TEXT` for an `Int`): a rebuild with the type ``Record/createTable(in:ifNotExists:)``
    /// would declare.
    case changeColumnType(String, from: String, to: String)
    /// A column that must become NOT NULL (a non-Optional property) or nullable (an Optional one): a rebuild.
    case changeNullability(String, isNotNull: Bool)
    /// The table's primary key is not the type's key (nor a UNIQUE constraint on its columns): a rebuild
    /// with the type's key. `to` is empty for none.
    case changePrimaryKey(from: [String], to: [String])
    /// The type's ``Record/withoutRowID`` differs from the table's: a rebuild.
    case changeWithoutRowID(Bool)
    /// A UNIQUE constraint the table lacks: `CREATE UNIQUE INDEX`.
    case addUniqueIndex(String, columns: [String])
    /// A ``Record/parentAssociations`` foreign key the table lacks (`REFERENCES "countries" ("id")`): a rebuild.
    case addForeignKey(String, references: String)
    /// A CHECK constraint the table lacks (``SchemaChangeOptions/checks``, `population >= 0`): a rebuild,
    /// since `ALTER TABLE` adds none.
    case addCheck(String)

    /// True when SQLite's `ALTER TABLE` cannot make the change and the table must be rebuilt
    /// (<https://www.sqlite.org/lang_altertable.html#otheralter>).
    public var requiresRebuild: Bool {
        switch self {
        case .createTable, .renameColumn, .keepColumn, .addUniqueIndex: return false
        case .addColumn(_, let definition): return !SchemaChange.canAddColumn(definition)
        case .dropColumn, .changeColumnType, .changeNullability, .changePrimaryKey, .changeWithoutRowID,
            .addForeignKey, .addCheck:
            return true
        }
    }

    /// True when `ALTER TABLE ADD COLUMN` accepts `definition`: not a key, not UNIQUE, and not NOT NULL
    /// without a default (<https://www.sqlite.org/lang_altertable.html#altertabaddcol>).
    static func canAddColumn(_ definition: String) -> Bool {
        let upper = definition.uppercased()
        if upper.contains(" PRIMARY KEY") || upper.contains(" UNIQUE") { return false }
        if upper.contains(" NOT NULL") && !upper.contains(" DEFAULT ") { return false }
        return true
    }

    /// One line for a log.
    public var description: String {
        switch self {
        case .createTable(let table): return "create table \"\(table)\""
        case .addColumn(_, let definition): return "add column \(definition)"
        case .renameColumn(let from, let to): return "rename column \"\(from)\" to \"\(to)\""
        case .dropColumn(let column): return "drop column \"\(column)\""
        case .keepColumn(let column, let count):
            return "keep column \"\(column)\", which the type does not have: it holds \(count) values"
        case .changeColumnType(let column, let from, let to):
            return "change the type of column \"\(column)\" from \(from.isEmpty ? "none" : from) to "
                + (to.isEmpty ? "none" : to)
        case .changeNullability(let column, let isNotNull):
            return "make column \"\(column)\" \(isNotNull ? "NOT NULL" : "nullable")"
        case .changePrimaryKey(let from, let to):
            let list = { (columns: [String]) in
                columns.isEmpty ? "none" : "(" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ")"
            }
            return "change the primary key from \(list(from)) to \(list(to))"
        case .changeWithoutRowID(let withoutRowID):
            return withoutRowID ? "make the table WITHOUT ROWID" : "give the table a rowid"
        case .addUniqueIndex(let name, let columns):
            return "add UNIQUE index \"\(name)\" on (" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ")"
        case .addForeignKey(let column, let references):
            return "add foreign key \"\(column)\" \(references)"
        case .addCheck(let sql):
            return "add CHECK (\(sql))"
        }
    }
}

/// What a caller declares for ``Record/schemaChanges(in:options:)`` that the type cannot say itself.
public struct SchemaChangeOptions: Sendable, Equatable {
    /// Columns renamed since the table was made: the table's old name to the type's new one
    /// (`["name": "title"]`). Without it, a rename looks like one column dropped and another added.
    public var renamedColumns: [String: String]
    /// True to drop the columns the type no longer has even when they hold values. False by default: such a
    /// column is kept (``SchemaChange/keepColumn(_:valueCount:)``), and only empty ones are dropped.
    public var dropsColumns: Bool
    /// The DEFAULT of each column to add, by column name: what existing rows get, and what lets SQLite add
    /// a NOT NULL column to a table with rows. The value defaults of the type's ``Record/tableDefinition``
    /// are added to these; one given here for the same column wins.
    public var defaults: [String: SQLiteValue]
    /// UNIQUE constraints the table must have, each a list of columns, beside the UNIQUE keys and unique
    /// indexes of the type's ``Record/tableDefinition``; the plan refuses them over rows that violate them.
    public var uniqueKeys: [[String]]
    /// CHECK constraints the table must have, beside those of the type's ``Record/tableDefinition``; one the
    /// table lacks is added by a rebuild, and the plan refuses it over rows that fail it
    /// (``SchemaChangeError/checkViolations(table:check:count:rows:)``). A table's CHECK is found by its
    /// text, compared as ``Record/validateSchema(in:)`` compares it (case and whitespace aside).
    public var checks: [TableDefinition.Check]

    /// Options; each defaults to nothing declared.
    public init(
        renamedColumns: [String: String] = [:], dropsColumns: Bool = false, defaults: [String: SQLiteValue] = [:],
        uniqueKeys: [[String]] = [], checks: [TableDefinition.Check] = []
    ) {
        self.renamedColumns = renamedColumns
        self.dropsColumns = dropsColumns
        self.defaults = defaults
        self.uniqueKeys = uniqueKeys
        self.checks = checks
    }
}

/// Why a ``SchemaChangePlan`` cannot be applied without losing or changing stored values: found before
/// anything is written, each naming the table, the column and the rows.
public enum SchemaChangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A column that must become NOT NULL (or a new key column) holds NULL in these rows.
    case nullValues(table: String, column: String, rows: [String])
    /// The rows that share a value of the columns that must become UNIQUE (or the new primary key).
    case duplicateValues(table: String, columns: [String], rows: [String])
    /// A NOT NULL column without a default cannot be added to a table with rows: give it one in
    /// ``SchemaChangeOptions/defaults``.
    case missingDefault(table: String, column: String, rowCount: Int)
    /// The rebuild would store these rows' values of the column differently (`'00120'` becoming `120`), or
    /// store values the property's type cannot read (`'abc'` for an `Int`).
    case valuesWouldChange(table: String, column: String, rows: [String])
    /// The table declares something a rebuild from its columns cannot carry over (a CHECK constraint or a
    /// generated column naming a column the plan drops, a generated column whose type or NOT NULL the plan
    /// would change), or foreign keys are on for a
    /// rebuild: write that migration by hand.
    case cannotRebuild(table: String, reason: String)
    /// The record's table is a view or a virtual table: it has no columns to change.
    case notATable(String)
    /// The column holds `count` non-NULL values that the property's type (`valueType`) cannot read, as they
    /// are or as the plan's new declared type would store them (`'A1'` for an `Int`): after the plan a
    /// fetch would throw on those rows. `rows` names up to ten, each with its value as SQL writes it.
    case unreadableValues(table: String, column: String, valueType: String, count: Int, rows: [String])
    /// After the rebuild, these rows (`TABLE rowid N`) reference a parent row that does not exist
    /// (`PRAGMA foreign_key_check`): the plan is rolled back.
    case foreignKeyViolations(table: String, rows: [String])
    /// `count` rows fail the CHECK constraint the plan adds (`check`, its expression): SQLite would refuse
    /// the rebuild's copy of them. `rows` names up to ten, as the other refusals do.
    case checkViolations(table: String, check: String, count: Int, rows: [String])
    /// The plan was made on another engine (`engine`, its name) and holds that engine's SQL: apply it through
    /// a connection of that engine.
    case plannedForAnotherEngine(table: String, engine: String)

    /// One message for a log.
    public var description: String {
        func rows(_ list: [String]) -> String { list.joined(separator: ", ") }
        switch self {
        case .nullValues(let table, let column, let list):
            return "column \"\(column)\" of table \"\(table)\" cannot become NOT NULL: NULL in \(rows(list))"
        case .duplicateValues(let table, let columns, let list):
            let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            return "(\(names)) of table \"\(table)\" cannot become unique: rows sharing a value: \(rows(list))"
        case .missingDefault(let table, let column, let count):
            return "NOT NULL column \"\(column)\" cannot be added to table \"\(table)\", which has \(count) rows, "
                + "without a default: give one in SchemaChangeOptions.defaults"
        case .valuesWouldChange(let table, let column, let list):
            return "the rebuild of table \"\(table)\" would change or lose the value of column \"\(column)\" in "
                + rows(list)
        case .cannotRebuild(let table, let reason):
            return "table \"\(table)\" cannot be rebuilt from its columns: \(reason); write this migration by hand"
        case .notATable(let name):
            return "\"\(name)\" is not a table"
        case .unreadableValues(let table, let column, let valueType, let count, let list):
            return "column \"\(column)\" of table \"\(table)\" holds \(count) value\(count == 1 ? "" : "s") that "
                + "\(valueType) cannot read: \(rows(list))\(count > list.count ? ", ..." : "")"
        case .foreignKeyViolations(let table, let list):
            return "the rebuild of table \"\(table)\" leaves rows whose foreign key references no row: \(rows(list))"
        case .plannedForAnotherEngine(let table, let engine):
            return "the schema changes of table \"\(table)\" were planned on \(engine): apply them there"
        case .checkViolations(let table, let check, let count, let list):
            return "CHECK (\(check)) cannot be added to table \"\(table)\": \(count) row\(count == 1 ? "" : "s") "
                + "fail\(count == 1 ? "s" : "") it: \(rows(list))\(count > list.count ? ", ..." : "")"
        }
    }
}
