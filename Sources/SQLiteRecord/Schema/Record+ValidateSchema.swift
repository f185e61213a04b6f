extension Record {
    /// SQLite's schema check: what `Database` answers for ``validateSchema(in:)``.
    static func validateSchema(in db: Database) throws {
        let probed = try probedColumns()
        let keyColumns = try probedKeyColumns()
        for key in keyColumns where !probed.contains(where: { $0.name == key }) {
            throw RecordError.missingPrimaryKey(table: tableName, column: key)
        }
        // Tables and views, temporary ones included, as columns(in:) finds them.
        guard try db.hasColumns(tableName) else {
            throw SchemaValidationError(
                recordType: "\(Self.self)", table: tableName, mismatches: [.missingTable(tableName)])
        }
        let columns = try db.columns(in: tableName)
        var mismatches = probed.flatMap { columnMismatches(of: $0, in: columns) }
        if let keyMismatch = try keyMismatch(keyColumns, probed: probed, db: db) { mismatches.append(keyMismatch) }
        mismatches += try foreignKeyMismatches(db)
        if !tableDefinition.isEmpty, try db.tableExists(tableName) {
            mismatches += try tableDefinitionMismatches(tableConstraintCatalog(db, columns: columns), probed: probed)
        }
        guard mismatches.isEmpty else {
            throw SchemaValidationError(recordType: "\(Self.self)", table: tableName, mismatches: mismatches)
        }
    }

    /// The ``parentAssociations`` the table's foreign keys contradict: no foreign key on the column, one to
    /// another table or column, or another `ON DELETE` action than the declaration's.
    private static func foreignKeyMismatches(_ db: Database) throws -> [SchemaMismatch] {
        guard !parentAssociations.isEmpty, try db.tableExists(tableName) else { return [] }
        let keys = try db.foreignKeys(in: tableName)
        let folded = RowLayout.asciiLowercased
        // A foreign key of several columns is named by its columns joined with ", ", and its parent columns
        // listed the same way inside the parentheses.
        return parentAssociations.compactMap { association in
            let foreignKeys = association.foreignKeyColumns
            let name = foreignKeys.joined(separator: ", ")
            let declared =
                "REFERENCES \"\(association.parentTable)\"("
                + association.parentKeyColumns.map { "\"\($0)\"" }.joined(separator: ", ") + ")"
                + (association.onDelete.map { " ON DELETE " + $0.rawValue } ?? "")
            guard let key = keys.first(where: { $0.columns.map(folded) == foreignKeys.map(folded) }) else {
                return .foreignKey(name, declared: declared, table: nil)
            }
            let parentColumns = key.parentColumns.map { $0 ?? "" }
            let found =
                "REFERENCES \"\(key.parentTable)\"(" + parentColumns.map { "\"\($0)\"" }.joined(separator: ", ")
                + ") ON DELETE \(key.onDelete)"
            let sameTable = folded(key.parentTable) == folded(association.parentTable)
            // A foreign key that names no parent column refers to the parent's primary key.
            let sameColumns =
                key.parentColumns.allSatisfy { $0 == nil }
                || parentColumns.map(folded) == association.parentKeyColumns.map(folded)
            let sameAction = association.onDelete.map { $0.rawValue == key.onDelete } ?? true
            return sameTable && sameColumns && sameAction ? nil : .foreignKey(name, declared: declared, table: found)
        }
    }

    /// The key mismatch, when the type's key columns are neither the table's primary key nor a UNIQUE
    /// constraint on exactly those columns (views have no key to compare).
    private static func keyMismatch(
        _ keyColumns: [String], probed: [RecordColumn], db: Database
    ) throws -> SchemaMismatch? {
        let shape = try db.tableShape(tableName)
        if shape.isView { return nil }
        // The rowid holds only integers: a UUID, text or enum-of-text key can never be stored there.
        if keyColumns.count == 1, let alias = shape.rowIDAlias,
            RowLayout.asciiLowercased(alias) == RowLayout.asciiLowercased(keyColumns[0]),
            let column = probed.first(where: { $0.name == keyColumns[0] }), column.kind != .integer,
            column.kind != .bool
        {
            return .incompatibleColumn(
                alias, declaredType: "INTEGER PRIMARY KEY", valueType: column.valueType,
                reason: "an INTEGER PRIMARY KEY column is the table's rowid, which holds only integers")
        }
        let key = Set(keyColumns.map(RowLayout.asciiLowercased))
        if Set(shape.primaryKey.map(RowLayout.asciiLowercased)) == key { return nil }
        let unique = try db.indexes(on: tableName).contains { index in
            index.isUnique && !index.isPartial && Set(index.columns.map { RowLayout.asciiLowercased($0 ?? "") }) == key
        }
        return unique ? nil : .primaryKey(keyColumns, tablePrimaryKey: shape.primaryKey)
    }

    /// The mismatches of one probed column with the table's columns.
    private static func columnMismatches(of column: RecordColumn, in columns: [ColumnInfo]) -> [SchemaMismatch] {
        // As the decoder and SQLite find them (ColumnNameIndex): an exact spelling, else up to ASCII case.
        let names = ColumnNameIndex(columns.map(\.name))
        let read = names.index(of: column.readName).map { columns[Int($0)] }
        let written = names.index(of: column.name).map { columns[Int($0)] }
        var found: [SchemaMismatch] = []
        if read == nil {
            found.append(missing(column.readName, column))
        }
        if column.name != column.readName && written == nil {
            found.append(missing(column.name, column))
        }
        guard let table = read ?? written else { return found }
        if let reason = column.incompatibility(with: table.affinity, encoder: recordEncoder, decoder: rowDecoder) {
            found.append(
                .incompatibleColumn(
                    table.name, declaredType: table.declaredType, valueType: column.valueType, reason: reason))
        }
        return found
    }

    private static func missing(_ name: String, _ column: RecordColumn) -> SchemaMismatch {
        .missingColumn(name, key: column.key, valueType: column.valueType, isOptional: column.isOptional)
    }
}

