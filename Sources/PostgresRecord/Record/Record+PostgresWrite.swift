#if PostgreSQL
import Foundation
import SQLiteRecord

extension Record {
    /// Saves every record in one transaction (a savepoint inside the caller's): all or nothing, in the
    /// database and in memory. When every record is a rowid record with a nil id (all new), they are inserted
    /// as ``insertAll(_:_:)`` inserts them, in one pipelined batch; otherwise each is saved in turn.
    /// - Throws: the first error of a save, or `CancellationError` when the task of the async pool call was
    ///   cancelled; nothing stays written, and the records keep the values they came
    ///   with.
    public static func save(_ connection: PostgresConnection, _ records: inout [Self]) throws {
        let shape = try PostgresRecordShape.of(Self.self)
        if case .rowID = shape.key, !records.isEmpty, records.allSatisfy(\.hasNilRowID) {
            return try insertAll(connection, &records)
        }
        let original = records
        do {
            try connection.transaction {
                for index in records.indices {
                    try connection.checkCancellation()
                    try records[index].save(connection)
                }
            }
        } catch {
            records = original
            throw error
        }
    }

    /// Inserts every record, in order, in one transaction (a savepoint inside the caller's) through libpq's
    /// pipeline mode: every INSERT is sent before the first answer is read, so the batch costs about one
    /// round trip rather than one a row (see
    /// <https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>). A rowid record whose id is nil
    /// gets the id its row's identity column chose, read from that row's own `RETURNING`; any other record
    /// is inserted with its key. ``Record/willSave(_:)`` runs for each record first, inside
    /// the transaction; ``Record/didInsert(rowID:)`` for each afterwards, in order.
    ///
    /// All or nothing: when one row fails (a constraint), the server runs none of the rows after it, the
    /// transaction rolls back, and every record keeps the values it came with (none gains an id). So too when
    /// the task of the async pool call it runs in was cancelled before the batch was answered
    /// (``PostgresConnection/checkCancellation()``): it throws `CancellationError`.
    /// - Throws: ``PostgresError`` of the row that failed: its SQLSTATE, the constraint, table and column the
    ///   server names, and ``PostgresError/batchIndex``, the index in `records` of the record whose row
    ///   failed; `EncodingError` for a value PostgreSQL cannot store (nothing is sent); `CancellationError`
    ///   when the task was cancelled.
    public static func insertAll(_ connection: PostgresConnection, _ records: inout [Self]) throws {
        guard !records.isEmpty else { return }
        let shape = try PostgresRecordShape.of(Self.self)
        var inserted = records
        try connection.transaction {
            // Each record's willSave, in order, inside the batch's transaction: a throw writes nothing.
            for record in records { try record.willSave(connection) }
            var identityColumn: String?
            var statements: [(sql: String, parameters: Range<Int>)] = []
            statements.reserveCapacity(records.count)
            var takesIdentity: [Bool] = []
            takesIdentity.reserveCapacity(records.count)
            // Every record's values in one buffer, all written before anything is sent.
            let encoder = PostgresRecordEncoder(
                jsonEncoder: shape.jsonEncoder, capacity: records.count * shape.columns.count)
            for record in records {
                if case .rowID(let column) = shape.key, record.hasNilRowID {
                    identityColumn = column
                    let parameters = try shape.namingTable { try encoder.append(record, plan: shape.nonKeyColumnsPlan) }
                    statements.append((shape.insertWithoutKeySQL, parameters))
                    takesIdentity.append(true)
                } else {
                    statements.append(
                        (shape.insertSQL, try shape.namingTable { try encoder.append(record, plan: shape.columnsPlan) }))
                    takesIdentity.append(false)
                }
            }
            // Each answer is checked as it is read, and let go: the batch keeps no result past its check.
            try connection.runPipelined(statements, encoder.takeParameters()) { index, result in
                // The command tag's row count: RETURNING's rows for an identity, `INSERT 0 1` otherwise.
                guard result.affectedRows == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
                guard takesIdentity[index], let identityColumn else { return }
                guard result.rowCount == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
                let rowID = try returnedRowID(result, column: identityColumn)
                if let key = SameTypeCast.cast(Optional(rowID), to: ID.self) { inserted[index].id = key }
            }
            // A task cancelled while the batch ran: the transaction rolls back and no record gains an id.
            try connection.checkCancellation()
        }
        records = inserted
        for index in records.indices {
            records[index].didInsert(rowID: records[index].rowIDIfAny ?? 0)
        }
    }

    /// True for a rowid record (`id: Int64?`) whose id is nil: a new row whose identity column chooses its id.
    /// Found by comparing types, with no dynamic cast.
    var hasNilRowID: Bool {
        guard let rowID = SameTypeCast.cast(id, to: Int64?.self) else { return false }
        return rowID == nil
    }

    /// The rowid of a rowid record; nil for a nil id or a key of another kind.
    var rowIDIfAny: Int64? { SameTypeCast.cast(id, to: Int64?.self) ?? nil }

    /// The id an `INSERT ... RETURNING` of the key alone gave: its one row's one column.
    /// - Throws: the `DecodingError` of a value that is not a BIGINT, naming `column`.
    static func returnedRowID(_ result: PostgresResult, column: String) throws -> Int64 {
        let cell = result.cell(row: 0, column: 0)
        // An identity column's BIGINT, read as it is; any other cell through the value table and its errors.
        if case .integer(let rowID, _) = cell { return rowID }
        return try PostgresValueReader.read(Int64.self, cell, column: column, codingPath: [PostgresColumnKey(column)])
    }
}
#endif
