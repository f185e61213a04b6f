#if PostgreSQL
import Foundation
import SQLiteRecord

/// The rows of `Record.copyIn(_:_:)`: records written by ``PostgresCopyEncoder`` straight into the fields of
/// PostgreSQL's binary COPY format (<https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4>),
/// sent in pieces while the next records are encoded.
extension PostgresConnection {
    /// Writes `records` through one `COPY "table" (<every column>) FROM STDIN (FORMAT binary)`, in order, in
    /// the caller's transaction, and returns each record's rowid: its own, or for a rowid record whose id is
    /// nil, one taken beforehand from its identity column's sequence (`nextval`, as the column's default
    /// would take it), which the row is written with; 0 for records of other keys. `newRecords` are the
    /// indexes of the records that took an id from the sequence, in order.
    /// - Throws: `EncodingError` for a value PostgreSQL cannot store, naming the table, the column and the
    ///   record's index; ``PostgresError`` of kind `.client` for a value of a type the column's binary form
    ///   cannot take (see ``PostgresCopyColumn``), for a new rowid record whose key column has no sequence, and
    ///   for a column the table does not have; the server's error for a refused row, with the row's index as
    ///   ``PostgresError/batchIndex``; as ``copyIn(_:_:)``. The COPY then writes nothing.
    func copyRows<R: Record>(of records: [R]) throws -> (rowIDs: [Int64], newRecords: [Int]) {
        guard !records.isEmpty else { return ([], []) }
        let shape = try PostgresRecordShape.of(R.self)
        let names = shape.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let sql = "COPY \(SQLIdentifier.quoted(shape.table)) (\(names)) FROM STDIN (FORMAT binary)"
        let columns = try copyColumns(shape, sql: sql)
        var rowIDs = [Int64](repeating: 0, count: records.count)
        // The rowid column's index among the columns, and the records whose id a sequence gives.
        var reserved: (column: Int, records: [Bool])?
        var newRecords: [Int] = []
        if case .rowID(let key) = shape.key, let column = shape.columns.firstIndex(of: key) {
            var isNew = [Bool](repeating: false, count: records.count)
            for index in records.indices {
                if let rowID = records[index].rowIDIfAny { rowIDs[index] = rowID } else { newRecords.append(index) }
            }
            // New ids come from the sequence, caught up first with the ids the table holds; records that bring
            // their own make every connection catch up again before its next insert without one.
            if !newRecords.isEmpty { try catchUpIdentity(of: shape) }
            if newRecords.count < records.count { shape.identityCatchUp?.noteExplicitWrite() }
            let ids = try reserveIDs(newRecords.count, table: shape.table, column: key, sql: sql)
            for (index, id) in zip(newRecords, ids) {
                rowIDs[index] = id
                isNew[index] = true
            }
            if !newRecords.isEmpty { reserved = (column, isNew) }
        }
        let encoder = PostgresCopyEncoder(
            plan: shape.columnsPlan, columns: columns, jsonEncoder: shape.jsonEncoder, rowIDColumn: reserved?.column)
        defer { encoder.dropContainer() }
        // Records whose keys leave the plan's order go through parameter slots (see PostgresCopyEncoder).
        var diverged = DivergedRecords(shape: shape, columns: columns, reserved: reserved)
        _ = try copyIn(sql) { stream in
            // The encoder writes into the stream's buffer, handed over (not shared, which would copy it).
            swap(&encoder.buffer, &stream.buffer)
            encoder.buffer.append(contentsOf: Self.copyHeader)
            for index in records.indices {
                let record = records[index]
                if case .rowID = shape.key {} else { try shape.checkKey(record.id) }
                let reservedID = reserved?.records[index] == true ? rowIDs[index] : nil
                let written = try Self.naming(index, shape: shape, sql: sql) {
                    try encoder.append(record, reservedID: reservedID)
                }
                if !written {
                    let tuple = try Self.naming(index, shape: shape, sql: sql) {
                        try diverged.tuple(of: record, reservedID: reservedID)
                    }
                    encoder.buffer.append(contentsOf: tuple)
                }
                if encoder.buffer.count >= PostgresCopyInStream.pieceSize {
                    swap(&encoder.buffer, &stream.buffer)
                    try stream.send()
                    swap(&encoder.buffer, &stream.buffer)
                }
            }
            // The trailer: a tuple of -1 fields.
            encoder.buffer.appendBigEndian(Int16(-1))
            swap(&encoder.buffer, &stream.buffer)
        }
        return (rowIDs, newRecords)
    }