extension RecordColumn {
    /// Why a column with `affinity` can never give this property's values back, or nil when it can hold
    /// them. See ``Record/validateSchema(in:)`` for the rule.
    func incompatibility(
        with affinity: ColumnAffinity, encoder: RecordEncoder, decoder: RowDecoder
    ) -> String? {
        // Only TEXT affinity rewrites every value of a storage class: each INTEGER or REAL put in such a
        // column is stored as its text. Other affinities convert only some values (numeric-looking text,
        // whole REALs) into forms the decoder reads back, or none.
        guard affinity == .text else { return nil }
        let rewritten = "SQLite stores every number put in a column with TEXT affinity as text"
        switch kind {
        case .integer, .real:
            return "\(rewritten), and \(valueType) reads only INTEGER and REAL values"
        case .date:
            switch Self.dateStorage(encoder: encoder) {
            case .integer, .real:
                switch decoder.dateDecodingStrategy {
                case .automatic:
                    return "\(rewritten), and a date stored as a number reads back as text that is not a date"
                case .unixSeconds, .unixMilliseconds:
                    return "\(rewritten), and the unix date strategy reads only INTEGER and REAL values"
                case .iso8601, .formatted, .custom:
                    return nil
                }
            default:
                return nil
            }
        case .bool, .string, .data, .uuid, .url, .decimal, .nested, .unknown:
            // Bool reads "0" and "1" as text; the others are written as TEXT or BLOB, which TEXT affinity
            // keeps as they are.
            return nil
        }
    }
}

