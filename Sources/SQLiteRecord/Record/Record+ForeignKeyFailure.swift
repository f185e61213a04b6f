import Foundation

extension Record {
    /// `error`, SQLite's "FOREIGN KEY constraint failed" from writing this record, with the column and value
    /// whose parent row is missing: SQLite's message names neither. Found right after the failure, in the
    /// failing transaction (the statement's own changes are undone, the transaction's others are not), by
    /// looking up the parent row of each of the table's foreign keys (`PRAGMA foreign_key_list`) whose
    /// columns the record fills. The value is shown only when ``Database/Options/showsArgumentsInErrors``
    /// allows bound values in errors. Any other error, or a failure no missing parent explains (a child row
    /// that still refers to this row's old key), is returned as it is.
    /// See <https://www.sqlite.org/foreignkeys.html>.
    func explainingForeignKeyFailure(_ error: DatabaseError, db: Database) -> DatabaseError {
        guard error.resultCode == .constraintForeignKey,
            let keys = try? db.foreignKeys(in: Self.tableName), !keys.isEmpty,
            let encoded = try? Self.recordEncoder.encode(self, tableName: Self.tableName)
        else { return error }
        let folded = RowLayout.asciiLowercased
        var values: [String: SQLiteValue] = [:]
        for (name, value) in zip(encoded.names, encoded.values) { values[folded(name)] = value }
        for key in keys {
            let childValues = key.columns.map { values[folded($0)] }
            // NULL in any column satisfies the key; a column the record does not write is not its doing.
            guard childValues.allSatisfy({ $0 != nil && $0 != .null }) else { continue }
            let written = childValues.compactMap { $0 }
            guard let advice = missingParentAdvice(key, values: written, db: db) else { continue }
            return error.appendingToMessage(advice)
        }
        return error
    }

    /// What to say about `key` when no parent row holds `values`; nil when one does.
    private func missingParentAdvice(_ key: ForeignKeyInfo, values: [SQLiteValue], db: Database) -> String? {
        let columns = key.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let shown =
            db.options.showsArgumentsInErrors
            ? " = " + values.map(\.sqlLiteralDescription).joined(separator: ", ")
            : " (its value is left out: Database.Options.showsArgumentsInErrors shows it)"
        var parentColumns = key.parentColumns.compactMap { $0 }
        if parentColumns.count != key.columns.count {
            // REFERENCES "parent" with no column list: the parent's primary key.
            guard let primaryKey = try? db.tableShape(key.parentTable).primaryKey, !primaryKey.isEmpty else {
                return nil
            }
            parentColumns = primaryKey
        }
        let sql = RecordSQL.selectOneIfAny(from: key.parentTable, whereEqual: parentColumns)
        let found: Int?
        do {
            found = try db.scalar(Int.self, sql: sql, arguments: StatementArguments(values))
        } catch {
            return nil
        }
        guard found == nil else { return nil }
        let parent =
            SQLIdentifier.quoted(key.parentTable) + " ("
            + parentColumns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")"
        return " (\(Self.self)'s column \(columns)\(shown) refers to no row of \(parent): save the parent row "
            + "first, in the same transaction or before it, or set \(columns) to nil)"
    }
}

extension SQLiteValue {
    /// The value as it reads in a message: `42`, `'FR'`, `X'0102'`, `NULL`.
    var sqlLiteralDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
