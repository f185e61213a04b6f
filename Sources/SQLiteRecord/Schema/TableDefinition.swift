import Foundation

/// What a record type's table declares beyond its columns: UNIQUE constraints, indexes, column defaults, CHECK
/// constraints and foreign keys with their actions. Declared once on the type (``Record/tableDefinition``),
/// it is what ``Record/createTable(in:ifNotExists:)`` writes and what ``Record/validateSchema(in:)`` checks.
///
/// ```swift
/// struct Country: Record {
///     var id: Int64?
///     var name: String
///     var iso: String
///     var population: Int64
///     var continentID: Int64?
///     static let tableName = "countries"
///     enum CodingKeys: String, CodingKey { case id, name, iso, population, continentID = "continent_id" }
///     static let tableDefinition = TableDefinition()
///         .unique(CodingKeys.iso)
///         .index(CodingKeys.name)
///         .defaultValue(CodingKeys.population, 0)
///         .check("population >= 0")
///         .foreignKey(CodingKeys.continentID, references: "continents", onDelete: .setNull)
/// }
/// // CREATE TABLE "countries" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "iso" TEXT NOT NULL,
/// //     "population" INTEGER NOT NULL DEFAULT 0, "continent_id" INTEGER, UNIQUE ("iso"),
/// //     CHECK (population >= 0),
/// //     FOREIGN KEY ("continent_id") REFERENCES "continents" ON DELETE SET NULL);
/// // CREATE INDEX "countries_name" ON "countries" ("name");
/// // CREATE INDEX "countries_continent_id" ON "countries" ("continent_id")
/// ```
///
/// A definition is a plain value: its parts are public arrays, in the order declared, to read or compare.
/// Columns are ``Column``s: a coding key names the column the record's encoder writes for it (through its
/// key strategy), a string names a column as it is. A UNIQUE constraint makes
/// ``Record/upsert(_:onConflict:updating:)-method`` on those columns work without a hand-written
/// `CREATE UNIQUE INDEX`. See <https://www.sqlite.org/lang_createtable.html>.
public struct TableDefinition: Sendable, Hashable {
    /// A UNIQUE table constraint on one or more columns: no two rows have the same values in all of them
    /// (NULLs are distinct, as SQLite compares them).
    public struct UniqueKey: Sendable, Hashable {
        /// The columns, in order.
        public var columns: [ColumnName]
        /// Makes a constraint on `columns`.
        public init(columns: [Column]) { self.columns = columns.map(ColumnName.init) }
    }

    /// A `CREATE INDEX` on the table.
    public struct Index: Sendable, Hashable {
        /// The index's name; nil for `<table>_<column>_<column>...`.
        public var name: String?
        /// The indexed columns, in order.
        public var columns: [ColumnName]
        /// True for `CREATE UNIQUE INDEX`.
        public var isUnique: Bool
        /// Makes an index on `columns`.
        public init(name: String? = nil, columns: [Column], isUnique: Bool = false) {
            self.name = name
            self.columns = columns.map(ColumnName.init)
            self.isUnique = isUnique
        }
    }

    /// The value a column takes when an INSERT names no value for it: `DEFAULT ...` in the column's
    /// definition. The record calls write every column they encode (nil as NULL), so a default serves rows
    /// other code inserts, and columns the type does not encode.
    public enum DefaultValue: Sendable, Hashable {
        /// A constant, written as an SQL literal: `0`, `1.5`, `'text'` (quotes doubled), `X'0102'`, `NULL`.
        case value(SQLiteValue)
        /// An SQL expression, written in parentheses unless it is `CURRENT_TIME`, `CURRENT_DATE` or
        /// `CURRENT_TIMESTAMP`: `.sql("CURRENT_TIMESTAMP")`, `.sql("strftime('%s', 'now')")`.
        case sql(String)
    }

    /// A column and its default.
    public struct ColumnDefault: Sendable, Hashable {
        /// The column.
        public var column: ColumnName
        /// Its default.
        public var value: DefaultValue
        /// Makes a default of `column`.
        public init(column: Column, value: DefaultValue) {
            self.column = ColumnName(column)
            self.value = value
        }
    }