/// One way a record type and its table disagree, found by ``Record/validateSchema(in:)``.
public enum SchemaMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The database has no table (or view) of that name.
    case missingTable(String)
    /// The table has no column of that name for the coding key `key`. Fetches throw `keyNotFound` at the
    /// first row, Optional keys included (table-backed fetches read every key), and saves fail with SQLite's
    /// `table ... has no column named ...`, since nil is written as NULL.
    case missingColumn(String, key: String, valueType: String, isOptional: Bool)
    /// The table has the column only under another case (`Name` for `name`). No longer reported: the
    /// decoder now matches column names as SQLite does, ASCII case-insensitively, so such a column reads and
    /// writes. Kept so that code that switches over mismatches still compiles.
    case columnNameCase(String, tableColumn: String)
    /// The column's declared type gives it an affinity that can never give back the property's values:
    /// every value saved would fail to decode. `reason` says why.
    case incompatibleColumn(String, declaredType: String, valueType: String, reason: String)

    /// The type's key columns (the rowid column, one column, or a composite key's) are neither the table's
    /// primary key (`tablePrimaryKey`, empty when it declares none) nor a UNIQUE constraint on exactly those
    /// columns: calls by key would throw ``RecordError/keyNotUnique(table:columns:)``.
    case primaryKey([String], tablePrimaryKey: [String])

    /// A ``Record/parentAssociations`` declaration (`declared`, its `REFERENCES` clause) that the table's
    /// foreign key on the column contradicts (`table`, as the table declares it; nil when it has none).
    case foreignKey(String, declared: String, table: String?)

    /// A part of ``Record/tableDefinition`` that the table lacks or declares otherwise: `part` says which
    /// (`unique ("iso")`, `index ("name")`, `default of "population"`, `check`, `foreign key ("country_id")`),
    /// `declared` is the SQL ``Record/createTable(in:ifNotExists:)`` writes for it, `table` what the table
    /// has instead (nil when it has none).
    case tableDefinition(String, declared: String, table: String?)

    /// One line for a log.
    public var description: String {
        switch self {
        case .primaryKey(let columns, let tablePrimaryKey):
            let names = { (list: [String]) in "(" + list.map { "\"\($0)\"" }.joined(separator: ", ") + ")" }
            return "the type's key \(names(columns)) is not the table's primary key "
                + (tablePrimaryKey.isEmpty ? "(it declares none)" : names(tablePrimaryKey)) + " nor UNIQUE"
        case .missingTable(let table):
            return "no table \"\(table)\""
        case .tableDefinition(let part, let declared, let table):
            return "\(part) is declared \(declared) but the table " + (table.map { "has \($0)" } ?? "has none")
        case .foreignKey(let column, let declared, let table):
            return "column \"\(column)\" is declared \(declared) but the table "
                + (table.map { "has \($0)" } ?? "has no foreign key on it")
        case .missingColumn(let column, let key, let valueType, let isOptional):
            let keyText = key == column ? "" : " (coding key \"\(key)\")"
            return "no column \"\(column)\" for \(isOptional ? "Optional " : "")\(valueType)\(keyText)"
        case .columnNameCase(let column, let tableColumn):
            return "column \"\(column)\" is named \"\(tableColumn)\" in the table"
        case .incompatibleColumn(let column, let declaredType, let valueType, let reason):
            return "column \"\(column)\" declared \(declaredType.isEmpty ? "with no type" : declaredType) cannot "
                + "hold \(valueType): \(reason)"
        }
    }
}

/// A record type that does not match its table, with every mismatch found: thrown by
/// ``Record/validateSchema(in:)``.
public struct SchemaValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record type, as Swift prints it.
    public let recordType: String
    /// The table it was compared with.
    public let table: String
    /// Every mismatch, in the order of the type's coding keys; one ``SchemaMismatch/missingTable(_:)``
    /// alone when the table does not exist.
    public let mismatches: [SchemaMismatch]

    /// Makes an error; ``Record/validateSchema(in:)`` builds these.
    public init(recordType: String, table: String, mismatches: [SchemaMismatch]) {
        self.recordType = recordType
        self.table = table
        self.mismatches = mismatches
    }

    /// A heading naming the type and table, then one line per mismatch.
    public var description: String {
        let count = mismatches.count == 1 ? "1 mismatch" : "\(mismatches.count) mismatches"
        return "\(recordType) does not match table \"\(table)\" (\(count)):"
            + mismatches.map { "\n- \($0)" }.joined()
    }
}

/// SQLite's answer to the engine-neutral schema check.
extension Database {
    @_spi(RecordEngine)
    public func validateTable<R: Record>(of type: R.Type) throws {
        try R.validateSchema(in: self)
    }
}
