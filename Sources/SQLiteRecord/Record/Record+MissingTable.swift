extension Record {
    /// Runs `body`, a record operation on ``tableName``; SQLite's "no such table" for that table comes out
    /// naming the record type and what to do: SQLite's own message names only the table, which a person
    /// who called `City.fetch()` may not know the type maps to.
    static func explainingMissingTable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.isNoSuchTable(tableName) {
            throw explainingMissingTable(error)
        }
    }

    /// `error`, SQLite's "no such table" for ``tableName``, with the record type and what to do added.
    static func explainingMissingTable(_ error: DatabaseError) -> DatabaseError {
        error.appendingToMessage(
            " (the table of \(Self.self): create it with \(Self.self).createTable(in:) or in a "
                + "DatabaseMigrator migration, or set \(Self.self).tableName to the table's name)")
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
