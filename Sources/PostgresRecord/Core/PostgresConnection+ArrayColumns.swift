#if PostgreSQL
import Foundation
import SQLiteRecord

/// Which of a table's columns take a record's array of scalars (`[String]`, `[Int64]`...) as a PostgreSQL
/// array and which as JSON: `createTable` declares `TEXT[]`, `BIGINT[]`..., while a table made by an earlier
/// version of the library, or by hand, holds such a property in a JSONB, JSON or text column, which takes the
/// JSON text a nested value is written as and refuses an array (SQLSTATE 42804). The catalog is read once per
/// table, and only for records that write an array.
extension PostgresConnection {
    /// Writes the arrays `encoder` wrote for `table`'s columns (``PostgresRecordEncoder/arrays``) as JSON
    /// where their column is no array column; leaves them as PostgreSQL arrays in an array column, and in a
    /// column the table does not have (the server's error then names it). Reads nothing for an encoder that
    /// wrote no array.
    /// - Throws: ``PostgresError`` from the catalog read; as ``PostgresValueWriter/json(_:codingPath:jsonEncoder:)``.
    func writeArrays(of encoder: PostgresRecordEncoder, into table: String) throws {
        guard !encoder.arrays.isEmpty else { return }
        let isArray = try arrayColumns(of: table)
        try encoder.writeArraysAsJSON(inColumns: { isArray[$0] == false })
    }

    /// The form a filter compares `column` of `table` with for `value`, which the value writer wrote as
    /// `written`: `written` itself, unless it is a PostgreSQL array and the column is no array column (a
    /// JSONB, JSON or text column of a table made by an earlier version or by hand), which `save()` fills
    /// with the array's JSON text (``writeArrays(of:into:)``); then that JSON text, of no declared type, so
    /// that the server reads it as the column's type and the filter finds what `save()` stored. Reads the
    /// table's array columns only for an array value.
    /// - Throws: ``PostgresError`` from the catalog read; as ``PostgresValueWriter/json(_:codingPath:jsonEncoder:)``.
    func filterForm(
        of value: any Encodable, written: PostgresValue, table: String, column: String?, jsonEncoder: JSONEncoder
    ) throws -> PostgresValue {
        guard let column, PostgresType.elementType(ofArray: written.typeOID) != nil,
            try arrayColumns(of: table)[column] == false
        else { return written }
        return try PostgresValueWriter.json(value, codingPath: [PostgresColumnKey(column)], jsonEncoder: jsonEncoder)
    }

    /// `body`'s value. When it throws the server's error, `table`'s array columns are read again before its
    /// next write with an array: another session may have retyped a column (a JSONB column moved to TEXT[]),
    /// into which this connection would otherwise keep sending the old form.
    /// - Throws: what `body` throws.
    func forgettingArrayColumns<T>(of table: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            tableArrayColumnsCache[table] = nil
            throw error
        }
    }

    /// For each column of `table` (the first schema of the search path that has it), whether its type is an
    /// array type (`typcategory` 'A', which a domain over an array type shares); empty for a missing table.
    /// Kept until the next `execute(_:)` on this connection, a rollback, a statement whose prepared plan the
    /// server found out of date, or a write to the table the server refused.
    /// - Throws: ``PostgresError``.
    func arrayColumns(of table: String) throws -> [String: Bool] {
        if let known = tableArrayColumnsCache[table] { return known }
        let rows = try query(
            """
            SELECT a.attname::text, t.typcategory = 'A'
            FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            WHERE a.attrelid = to_regclass(quote_ident($1)) AND a.attnum > 0 AND NOT a.attisdropped
            """, [try PostgresValue(text: table)])
        var isArray: [String: Bool] = [:]
        for index in 0..<rows.count {
            isArray[try rows[index].decode(String.self, at: 0)] = try rows[index].decode(Bool.self, at: 1)
        }
        if !isArray.isEmpty { tableArrayColumnsCache[table] = isArray }
        return isArray
    }
}
#endif
