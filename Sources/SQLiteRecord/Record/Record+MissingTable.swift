extension Record {
    /// Runs `body`, a record operation on ``tableName``; SQLite's "no such table" for that table comes out
    /// naming the record type and what to do: SQLite's own message names only the table, which a person
    /// who called `City.fetch()` may not know the type maps to. For a ``FullTextSearchable`` type, a missing
    /// full-text table says how to create the index.
    static func explainingMissingTable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.isNoSuchTable(tableName) {
            throw explainingMissingTable(error)
        } catch let error as DatabaseError where error.resultCode == .error {
            throw explainingMissingFullTextTable(error)
        }
    }

    /// `error`, SQLite's "no such table" for ``tableName``, with the record type and what to do added. The
    /// SQL is kept only when it is a statement on the table (the request or write the caller asked for), not
    /// the library's own schema reads (`pragma_table_xinfo`), which would tell the reader nothing.
    static func explainingMissingTable(_ error: DatabaseError) -> DatabaseError {
        let explained = error.appendingToMessage(
            " (the table of \(Self.self): create it with \(Self.self).createTable(in:) or in a "
                + "DatabaseMigrator migration, or set \(Self.self).tableName to the table's name)")
        guard let sql = explained.sql, !sql.contains(SQLIdentifier.quoted(tableName)) else { return explained }
        return DatabaseError(
            resultCode: explained.resultCode, message: explained.message, sql: nil, arguments: nil,
            includesArgumentsInDescription: explained.includesArgumentsInDescription)
    }

    /// `error` with what to do added when it is "no such table" for the type's full-text table.
    private static func explainingMissingFullTextTable(_ error: DatabaseError) -> DatabaseError {
        guard let searchable = Self.self as? any FullTextSearchable.Type,
            error.isNoSuchTable(searchable.fullTextTableName)
        else { return error }
        return error.appendingToMessage(
            " (the full-text index of \(Self.self): create it with try \(Self.self).createFullTextIndex(in: db), "
                + "or in a DatabaseMigrator with migrator.registerFullTextIndex(\"...\", for: \(Self.self).self), "
                + "which also fills it from the rows already there)")
    }
}

extension DatabaseError {
    /// True for SQLite's `no such table: NAME` (or `main.NAME`) about `table`, compared as SQLite compares
    /// names.
    func isNoSuchTable(_ table: String) -> Bool {
        let prefix = "no such table: "
        guard resultCode.primary == .error, message.hasPrefix(prefix) else { return false }
        let named = RowLayout.asciiLowercased(String(message.dropFirst(prefix.count)))
        let wanted = RowLayout.asciiLowercased(table)
        return named == wanted || named.hasSuffix("." + wanted)
    }
}
