#if PostgreSQL
import Foundation
import SQLiteRecord

extension PostgresConnection {
    /// The table's column names, in order, from `information_schema.columns` (the first schema of the
    /// search path that has the table); kept until the next `execute(_:)` on this connection, rollback of
    /// one of its transactions (or savepoints), or fetch the server refused for a column it lacks.
    /// - Throws: ``PostgresError``.
    public func columns(of table: String) throws -> [String] {
        if let known = tableColumnsCache[table] { return known }
        let rows = try query(
            """
            SELECT column_name::text FROM information_schema.columns
            WHERE table_name = $1 AND table_schema = (
                SELECT n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.oid = to_regclass(quote_ident($1)))
            ORDER BY ordinal_position
            """, [try PostgresValue(text: table)])
        let names = try (0..<rows.count).map { try rows[$0].decode(String.self, at: 0) }
        if !names.isEmpty { tableColumnsCache[table] = names }
        return names
    }

    /// Forgets the tables' columns this connection read (``tableColumnsCache``, ``lastFetch``,
    /// ``tableArrayColumnsCache``), so that the next call that needs them reads them again: after SQL that
    /// may have changed tables, and after a rollback that may have undone such SQL.
    func forgetTableColumns() {
        tableColumnsCache.removeAll()
        lastFetch = nil
        tableArrayColumnsCache.removeAll()
    }

    /// Throws ``RecordError/unknownColumn(table:column:columns:)`` for the first of `names` the table does
    /// not have. A table with no columns found (missing) is left for the server to report. A name longer than
    /// PostgreSQL's identifiers is compared as the server stores it, cut to its first 63 bytes.
    func checkColumns(_ names: [String], of table: String) throws {
        guard !names.isEmpty else { return }
        var columns = try self.columns(of: table)
        guard !columns.isEmpty else { return }
        for name in names where !columns.contains(PostgresColumnLayout.storedName(name)) {
            // Another connection may have added the column since this one read the table.
            tableColumnsCache[table] = nil
            lastFetch = nil
            columns = try self.columns(of: table)
            if !columns.contains(PostgresColumnLayout.storedName(name)) {
                throw RecordError.unknownColumn(table: table, column: name, columns: columns)
            }
        }
    }

    /// ``checkColumns(_:of:)`` for the columns of an association's link, with the error SQLite's check of the
    /// link gives: ``RecordError/invalidAssociation(association:reason:)`` naming the declaration, the table
    /// and its columns, and for a foreign key column, that `using:` names it.
    func checkColumns(_ names: [String], of table: String, for link: AssociationLink, areForeignKeys: Bool) throws {
        do {
            try checkColumns(names, of: table)
        } catch RecordError.unknownColumn(let table, let column, let columns) {
            throw RecordError.invalidAssociation(
                association: link.description,
                reason: AssociationLink.missingColumnReason(
                    column, table: table, columns: columns, isForeignKey: areForeignKeys))
        }
    }

}
#endif