    /// `body`'s value; its `EncodingError.invalidValue` names the table and the record's index, and a
    /// ``PostgresCopyColumn/Refusal`` becomes a ``PostgresError`` of kind `.client` naming the table, the
    /// column and the record's index.
    private static func naming<T>(
        _ index: Int, shape: PostgresRecordShape, sql: String, _ body: () throws -> T
    ) throws -> T {
        do {
            return try namingRecord(index) { try shape.namingTable(body) }
        } catch let refusal as PostgresCopyColumn.Refusal {
            throw PostgresError(
                kind: .client, sqlState: SQLState(refusal.sqlState),
                message: refusal.message + " of table \"\(shape.table)\"", table: shape.table,
                column: refusal.column, sql: sql, batchIndex: index)
        }
    }

    /// The records of a COPY whose keys left their plan's order, written through ``PostgresRecordEncoder``
    /// (whose parameter slots take keys in any order), then field by field as ``PostgresCopyColumn`` converts
    /// each value.
    private struct DivergedRecords {
        let shape: PostgresRecordShape
        let columns: [PostgresCopyColumn]
        let reserved: (column: Int, records: [Bool])?
        /// The columns an array of scalars is written into as JSON: every one but an array column.
        let jsonColumns: Set<String>
        /// The forms each column takes values in as they are; the rowid column's is nil when a sequence gives
        /// ids, so that each value there is looked at.
        let forms: [(type: UInt32, isBinary: Bool)?]
        /// The parameter buffer of the last record, whose room the next reuses.
        var spare = PostgresParameters()

        init(shape: PostgresRecordShape, columns: [PostgresCopyColumn], reserved: (column: Int, records: [Bool])?) {
            self.shape = shape
            self.columns = columns
            self.reserved = reserved
            jsonColumns = Set(columns.filter { !$0.isArray }.map(\.name))
            var forms = columns.map(\.unchangedForm)
            if let reserved { forms[reserved.column] = nil }
            self.forms = forms
        }

        /// `record`'s tuple, its rowid field `reservedID` when one is given.
        /// - Throws: as ``PostgresCopyEncoder/append(_:reservedID:)``.
        mutating func tuple<R: Record>(of record: R, reservedID: Int64?) throws -> [UInt8] {
            let encoder = PostgresRecordEncoder(jsonEncoder: shape.jsonEncoder, reusing: spare)
            try encoder.append(record, plan: shape.columnsPlan)
            // An array of scalars goes into a column that is no array column (JSONB) as JSON.
            try encoder.writeArraysAsJSON(inColumns: { jsonColumns.contains($0) })
            let parameters = encoder.takeParameters()
            defer { spare = parameters }
            var buffer: [UInt8] = []
            buffer.appendBigEndian(Int16(truncatingIfNeeded: columns.count))
            var position = 0
            while true {
                // Values already in their column's form are copied as they are; the loop below stops at each
                // other one.
                position = parameters.appendCopyFields(of: 0, from: position, forms: forms, to: &buffer)
                guard position < columns.count else { break }
                defer { position += 1 }
                if let reservedID, position == reserved?.column {
                    buffer.appendCopyField(int64: reservedID)
                    continue
                }
                try columns[position].appendField(parameters, at: position, to: &buffer)
            }
            return buffer
        }
    }

