#if PostgreSQL
import Foundation
import SQLiteRecord

/// Which of a table's columns take a record's array of scalars (`[String]`, `[Int64]`...) as a PostgreSQL
/// array and which as JSON: `createTable` declares `TEXT[]`, `BIGINT[]`..., while a table made by an earlier
/// version of the library, or by hand, holds such a property in a JSONB, JSON or text column, which takes the
/// JSON text a nested value is written as and refuses an array (SQLSTATE 42804). The catalog is read once per
/// table, and only for records that write an array.
extension PostgresConnection {
    /// A column's type as the array writes and filters see it.
    struct ArrayColumnType: Equatable {
        /// True for an array type (`typcategory` 'A', which a domain over an array type shares).
        let isArray: Bool
        /// The column's type OID (`pg_attribute.atttypid`).
        let oid: UInt32
    }

    /// Writes the arrays `encoder` wrote for `table`'s columns (``PostgresRecordEncoder/arrays``) as JSON
    /// where their column is no array column; leaves them as PostgreSQL arrays in an array column (a `text[]`
    /// retyped as the column's array type where that is an enum's array, into which the server assigns no
    /// `text[]`), and in a column the table does not have (the server's error then names it). Reads nothing
    /// for an encoder that wrote no array.
    /// - Throws: ``PostgresError`` from the catalog read; as ``PostgresValueWriter/json(_:codingPath:jsonEncoder:)``.
    func writeArrays(of encoder: PostgresRecordEncoder, into table: String) throws {
        guard !encoder.arrays.isEmpty else { return }
        let isArray = try arrayColumns(of: table)
        try encoder.writeArraysAsJSON(inColumns: { isArray[$0]?.isArray == false })
        guard isArray.values.contains(where: { $0.isArray && $0.oid >= Self.firstUserTypeOID }) else { return }
        try encoder.rewriteArrays { column, written in
            guard let type = isArray[column], type.isArray, written.typeOID == PostgresType.textArray,
                case .textArray(let element) = try ownType(type.oid)
            else { return nil }
            return written.textArray(as: type.oid, element: element)
        }
    }

    /// The form a filter compares `column` of `table` with for `value`, which the value writer wrote as
    /// `written`: `written` itself, unless it is a PostgreSQL array and the column is no array column (a
    /// JSONB, JSON or text column of a table made by an earlier version or by hand), which `save()` fills
    /// with the array's JSON text (``writeArrays(of:into:)``); then that JSON text, of no declared type, so
    /// that the server reads it as the column's type and the filter finds what `save()` stored. A `text[]`
    /// compared with an array column of an enum or of `citext` (`citext[]`, which has no `=` with `text[]`)
    /// is bound as that column's array type. Reads the table's array columns only for an array value.
    /// - Throws: ``PostgresError`` from the catalog read; as ``PostgresValueWriter/json(_:codingPath:jsonEncoder:)``.
    func filterForm(
        of value: any Encodable, written: PostgresValue, table: String, column: String?, jsonEncoder: JSONEncoder
    ) throws -> PostgresValue {
        guard let column, PostgresType.elementType(ofArray: written.typeOID) != nil,
            let type = try arrayColumns(of: table)[column]
        else { return written }
        if type.isArray {
            guard written.typeOID == PostgresType.textArray, case .textArray(let element) = try ownType(type.oid)
            else { return written }
            return written.textArray(as: type.oid, element: element)
        }
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

    /// For each column of `table` (the first schema of the search path that has it), its type and whether it
    /// is an array type (`typcategory` 'A', which a domain over an array type shares); empty for a missing
    /// table.
    /// Kept until the next `execute(_:)` on this connection, a rollback, a statement whose prepared plan the
    /// server found out of date, or a write to the table the server refused. When a read finds the types
    /// changed since the last, the named statements whose SQL names the table are forgotten.
    /// - Throws: ``PostgresError``.
    func arrayColumns(of table: String) throws -> [String: ArrayColumnType] {
        if let known = tableArrayColumnsCache[table] { return known }
        let rows = try query(
            """
            SELECT a.attname::text, t.typcategory = 'A', a.atttypid::int8
            FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            WHERE a.attrelid = to_regclass(quote_ident($1)) AND a.attnum > 0 AND NOT a.attisdropped
            """, [try PostgresValue(text: table)])
        var isArray: [String: ArrayColumnType] = [:]
        for index in 0..<rows.count {
            isArray[try rows[index].decode(String.self, at: 0)] = ArrayColumnType(
                isArray: try rows[index].decode(Bool.self, at: 1),
                oid: UInt32(truncatingIfNeeded: try rows[index].decode(Int64.self, at: 2)))
        }
        if !isArray.isEmpty { tableArrayColumnsCache[table] = isArray }
        if let before = tableArrayColumnsRead.updateValue(isArray, forKey: table), before != isArray {
            // A statement prepared before the retype keeps the parameter types the server inferred then.
            let quoted = SQLIdentifier.quoted(table)
            forgetPreparedStatements { $0.contains(quoted) }
        }
        return isArray
    }

    /// Forgets the named statement of `sql`, which the server refused as comparing or assigning types that do
    /// not fit (SQLSTATE 42883 or 42804), and the array columns read: a parameter type the server inferred
    /// when it prepared the statement (an untyped JSON text read as `jsonb`) may no longer fit a column
    /// another session retyped since, and the next call then prepares it afresh with the column's new type.
    /// Nothing is run again: the error, genuine or not, is the call's.
    func forgetRetypedStatement(_ sql: String) {
        forgetPreparedStatements { $0 == sql }
        tableArrayColumnsCache.removeAll()
    }

    /// Forgets the named statements whose SQL `matches`, so that each is prepared afresh, with the parameter
    /// types the server infers then. The server's copies are deallocated, but in a transaction an error
    /// aborted, where they are left to the session's end: their names are never used again.
    func forgetPreparedStatements(where matches: (String) -> Bool) {
        for (key, name) in preparedNames where matches(key.sql) {
            preparedNames[key] = nil
            guard transactionStatus == .idle || transactionStatus == .inTransaction else { continue }
            // Its failure (a session that lost the statement, under a pooler) leaves nothing to undo.
            try? executeControl("DEALLOCATE " + SQLIdentifier.quoted(name))
        }
        if let last = lastPrepared, matches(last.key.sql) { lastPrepared = nil }
    }
}

extension PostgresValue {
    /// This binary `text[]` as an array of type `arrayType` whose elements, of type `element`, are sent as
    /// text (an enum's or `citext`'s): the same bytes, the header's element type replaced, which `array_recv`
    /// checks against the type it is bound as. A value of another form is returned as it is.
    func textArray(as arrayType: UInt32, element: UInt32) -> PostgresValue {
        // The header: int32 dimensions, int32 NULL flag, then the element type's OID at bytes 8..<12.
        guard isBinary, typeOID == PostgresType.textArray, var bytes, bytes.count >= 12 else { return self }
        bytes.replaceSubrange(8..<12, with: PostgresValue.bigEndian(element))
        return PostgresValue(typeOID: arrayType, isBinary: true, bytes: bytes)
    }
}
#endif
