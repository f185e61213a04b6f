#if PostgreSQL
import CPostgresRecord
import Foundation

/// The client's side of `COPY ... FROM STDIN`: libpq's `PQputCopyData`, `PQputCopyEnd` and `PQgetResult`
/// (<https://www.postgresql.org/docs/current/libpq-copy.html>).
///
/// Invariants (this file is the owner of the COPY protocol's unsafe code):
/// - Bytes handed to `PQputCopyData` are the stream's buffer, borrowed for the call only; libpq copies them
///   into its send buffer (or onto the socket) before it returns.
/// - Once the server has answered `PGRES_COPY_IN`, the COPY always ends with `PQputCopyEnd`: with no message
///   when every row was sent, with one when the caller's code threw (which makes the server fail the COPY,
///   so that nothing it received is kept), and every result is then read up to libpq's NULL, so that the
///   connection is ready for the next statement whatever happened.
/// - The COPY data's integers are appended through their big-endian bytes, read for the append only.
extension PostgresConnection {
    /// Runs `sql`, a `COPY ... FROM STDIN`, and sends what `write` writes into the stream as its data.
    ///
    /// The COPY runs while a statement is in flight (a task's cancel or the statement timeout stops it). The
    /// stream is sent in pieces of about ``PostgresCopyInStream/pieceSize`` bytes as `write` fills it. When
    /// `write` throws, or the task of the async pool call is cancelled, the COPY is ended with an error, so
    /// that the server keeps none of its rows.
    /// - Returns: the number of rows the COPY wrote (its command tag, `COPY n`).
    /// - Throws: what `write` throws; `CancellationError` when the task was cancelled; ``PostgresError`` of
    ///   the server's refusal (a constraint, a value its type's receive function rejects), with
    ///   ``PostgresError/batchIndex`` set to the failed row's index from 0 and its column when the server
    ///   names them; of kind `.connectionLost` when the connection broke.
    func copyIn(_ sql: String, _ write: (inout PostgresCopyInStream) throws -> Void) throws -> Int {
        try cancellable(sql) { try sendCopy(sql, write) }
    }

    private func sendCopy(_ sql: String, _ write: (inout PostgresCopyInStream) throws -> Void) throws -> Int {
        guard let raw = PQexec(handle, sql) else { throw failure(sql: sql) }
        let started = PostgresResult(raw)
        guard started.isCopyIn else {
            // PQexec has read every result already: the connection is idle again.
            throw started.succeeded
                ? PostgresError(kind: .client, message: "the statement is not a COPY FROM STDIN", sql: sql)
                : started.error(sql: sql, connectionLost: !isConnected)
        }
        var stream = PostgresCopyInStream(connection: self)
        var clientError: (any Error)?
        do {
            try write(&stream)
            try stream.send()
        } catch is PostgresCopyInStream.Interrupted {
            // The server ended the COPY (its error is among the results below), or the connection broke.
        } catch {
            clientError = error
        }
        let ended: Int32
        if let clientError {
            let reason = clientError is CancellationError ? "the task was cancelled" : "the client's rows failed"
            ended = PQputCopyEnd(handle, "PostgresRecord: " + reason)
        } else {
            ended = PQputCopyEnd(handle, nil)
        }
        var serverError: PostgresError?
        var rows = 0
        while let raw = PQgetResult(handle) {
            let result = PostgresResult(raw)
            // Still waiting for data: the end could not be sent, so the connection is broken.
            if result.isCopyIn { break }
            if result.succeeded {
                rows = result.affectedRows
            } else if serverError == nil {
                serverError = result.error(sql: sql, connectionLost: !isConnected).copyRow(result.errorContext)
            }
        }
        if let clientError { throw clientError }
        if let serverError { throw serverError }
        guard ended == 1, isConnected else { throw failure(sql: sql) }
        return rows
    }

    /// Sends `bytes` as COPY data (`PQputCopyData`, blocking until libpq has taken them).
    /// - Returns: false when the COPY is over: the server ended it with an error, or the connection broke.
    fileprivate func putCopyData(_ bytes: [UInt8]) -> Bool {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        return sent == 1
    }
}

/// The data of a `COPY ... FROM STDIN` in progress: bytes appended to ``buffer`` go to the server when
/// ``sendIfFull()`` finds a piece's worth, and the rest when the COPY ends.
struct PostgresCopyInStream {
    /// The bytes not sent yet.
    var buffer: [UInt8] = []
    private let connection: PostgresConnection

    /// About what one `PQputCopyData` sends: large enough that the calls cost nothing beside the rows, small
    /// enough that the server starts on them early.
    static let pieceSize = 64 * 1024

    /// The server ended the COPY early (its error is read when the COPY ends), or the connection broke.
    struct Interrupted: Error {}

    fileprivate init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.pieceSize + 4 * 1024)
    }

    /// Sends the buffer when it holds a piece's worth.
    /// - Throws: as ``send()``.
    mutating func sendIfFull() throws {
        if buffer.count >= Self.pieceSize { try send() }
    }

    /// Sends the buffer and empties it.
    /// - Throws: `CancellationError` when the task of the async pool call was cancelled;
    ///   ``Interrupted`` when the COPY is over on the server's side.
    mutating func send() throws {
        if connection.cancellation?.isCancelled == true { throw CancellationError() }
        guard !buffer.isEmpty else { return }
        guard connection.putCopyData(buffer) else { throw Interrupted() }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension [UInt8] {
    /// Appends `value`'s big-endian bytes: the binary COPY format's integers (a tuple's field count, a
    /// field's length) and the binary forms of `int2`, `int4` and `int8`.
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Appends an 8-byte field: its length (8), then `value` big-endian (an `int8`, a `float8`'s bits, a
    /// `timestamptz`'s microseconds).
    mutating func appendCopyField(int64 value: Int64) {
        Swift.withUnsafeBytes(of: (Int32(8).bigEndian, Int32(truncatingIfNeeded: value >> 32).bigEndian,
                             Int32(truncatingIfNeeded: value).bigEndian)) { append(contentsOf: $0) }
    }

    /// Writes `value` big-endian over the 4 bytes at `offset`: a field's length, once its bytes are in.
    mutating func setBigEndian(_ value: Int32, at offset: Int) {
        let bits = UInt32(bitPattern: value)
        self[offset] = UInt8(truncatingIfNeeded: bits >> 24)
        self[offset + 1] = UInt8(truncatingIfNeeded: bits >> 16)
        self[offset + 2] = UInt8(truncatingIfNeeded: bits >> 8)
        self[offset + 3] = UInt8(truncatingIfNeeded: bits)
    }
}

extension PostgresError {
    /// This error with the row the server's context names (`COPY cities, line 3, column name: ...`: line 3
    /// is the row of index 2) as ``batchIndex``, and its column when the error has none.
    func copyRow(_ context: String?) -> PostgresError {
        guard let context, let line = context.range(of: ", line ") else { return self }
        let afterLine = context[line.upperBound...]
        guard let number = Int(afterLine.prefix { $0.isNumber }), number > 0 else { return self }
        var column = self.column
        if column == nil, let named = afterLine.range(of: ", column ") {
            let name = afterLine[named.upperBound...].prefix { $0 != ":" && $0 != "\n" }
            column = name.isEmpty ? nil : String(name)
        }
        var table = self.table
        if table == nil, context.hasPrefix("COPY ") {
            table = String(context.dropFirst(5)[..<line.lowerBound])
        }
        return PostgresError(
            kind: kind, sqlState: sqlState, message: message, detail: detail, constraint: constraint, table: table,
            column: column, sql: sql, batchIndex: number - 1)
    }
}
#endif
