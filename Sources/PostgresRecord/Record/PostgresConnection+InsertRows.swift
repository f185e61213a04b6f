#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// PostgreSQL's batch insert: every INSERT of a batch sent through libpq's pipeline mode before the first
/// answer is read (<https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>).
extension PostgresConnection {
    @_spi(RecordEngine)
    public func insertRows<R: Record>(of records: [R]) throws -> [Int64] {
        guard !records.isEmpty else { return [] }
        let shape = try PostgresRecordShape.of(R.self, on: self)
        var statements: [(sql: String, parameters: Range<Int>)] = []
        statements.reserveCapacity(records.count)
        var rowIDs: [Int64] = []
        rowIDs.reserveCapacity(records.count)
        // The identity column of the records whose row chooses its id; nil for a record inserted with its key.
        var identityColumns: [String?] = []
        identityColumns.reserveCapacity(records.count)
        var hasExplicitRowID = false
        // Every record's values in one buffer, all written before anything is sent.
        let encoder = PostgresRecordEncoder(
            jsonEncoder: shape.jsonEncoder, capacity: records.count * shape.columns.count)
        for record in records {
            if case .rowID(let column) = shape.key, record.hasNilRowID {
                let parameters = try shape.namingTable { try encoder.append(record, plan: shape.nonKeyColumnsPlan) }
                statements.append((shape.insertWithoutKeySQL, parameters))
                identityColumns.append(column)
                rowIDs.append(0)
            } else {
                if case .rowID = shape.key {} else { try shape.checkKey(record.id) }
                statements.append(
                    (shape.insertSQL, try shape.namingTable { try encoder.append(record, plan: shape.columnsPlan) }))
                identityColumns.append(nil)
                rowIDs.append(record.rowIDIfAny ?? 0)
                hasExplicitRowID = true
            }
        }
        // An array of scalars goes into a JSONB column (a table of an earlier version) as JSON.
        try shape.namingTable { try writeArrays(of: encoder, into: shape.table) }
        if identityColumns.contains(where: { $0 != nil }) { try catchUpIdentity(of: shape) }
        if hasExplicitRowID { shape.identityCatchUp?.noteExplicitWrite() }
        let parameters = encoder.takeParameters()
        // Each answer is checked as it is read, and let go: the batch keeps no result past its check. A batch
        // the server refused reads the table's array columns again: another session may have retyped one.
        try forgettingArrayColumns(of: shape.table) {
            try runPipelined(statements, parameters) { index, result in
                // The command tag's row count: RETURNING's rows for an identity, `INSERT 0 1` otherwise.
                guard result.affectedRows == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
                guard let column = identityColumns[index] else { return }
                guard result.rowCount == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
                rowIDs[index] = try R.returnedRowID(result, column: column)
            }
        }
        return rowIDs
    }
}

extension Record {
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