    /// A CHECK table constraint: an SQL expression every row must make true (or NULL).
    public struct Check: Sendable, Hashable {
        /// The constraint's name (`CONSTRAINT "name" CHECK (...)`), which SQLite's error names; nil for none.
        public var name: String?
        /// The expression, written as given inside `CHECK (...)`: `population >= 0`.
        public var sql: String
        /// Makes a check.
        public init(name: String? = nil, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// A FOREIGN KEY table constraint: the columns hold a key of the parent table's row, or NULL.
    /// See <https://www.sqlite.org/foreignkeys.html>.
    public struct ForeignKey: Sendable, Hashable {
        /// The child table's columns, in order.
        public var columns: [ColumnName]
        /// The parent table.
        public var parentTable: String
        /// The parent's columns, in the order of ``columns``; empty for the parent's primary key
        /// (`REFERENCES "parent"`, as SQLite reads it).
        public var parentColumns: [String]
        /// What deleting the parent row does to this row; nil for SQLite's default, `NO ACTION`.
        public var onDelete: ForeignKeyAction?
        /// What changing the parent's key does to this row; nil for SQLite's default, `NO ACTION`.
        public var onUpdate: ForeignKeyAction?
        /// True for `DEFERRABLE INITIALLY DEFERRED`: the key is checked when the transaction commits, not
        /// after each statement.
        public var isDeferred: Bool
        /// Makes a foreign key.
        public init(
            columns: [Column], parentTable: String, parentColumns: [String] = [], onDelete: ForeignKeyAction? = nil,
            onUpdate: ForeignKeyAction? = nil, isDeferred: Bool = false
        ) {
            self.columns = columns.map(ColumnName.init)
            self.parentTable = parentTable
            self.parentColumns = parentColumns
            self.onDelete = onDelete
            self.onUpdate = onUpdate
            self.isDeferred = isDeferred
        }
    }

    /// The UNIQUE constraints, in the order declared.
    public var uniqueKeys: [UniqueKey]
    /// The indexes, in the order declared.
    public var indexes: [Index]
    /// The column defaults, in the order declared.
    public var defaults: [ColumnDefault]
    /// The CHECK constraints, in the order declared.
    public var checks: [Check]
    /// The foreign keys, in the order declared. Each gets an index on its columns, as a
    /// ``Record/parentAssociations`` declaration's does, unless a declared index, UNIQUE constraint or the
    /// primary key already starts with them.
    public var foreignKeys: [ForeignKey]

    /// A definition with the given parts; all empty by default (the table then has only the columns, NOT NULL
    /// and primary key the type gives it).
    public init(
        uniqueKeys: [UniqueKey] = [], indexes: [Index] = [], defaults: [ColumnDefault] = [], checks: [Check] = [],
        foreignKeys: [ForeignKey] = []
    ) {
        self.uniqueKeys = uniqueKeys
        self.indexes = indexes
        self.defaults = defaults
        self.checks = checks
        self.foreignKeys = foreignKeys
    }

    /// True when nothing is declared.
    public var isEmpty: Bool {
        uniqueKeys.isEmpty && indexes.isEmpty && defaults.isEmpty && checks.isEmpty && foreignKeys.isEmpty
    }
}

/// The builder: each method returns the definition with one more part.
extension TableDefinition {
    /// Adds a UNIQUE constraint on the columns of `keys`: `.unique(CodingKeys.iso)`.
    public func unique<Key: CodingKey>(_ keys: Key...) -> Self {
        unique(keys.map { Column($0) })
    }

    /// Adds a UNIQUE constraint on `columns`.
    public func unique(_ columns: [Column]) -> Self {
        var copy = self
        copy.uniqueKeys.append(UniqueKey(columns: columns))
        return copy
    }

