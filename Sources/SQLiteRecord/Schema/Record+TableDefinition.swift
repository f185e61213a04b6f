import Foundation

extension Record {
    /// Nothing beyond the columns, NOT NULL, the primary key and ``parentAssociations``.
    public static var tableDefinition: TableDefinition { TableDefinition() }

    /// The column `column` names in this type's table: a coding key through the encoder's key strategy.
    static func columnName(_ column: TableDefinition.ColumnName) -> String {
        var binding = RecordRequestBinding<Self>()
        return binding.name(of: column.column)
    }

    /// The names of `columns`, each checked to be one of the type's columns.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column the type does not encode.
    static func checkedColumnNames(
        _ columns: [TableDefinition.ColumnName], in probed: [RecordColumn]
    ) throws -> [String] {
        try columns.map { column in
            let name = columnName(column)
            let folded = RowLayout.asciiLowercased(name)
            guard probed.contains(where: { RowLayout.asciiLowercased($0.name) == folded }) else {
                throw RecordError.unknownColumn(table: tableName, column: name, columns: probed.map(\.name))
            }
            return name
        }
    }

    /// The parts of ``tableDefinition`` as SQL, for ``createTableSQL(ifNotExists:)``.
    static func tableDefinitionSQL(
        probed: [RecordColumn], keyColumns: [String], ifNotExists: Bool
    ) throws -> TableDefinitionSQL {
        let definition = tableDefinition
        var sql = TableDefinitionSQL()
        for columnDefault in definition.defaults {
            let name = try checkedColumnNames([columnDefault.column], in: probed)[0]
            sql.defaults[name] = try columnDefault.value.sql(table: tableName, column: name)
        }
        var indexed: [[String]] = [keyColumns]
        for unique in definition.uniqueKeys {
            let names = try checkedColumnNames(unique.columns, in: probed)
            sql.constraints.append("UNIQUE (" + names.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
            indexed.append(names)
        }
        for check in definition.checks {
            sql.constraints.append(
                (check.name.map { "CONSTRAINT " + SQLIdentifier.quoted($0) + " " } ?? "") + "CHECK (" + check.sql + ")")
        }
        for index in definition.indexes {
            let names = try checkedColumnNames(index.columns, in: probed)
            sql.indexes.append(indexSQL(names, name: index.name, isUnique: index.isUnique, ifNotExists: ifNotExists))
            indexed.append(names)
        }
        for key in definition.foreignKeys {
            let names = try checkedColumnNames(key.columns, in: probed)
            sql.constraints.append(key.sql(columns: names))
            sql.foreignKeyColumns.append(names)
            let folded = names.map(RowLayout.asciiLowercased)
            let covered = indexed.contains {
                $0.count >= names.count && $0.prefix(names.count).map(RowLayout.asciiLowercased) == folded
            }
            if !covered {
                sql.indexes.append(indexSQL(names, name: nil, isUnique: false, ifNotExists: ifNotExists))
                indexed.append(names)
            }
        }
        return sql
    }

    /// `CREATE [UNIQUE] INDEX "<table>_<column>..." ON "<table>" ("column", ...)`.
    static func indexSQL(_ columns: [String], name: String?, isUnique: Bool, ifNotExists: Bool) -> String {
        "CREATE " + (isUnique ? "UNIQUE " : "") + "INDEX " + (ifNotExists ? "IF NOT EXISTS " : "")
            + SQLIdentifier.quoted(name ?? ([tableName] + columns).joined(separator: "_")) + " ON "
            + SQLIdentifier.quoted(tableName) + " (" + columns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")"
    }
}

/// ``Record/tableDefinition`` as the pieces of a CREATE TABLE and the statements after it.
struct TableDefinitionSQL {
    /// Column name to its `DEFAULT ...` text (without the keyword).
    var defaults: [String: String] = [:]
    /// Table constraints, after the columns: `UNIQUE (...)`, `CHECK (...)`, `FOREIGN KEY (...) ...`.
    var constraints: [String] = []
    /// `CREATE INDEX` statements.
    var indexes: [String] = []
    /// The columns of each declared foreign key, so that an association on the same column adds no second one.
    var foreignKeyColumns: [[String]] = []
}

extension TableDefinition.DefaultValue {
    /// The default as SQL after `DEFAULT`: a literal, a `CURRENT_...` keyword, or a parenthesized expression.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a NaN, which no SQL literal
    ///   writes.
    func sql(table: String, column: String) throws -> String {
        switch self {
        case .value(let value):
            switch value {
            case .null: return "NULL"
            case .integer(let integer): return String(integer)
            case .real(let real):
                if real.isNaN {
                    throw RecordError.invalidQueryValue(
                        table: table, column: column, type: "Double", reason: "NaN has no SQL literal to be a default")
                }
                // 9e999 is how SQLite reads an infinity; String(real) is the shortest text that reads back.
                if real.isInfinite { return real < 0 ? "-9e999" : "9e999" }
                return String(real)
            case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
            }
        case .sql(let expression):
            let keyword = expression.trimmingCharacters(in: .whitespaces).uppercased()
            if keyword == "CURRENT_TIME" || keyword == "CURRENT_DATE" || keyword == "CURRENT_TIMESTAMP" {
                return keyword
            }
            return "(" + expression + ")"
        }
    }
}

extension TableDefinition.ForeignKey {
    /// `FOREIGN KEY ("a") REFERENCES "parent" ("id") ON DELETE ... ON UPDATE ... [DEFERRABLE INITIALLY DEFERRED]`.
    func sql(columns: [String]) -> String {
        "FOREIGN KEY (" + columns.map(SQLIdentifier.quoted).joined(separator: ", ") + ") REFERENCES "
            + SQLIdentifier.quoted(parentTable)
            + (parentColumns.isEmpty
                ? "" : " (" + parentColumns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")")
            + (onDelete.map { " ON DELETE " + $0.rawValue } ?? "")
            + (onUpdate.map { " ON UPDATE " + $0.rawValue } ?? "")
            + (isDeferred ? " DEFERRABLE INITIALLY DEFERRED" : "")
    }

    /// The clause as ``SchemaMismatch/tableDefinition(_:declared:table:)`` shows it.
    func description(columns: [String]) -> String { sql(columns: columns) }
}
