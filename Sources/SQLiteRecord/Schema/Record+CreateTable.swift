import Foundation

extension Record {
    /// Creates the record's table from the type itself: one column per coding key, named as
    /// ``recordEncoder`` names them (snake_case under ``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase``),
    /// typed from the property types, NOT NULL unless the property is Optional, and the primary key: for a
    /// rowid key (`id: Int64?`) ``primaryKeyColumn`` as `INTEGER PRIMARY KEY`; for a key of one column of
    /// another type, that column `NOT NULL PRIMARY KEY`; for a composite key, its columns NOT NULL and a
    /// `PRIMARY KEY ("a", "b")` constraint. ``withoutRowID`` adds `WITHOUT ROWID`.
    ///
    /// ```swift
    /// try City.createTable(in: db)
    /// // CREATE TABLE "cities" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "population" INTEGER NOT NULL,
    /// //     "country_id" INTEGER, "founded_at" TEXT)
    /// ```
    ///
    /// Columns come in the order the type's `init(from:)` reads its keys: for a synthesized conformance, the
    /// order of the `CodingKeys` cases (of the properties when there is no `CodingKeys` enum).
    ///
    /// Declared types follow what the encoder stores: `INTEGER` for Bool and the integer types, `REAL` for
    /// Double and Float, `TEXT` for String, URL, nested structs, arrays and dictionaries (JSON), and for Date
    /// and UUID under the default strategies, `BLOB` for Data, and no declared type for Decimal, whose values
    /// are INTEGER, REAL or TEXT by value (see <doc:ValuesAndCoding>): a column with no type keeps each as
    /// written, so they sort and compare as numbers and every digit reads back. A
    /// RawRepresentable enum takes its raw value's type. The columns are found by decoding the type once
    /// from placeholder values; see ``SchemaProbeError`` for the types that cannot be.
    ///
    /// UNIQUE constraints, indexes, defaults, CHECK constraints and foreign keys come from the type's
    /// ``tableDefinition``: each default after its column's type, the constraints after the columns (and the
    /// composite primary key), in the order declared, then one `CREATE INDEX` per declared index and per
    /// foreign key that no declared index, UNIQUE constraint or the primary key starts with. In a
    /// ``DatabaseMigrator`` migration, prefer the SQL that ``createTableSQL(ifNotExists:)`` prints, pasted
    /// in: the migration then keeps creating the same table when the type changes later.
    /// - Parameters:
    ///   - db: the connection; inside a transaction the table is created in it.
    ///   - ifNotExists: true to do nothing when a table of that name exists (`CREATE TABLE IF NOT EXISTS`),
    ///     whatever its columns.
    /// - Throws: ``SchemaProbeError`` when the type cannot be probed; ``RecordError/missingPrimaryKey(table:column:)``
    ///   when no coding key names ``primaryKeyColumn``; ``DatabaseError`` from SQLite (`table ... already
    ///   exists` unless `ifNotExists`).
    ///
    /// For each of ``parentAssociations``, the foreign key column gets `REFERENCES "parent"("key")` with
    /// the association's `ON DELETE` action, and an index (`CREATE INDEX "cities_country_id" ON "cities"
    /// ("country_id")`) so that finding a parent's children, and checking the key on a parent's delete,
    /// reads no more than those rows. Both statements run in one transaction.
    public static func createTable(in db: Database, ifNotExists: Bool = false) throws {
        try db.execute(sql: createTableSQL(ifNotExists: ifNotExists))
    }

