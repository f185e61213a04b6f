#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// Writes that read back what the server set (`insertAndFetch`, `updateAndFetch`, `upsertAndFetch`): the
/// write, then the row read by its key in the same transaction, which holds the row's lock from the write
/// on, so the values read are the ones the write left (defaults, a trigger's values, generated columns,
/// AFTER triggers included). The record takes the named columns' values, or becomes the row as read.
extension PostgresConnection {
    @_spi(RecordEngine)
    public func insertRowAndFetch<R: Record>(of record: inout R, columns: [String]?) throws -> Int64 {
        let shape = try PostgresRecordShape.of(R.self)
        try checkColumns(columns ?? [], of: shape.table)
        guard let rowID = try insertRow(of: record, onConflict: .abort) else {
            throw RecordError.rowNotInserted(table: shape.table)
        }
        var inserted = record
        if case .rowID = shape.key, inserted.hasNilRowID { inserted.setRowID(rowID) }
        try readBack(&inserted, columns: columns, shape: shape)
        record = inserted
        return rowID
    }

    @_spi(RecordEngine)
    public func updateRowAndFetch<R: Record>(of record: inout R, columns: [String]?) throws {
        let shape = try PostgresRecordShape.of(R.self)
        try checkColumns(columns ?? [], of: shape.table)
        try updateRow(of: record, columns: nil)
        try readBack(&record, columns: columns, shape: shape)
    }

    @_spi(RecordEngine)
    public func upsertRowAndFetch<R: Record>(
        of record: inout R, onConflict conflictColumns: [String]?, updating columns: [String]?,
        returning returnedColumns: [String]?
    ) throws -> (outcome: UpsertOutcome, rowID: Int64?) {
        let shape = try PostgresRecordShape.of(R.self)
        try checkColumns(returnedColumns ?? [], of: shape.table)
        var written = record
        let answer = try upsertRow(of: &written, onConflict: conflictColumns, updating: columns)
        if case .rowID = shape.key, let rowID = answer.rowID { written.setRowID(rowID) }
        try readBack(&written, columns: returnedColumns, shape: shape)
        record = written
        return answer
    }

    /// `record` with the values of `columns` (every column for nil) as its row holds them, the row read by
    /// the record's key.
    /// - Throws: ``RecordError/recordNotFound(table:id:)`` when no row has the key (a trigger removed it);
    ///   the `DecodingError` of a value the record cannot hold; ``RecordError/invalidAssociation(association:reason:)``
    ///   never (the columns are the record's own).
    private func readBack<R: Record>(_ record: inout R, columns: [String]?, shape: PostgresRecordShape) throws {
        guard let stored = try fetchRecord(R.self, id: record.id) else {
            throw RecordError.recordNotFound(table: shape.table, id: R.keyDescription(record.id))
        }
        guard let columns else {
            record = stored
            return
        }
        // Only the columns the record writes can be taken; one it does not write is read and let go.
        let taken = columns.filter { R.index(of: $0, inNames: shape.columns) != nil }
        let setter = try foreignKeySetter(
            R.self, setting: taken, to: taken, of: stored, association: "\(shape.table) read back")
        record = try setter(record)
    }
}
#endif
