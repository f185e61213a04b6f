#if PostgreSQL
import Foundation
import SQLiteRecord

extension Record {
    /// Inserts every record, in order, through one `COPY ... FROM STDIN (FORMAT binary)`: PostgreSQL's bulk
    /// load, for thousands of rows and more (see <https://www.postgresql.org/docs/current/sql-copy.html> and
    /// <https://www.postgresql.org/docs/current/populate.html>).
    ///
    /// Named after the protocol's side of COPY that it runs (libpq's `PGRES_COPY_IN`, the `CopyInResponse`
    /// message; JDBC's `CopyManager.copyIn`): the rows go in from the client, `FROM STDIN`, not `FROM` a file
    /// on the server.
    ///
    /// Each record's `encode(to:)` writes its values straight into the COPY's data, each as the binary form of
    /// its column's type, as COPY reads it, through the value table of `insertAll(_:_:)`: no value goes through
    /// text. (A record whose keys come out of its properties' order is written through the encoder of
    /// `insertAll(_:_:)` instead, its `encode(to:)` then running twice.) The COPY lists every column the record
    /// writes, so a nil Optional is stored as NULL (a column's `DEFAULT` applies only to columns the record
    /// does not have), as an INSERT by the record stores it. Everything else is COPY's: row triggers
    /// (`BEFORE` and `AFTER INSERT ... FOR EACH ROW`) and statement triggers fire, CHECK, NOT NULL, unique and
    /// foreign key constraints are checked, and the first row that fails one fails the whole COPY.
    ///
    /// Ids: a rowid record (`id: Int64?`) whose id is nil gets one from its key column's sequence (an
    /// identity or serial column) before the COPY, one `nextval` per such record in one statement, and its
    /// row is written with it; a record that brings its id is written with it. Records of other keys are
    /// written with their keys. A `BEFORE` trigger that changes a row's key leaves the record with the id it
    /// was sent with: COPY returns no rows to read it from (use `insertAll(_:_:)`, which reads
    /// `RETURNING`). Like any sequence value, an id taken for a COPY that then fails is not given again.
    ///
    /// Runs in one transaction, a savepoint inside the caller's. `willSave(_:)` runs for every record
    /// first, in order, inside it; `didInsert(rowID:)` for each afterwards, in order. All or nothing:
    /// when a row fails, the task is cancelled or the connection breaks, the COPY writes no row and every
    /// record keeps the values it came with.
    ///
    /// A value whose binary form is not its column's type's is converted when an INSERT would convert it
    /// exactly (an integer into a narrower integer column within its range, text into `varchar`, an enum,
    /// `jsonb`, `uuid` or `numeric`: see the PostgreSQL article's table) and refused otherwise, before the COPY
    /// keeps any row; `insertAll(_:_:)` lets the server cast such values instead. Records are checked in order:
    /// the error is the first bad record's.
    /// - Throws: what a `willSave(_:)` throws; `EncodingError` for a value PostgreSQL cannot store,
    ///   naming the table, the column and the record's index; ``PostgresError`` for a row the server refused
    ///   (its SQLSTATE, constraint, table and column, and the record's index in `records` as
    ///   ``PostgresError/batchIndex``), of kind `.client` with SQLSTATE 42804 for a value of a type its
    ///   column cannot take in binary COPY (naming the table, the column, both types and the record's index),
    ///   42703 for a column the table lacks, or for new rowid records whose key column has no sequence;
    ///   `CancellationError` when the task of the async pool call was cancelled.
    public static func copyIn(_ connection: PostgresConnection, _ records: inout [Self]) throws {
        guard !records.isEmpty else { return }
        var inserted = records
        let (rowIDs, newRecords) = try connection.transaction {
            for record in records { try record.willSave(connection) }
            let copied = try connection.copyRows(of: records)
            // A task cancelled just after the COPY: the transaction rolls back and no record gains an id.
            try connection.checkCancellation()
            return copied
        }
        // The records that took an id from the sequence; the others keep theirs.
        for index in newRecords { inserted[index].setRowID(rowIDs[index]) }
        records = inserted
        for index in records.indices { records[index].didInsert(rowID: rowIDs[index]) }
    }

    /// The connection's `copyIn(_:_:)` on one of the pool's connections, in a transaction of its own:
    /// all or nothing; new rowid records gain their ids. Cancelling the task stops the COPY, which then
    /// writes nothing.
    /// - Throws: as `copyIn(_:_:)` on a connection, and what the pool throws.
    public static func copyIn(_ pool: PostgresPool, _ records: inout [Self]) async throws where Self: Sendable {
        let original = records
        records = try await pool.write { connection in
            var copies = original
            try copyIn(connection, &copies)
            return copies
        }
    }
}
#endif