    /// The `CREATE TABLE` statement ``createTable(in:ifNotExists:)`` runs, to read or to paste into a
    /// migration.
    /// migration; with ``parentAssociations``, followed by `; CREATE INDEX ...` for each foreign key.
    /// - Throws: ``SchemaProbeError`` when the type cannot be probed; ``RecordError/missingPrimaryKey(table:column:)``
    ///   when no coding key names ``primaryKeyColumn``;
    ///   ``RecordError/invalidAssociation(association:reason:)`` when the type encodes no foreign key column;
    ///   ``RecordError/unknownColumn(table:column:columns:)`` for a ``tableDefinition`` column the type does
    ///   not encode.
    public static func createTableSQL(ifNotExists: Bool = false) throws -> String {
        try createTableSQL(ifNotExists: ifNotExists, dialect: .sqlite)
    }

    /// The `CREATE TABLE` statement in `dialect`: PostgresRecord's `createTable(in:)` runs the `.postgres`
    /// one, with the types of ``SQLDialect/declaredType(of:encoder:)`` and an identity rowid key.
    /// - Throws: as ``createTableSQL(ifNotExists:)``, and
    ///   ``RecordError/identifierTooLong(table:identifier:bytes:limit:)`` for a table, column, index or parent
    ///   name longer than the dialect's ``SQLDialect/maxIdentifierBytes``.
    package static func createTableSQL(ifNotExists: Bool, dialect: SQLDialect) throws -> String {
        let columns = try probedColumns()
        let keyColumns = try probedKeyColumns()
        for key in keyColumns where !columns.contains(where: { $0.name == key }) {
            throw RecordError.missingPrimaryKey(table: tableName, column: key)
        }
        // Names past the engine's limit are refused here, before the table exists under a name cut short.
        try dialect.checkIdentifiers([tableName] + columns.map(\.name), table: tableName)
        let encoder = recordEncoder
        let definition = try tableDefinitionSQL(probed: columns, keyColumns: keyColumns, ifNotExists: ifNotExists)
        var references: [String: String] = [:]
        var indexes: [String] = []
        var compositeKeys: [String] = []
        for association in parentAssociations where association.foreignKeyColumns.count > 1 {
            try compositeForeignKeySQL(
                association, columns: columns, definition: definition, ifNotExists: ifNotExists, dialect: dialect,
                constraints: &compositeKeys, indexes: &indexes)
        }
        for association in parentAssociations where association.foreignKeyColumns.count <= 1 {
            guard columns.contains(where: { $0.name == association.foreignKey }) else {
                throw RecordError.invalidAssociation(
                    association: association.associationDescription,
                    reason: "\(Self.self) encodes no \"\(association.foreignKey)\" column")
            }
            // A foreign key the table definition declares on the same column is the one written.
            let folded = RowLayout.asciiLowercased(association.foreignKey)
            if definition.foreignKeyColumns.contains(where: { $0.map(RowLayout.asciiLowercased) == [folded] }) {
                continue
            }
            let indexName = tableName + "_" + association.foreignKey
            try dialect.checkIdentifiers([association.parentTable, association.parentKey, indexName], table: tableName)
            references[association.foreignKey] =
                " REFERENCES " + SQLIdentifier.quoted(association.parentTable) + " ("
                + SQLIdentifier.quoted(association.parentKey) + ")"
                + (association.onDelete.map { " ON DELETE " + $0.rawValue } ?? "")
            indexes.append(
                "CREATE INDEX " + (ifNotExists ? "IF NOT EXISTS " : "")
                    + SQLIdentifier.quoted(indexName) + " ON "
                    + SQLIdentifier.quoted(tableName) + " (" + SQLIdentifier.quoted(association.foreignKey) + ")")
        }
        let singleKey = keyColumns.count == 1 ? keyColumns.first : nil
        var definitions = columns.map { column -> String in
            let name = SQLIdentifier.quoted(column.name)
            if keyIsRowID && column.name == singleKey { return name + " " + dialect.rowIDKeyDefinition }
            let type = dialect.declaredType(of: column, encoder: encoder)
            // NOT NULL for every key column: SQLite lets a rowid table's non-integer key hold NULL.
            let notNull = !column.isOptional || keyColumns.contains(column.name)
            let primaryKey = column.name == singleKey ? " PRIMARY KEY" : ""
            return name + (type.isEmpty ? "" : " " + type) + (notNull ? " NOT NULL" : "") + primaryKey
                + (definition.defaults[column.name].map { " DEFAULT " + $0 } ?? "") + (references[column.name] ?? "")
        }
        if keyColumns.count > 1 {
            definitions.append("PRIMARY KEY (" + keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
        }
        definitions += definition.constraints + compositeKeys
        let table =
            "CREATE TABLE " + (ifNotExists ? "IF NOT EXISTS " : "") + SQLIdentifier.quoted(tableName) + " ("
            + definitions.joined(separator: ", ") + ")"
            + (withoutRowID && dialect.hasWithoutRowIDTables ? " WITHOUT ROWID" : "")
        return ([table] + definition.indexes + indexes).joined(separator: "; ")
    }
}

extension Record {
    /// `FOREIGN KEY ("a", "b") REFERENCES "parent" ("x", "y") [ON DELETE ...]` and an index on the columns, for
    /// a ``parentAssociations`` declaration of several columns, appended to `constraints` and `indexes`;
    /// nothing when the table definition declares a foreign key on the same columns (it is the one written).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the column counts differ or the
    ///   type encodes no such column.
    fileprivate static func compositeForeignKeySQL(
        _ association: any ParentAssociation, columns: [RecordColumn], definition: TableDefinitionSQL,
        ifNotExists: Bool, dialect: SQLDialect, constraints: inout [String], indexes: inout [String]
    ) throws {
        let foreignKeys = association.foreignKeyColumns
        let parentKeys = association.parentKeyColumns
        guard foreignKeys.count == parentKeys.count else {
            throw RecordError.invalidAssociation(
                association: association.associationDescription,
                reason: "the foreign key has \(foreignKeys.count) columns and the parent key \(parentKeys.count)")
        }
        for column in foreignKeys where !columns.contains(where: { $0.name == column }) {
            throw RecordError.invalidAssociation(
                association: association.associationDescription, reason: "\(Self.self) encodes no \"\(column)\" column")
        }
        let folded = foreignKeys.map(RowLayout.asciiLowercased)
        if definition.foreignKeyColumns.contains(where: { $0.map(RowLayout.asciiLowercased) == folded }) { return }
        let indexName = tableName + "_" + foreignKeys.joined(separator: "_")
        try dialect.checkIdentifiers([association.parentTable, indexName] + parentKeys, table: tableName)
        let list = { (names: [String]) in "(" + names.map(SQLIdentifier.quoted).joined(separator: ", ") + ")" }
        constraints.append(
            "FOREIGN KEY " + list(foreignKeys) + " REFERENCES " + SQLIdentifier.quoted(association.parentTable) + " "
                + list(parentKeys) + (association.onDelete.map { " ON DELETE " + $0.rawValue } ?? ""))
        indexes.append(
            "CREATE INDEX " + (ifNotExists ? "IF NOT EXISTS " : "")
                + SQLIdentifier.quoted(indexName) + " ON "
                + SQLIdentifier.quoted(tableName) + " " + list(foreignKeys))
    }
}

/// A column a record type reads and writes, found by probing the type (``SchemaProbe``) and naming its
/// keys as the type's encoder and decoder do.
package struct RecordColumn: Equatable {
    /// The coding key's string value.
    package let key: String
    /// The column the encoder writes, under ``RecordEncoder/keyEncodingStrategy``: the name CREATE TABLE
    /// declares. SQLite matches it ASCII-case-insensitively.
    package let name: String
    /// The column the decoder reads, under ``RowDecoder/keyDecodingStrategy``. Table-backed fetches select
    /// `*`, whose result columns carry the names as declared; the decoder matches them as SQLite does, an
    /// exact spelling first, then ASCII case-insensitively.
    package let readName: String
    package let kind: ProbedValueKind
    /// True for an Optional property: nil is stored as NULL.
    package let isOptional: Bool
    /// The property's Swift type, for messages.
    package let valueType: String

    /// A column of a table described by hand (`sqlite-record-gen diff`, which has no Swift type to probe).
    package init(
        key: String, name: String, readName: String, kind: ProbedValueKind, isOptional: Bool, valueType: String
    ) {
        self.key = key
        self.name = name
        self.readName = readName
        self.kind = kind
        self.isOptional = isOptional
        self.valueType = valueType
    }

    /// The storage class the encoder writes for this column, as the declared type CREATE TABLE gives it:
    /// `INTEGER`, `REAL`, `TEXT` or `BLOB`, or "" (no declared type, which stores values as given) when
    /// the encoder's custom date function does not say.
    func declaredType(encoder: RecordEncoder) -> String {
        switch kind {
        case .bool, .integer: return "INTEGER"
        case .real: return "REAL"
        case .string, .url, .nested: return "TEXT"
        // No declared type (BLOB affinity): each value keeps the storage class the encoder chose, so numbers
        // compare as numbers and a Decimal with more digits than a Double holds stays TEXT with every digit.
        // NUMERIC would turn that text into a REAL of 15 significant digits, which the affinity guard refuses.
        case .decimal: return ""
        case .data: return "BLOB"
        case .uuid:
            switch encoder.uuidEncodingStrategy {
            case .lowercaseText: return "TEXT"
            case .blob: return "BLOB"
            }
        case .date: return Self.dateStorage(encoder: encoder)?.storageClassName ?? ""
        case .unknown: return ""
        }
    }

    /// What the encoder stores a date as: a sample value of the storage class, nil when unknown (a custom
    /// function that throws for the epoch, or returns NULL for it).
    static func dateStorage(encoder: RecordEncoder) -> SQLiteValue? {
        switch encoder.dateEncodingStrategy {
        case .sqliteText, .iso8601, .formatted: return .text("")
        case .unixSeconds: return .real(0)
        case .unixMilliseconds: return .integer(0)
        case .custom(let write):
            guard let sample = try? write(Date(timeIntervalSince1970: 0)), sample != .null else { return nil }
            return sample
        }
    }
}

extension Record {
    /// The key's columns as the encoder names them: ``primaryKeyColumn`` for a key of one column, the coding
    /// keys of the key's struct for a composite key.
    /// - Throws: ``SchemaProbeError`` when a composite key's type cannot be probed.
    package static func probedKeyColumns() throws -> [String] {
        guard !keyIsRowID, keyIsComposite() else { return [primaryKeyColumn] }
        let encoder = recordEncoder
        return try SchemaProbe.keys(of: ID.self, table: tableName).map { probed in
            switch encoder.keyEncodingStrategy {
            case .useDefaultKeys: return probed.key
            case .convertToSnakeCase: return KeyCase.snakeCase(probed.key)
            }
        }
    }

    /// The type's columns, in the order its `init(from:)` reads them.
    /// - Throws: ``SchemaProbeError`` when the type cannot be decoded from placeholder values.
    package static func probedColumns() throws -> [RecordColumn] {
        let encoder = recordEncoder
        let decoder = rowDecoder
        return try SchemaProbe.keys(of: Self.self, table: tableName).map { probed in
            let name: String
            switch encoder.keyEncodingStrategy {
            case .useDefaultKeys: name = probed.key
            case .convertToSnakeCase: name = KeyCase.snakeCase(probed.key)
            }
            let readName: String
            switch decoder.keyDecodingStrategy {
            case .useDefaultKeys: readName = probed.key
            case .convertFromSnakeCase: readName = KeyCase.snakeCase(probed.key)
            }
            return RecordColumn(
                key: probed.key, name: name, readName: readName, kind: probed.kind ?? .unknown,
                isOptional: probed.isOptional, valueType: probed.valueType)
        }
    }
}