    /// The binary COPY format's header: its signature, no flags, no header extension.
    static let copyHeader: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    /// The table's columns the record writes, each with its type (a domain's base type), read from the
    /// catalog (`pg_attribute`, `pg_type`) as the COPY's table name resolves on the search path.
    /// - Throws: ``PostgresError`` of SQLSTATE 42P01 for a missing table (the server's), of kind `.client` and
    ///   SQLSTATE 42703 for a column the table does not have.
    private func copyColumns(_ shape: PostgresRecordShape, sql: String) throws -> [PostgresCopyColumn] {
        let rows = try query(Self.columnTypesSQL, [PostgresValue(stringLiteral: SQLIdentifier.quoted(shape.table))])
        var byName: [String: PostgresCopyColumn] = [:]
        for index in 0..<rows.count {
            let row = rows[index]
            let name = try row.decode(String.self, at: 0)
            byName[name] = PostgresCopyColumn(
                name: name, type: UInt32(truncatingIfNeeded: try row.decode(Int64.self, at: 1)),
                typtype: try row.decode(String.self, at: 2), typname: try row.decode(String.self, at: 3),
                typeName: try row.decode(String.self, at: 4))
        }
        return try shape.columns.map { name in
            guard let column = byName[name] else {
                throw PostgresError(
                    kind: .client, sqlState: .undefinedColumn,
                    message: "column \"\(name)\" of table \"\(shape.table)\" does not exist", table: shape.table,
                    column: name, sql: sql)
            }
            return column
        }
    }

    /// Each column of the table `$1` (a quoted name, resolved on the search path): its name, its type's OID
    /// (a domain's base type, followed down), `typtype`, `typname`, and the column's type as `format_type`
    /// writes it.
    private static let columnTypesSQL = """
        WITH RECURSIVE attributes AS (
            SELECT a.attnum, a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod) AS described
            FROM pg_catalog.pg_attribute a
            WHERE a.attrelid = $1::text::regclass AND a.attnum > 0 AND NOT a.attisdropped
        ), base(attnum, type) AS (
            SELECT attnum, atttypid FROM attributes
            UNION ALL
            SELECT base.attnum, t.typbasetype FROM base JOIN pg_catalog.pg_type t ON t.oid = base.type
            WHERE t.typtype = 'd'
        )
        SELECT a.attname::text, t.oid::int8, t.typtype::text, t.typname::text, a.described
        FROM attributes a JOIN base b ON b.attnum = a.attnum JOIN pg_catalog.pg_type t ON t.oid = b.type
        WHERE t.typtype <> 'd' ORDER BY a.attnum
        """

    /// `count` values of the sequence behind `column` (an identity or serial column), in the order `nextval`
    /// gave them.
    /// - Throws: ``PostgresError`` of kind `.client` when the column has no sequence.
    private func reserveIDs(_ count: Int, table: String, column: String, sql: String) throws -> [Int64] {
        guard count > 0 else { return [] }
        let result = try run(
            "SELECT nextval(pg_get_serial_sequence($1, $2)) FROM generate_series(1, $3)",
            [PostgresValue(stringLiteral: SQLIdentifier.quoted(table)), PostgresValue(stringLiteral: column),
             PostgresValue(Int64(count))])
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        for row in 0..<result.rowCount {
            guard case .integer(let id, _) = result.cell(row: row, column: 0) else {
                throw PostgresError(
                    kind: .client,
                    message: "COPY cannot give ids to new records of table \"\(table)\": column \"\(column)\" has no "
                        + "sequence (an identity or serial column); insert them with insertAll(_:_:), which reads "
                        + "each id from RETURNING",
                    table: table, column: column, sql: sql)
            }
            ids.append(id)
        }
        return ids
    }

    /// `body`'s value; its `EncodingError.invalidValue` says which record (its index) it was written for.
    private static func namingRecord<T>(_ index: Int, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch EncodingError.invalidValue(let value, let context) {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: context.codingPath,
                    debugDescription: context.debugDescription + " (the record at index \(index))",
                    underlyingError: context.underlyingError))
        }
    }
}
#endif