    /// Adds an index on the columns of `keys`, named `<table>_<column>...` unless `name` is given.
    public func index<Key: CodingKey>(_ keys: Key..., name: String? = nil, isUnique: Bool = false) -> Self {
        index(keys.map { Column($0) }, name: name, isUnique: isUnique)
    }

    /// Adds an index on `columns`.
    public func index(_ columns: [Column], name: String? = nil, isUnique: Bool = false) -> Self {
        var copy = self
        copy.indexes.append(Index(name: name, columns: columns, isUnique: isUnique))
        return copy
    }

    /// Gives the column of `key` a constant default: `.defaultValue(CodingKeys.population, 0)`. The value is
    /// its ``SQLiteValueConvertible`` form (an enum declared `SQLiteValueConvertible`, its raw value).
    public func defaultValue<Key: CodingKey>(_ key: Key, _ value: some SQLiteValueConvertible) -> Self {
        defaultValue(Column(key), .value(value.sqliteValue))
    }

    /// Gives the column of `key` a default: `.defaultValue(CodingKeys.createdAt, .sql("CURRENT_TIMESTAMP"))`.
    public func defaultValue<Key: CodingKey>(_ key: Key, _ value: DefaultValue) -> Self {
        defaultValue(Column(key), value)
    }

    /// Gives `column` a default.
    public func defaultValue(_ column: Column, _ value: DefaultValue) -> Self {
        var copy = self
        copy.defaults.append(ColumnDefault(column: column, value: value))
        return copy
    }

    /// Adds a CHECK constraint: `.check("population >= 0")`, written as given.
    public func check(_ sql: String, name: String? = nil) -> Self {
        var copy = self
        copy.checks.append(Check(name: name, sql: sql))
        return copy
    }

    /// Adds a foreign key from the columns of `keys` to `parentTable`'s `parentColumns` (empty: its primary
    /// key): `.foreignKey(CodingKeys.countryID, references: "countries", onDelete: .cascade)`.
    public func foreignKey<Key: CodingKey>(
        _ keys: Key..., references parentTable: String, columns parentColumns: [String] = [],
        onDelete: ForeignKeyAction? = nil, onUpdate: ForeignKeyAction? = nil, isDeferred: Bool = false
    ) -> Self {
        foreignKey(
            keys.map { Column($0) }, references: parentTable, columns: parentColumns, onDelete: onDelete,
            onUpdate: onUpdate, isDeferred: isDeferred)
    }

    /// Adds a foreign key from `columns`.
    public func foreignKey(
        _ columns: [Column], references parentTable: String, columns parentColumns: [String] = [],
        onDelete: ForeignKeyAction? = nil, onUpdate: ForeignKeyAction? = nil, isDeferred: Bool = false
    ) -> Self {
        var copy = self
        copy.foreignKeys.append(
            ForeignKey(
                columns: columns, parentTable: parentTable, parentColumns: parentColumns, onDelete: onDelete,
                onUpdate: onUpdate, isDeferred: isDeferred))
        return copy
    }
}

extension TableDefinition {
    /// A column as a definition names it: by a coding key of the record type (resolved through its key
    /// strategy when the table is created or checked) or by a string, taken as it is. A ``Column`` turns
    /// into one as it is given.
    public struct ColumnName: Sendable, Hashable, CustomStringConvertible {
        /// The coding key's string value, or the column's name.
        public let name: String
        /// True when ``name`` is a coding key's string value, which the record type's key strategy converts
        /// (``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase``).
        public let isCodingKey: Bool

        /// The column `column` names.
        public init(_ column: Column) {
            name = column.name
            isCodingKey = column.isCodingKey
        }

        /// The name, quoted: `"country_id"`.
        public var description: String { SQLIdentifier.quoted(name) }

        /// The column, to use in a request.
        var column: Column { isCodingKey ? Column(codingKeyName: name) : Column(name) }
    }
}

extension Column {
    /// The column of a coding key whose string value is `name`.
    init(codingKeyName name: String) {
        self.init(ColumnCodingKey(stringValue: name))
    }
}
