import Dispatch
import Foundation

extension DatabasePool {
    /// Runs `body` with a reader connection in one read-only snapshot, beside other reads and the write, and
    /// returns its result; the calling task is suspended meanwhile (also while it waits for a free reader),
    /// so no thread of Swift's cooperative pool is blocked.
    ///
    /// ```swift
    /// let big = try await pool.read { db in
    ///     try db.fetchAll(sql: "SELECT name FROM cities WHERE population > ?", arguments: [1_000_000])
    /// }
    /// ```
    ///
    /// The snapshot and what it sees are those of the synchronous ``read(_:)-v95d``. Cancelling the task
    /// interrupts the statement running for it (`sqlite3_interrupt`), which then fails with
    /// `SQLITE_INTERRUPT`; a task cancelled before it got a reader does not run `body` at all.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` for a write inside it,
    ///   `SQLITE_INTERRUPT` when the task was cancelled while a statement ran, `SQLITE_MISUSE` after
    ///   ``close()``; `CancellationError` when the task was cancelled before `body` started.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try enter()
        let operation = QueueOperation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                // A read waiting for a reader returns at its cancel; its grant, when it comes, is given back.
                operation.whenCancelledBeforeStart { continuation.resume(throwing: CancellationError()) }
                readers.take { grant in
                    // Handed on at once: this may run on the thread of a read that just gave its reader back.
                    self.readQueue.async {
                        // The call counts as in flight (enter) until its reader is back, for close().
                        defer { self.leave() }
                        if let result = self.runRead(grant, operation: operation, body) {
                            continuation.resume(with: result)
                        }
                    }
                }
            }
        } onCancel: {
            operation.cancel()
        }
    }

    /// Runs `body` in an IMMEDIATE transaction on the writer connection, serialized with every other write
    /// of this pool, as the synchronous ``write(_:)-5vs00`` does; the calling task is suspended meanwhile.
    /// Cancelling the task interrupts the statement running for it, and the transaction rolls back.
    /// - Throws: what `body` throws (after the rollback); ``DatabaseError`` from BEGIN or COMMIT, with
    ///   `SQLITE_READONLY` on a read-only pool, `SQLITE_INTERRUPT` when the task was cancelled while a
    ///   statement ran, `SQLITE_MISUSE` after ``close()``; `CancellationError` when the task was cancelled
    ///   before `body` started.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let writer = try enterWriter("write")
        defer { leave() }
        return try await writer.write(body)
    }

    /// Runs `body` with the writer connection outside any transaction, as the synchronous
    /// ``writeWithoutTransaction(_:)-1915u`` does; the calling task is suspended meanwhile.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` on a read-only pool,
    ///   `SQLITE_INTERRUPT` when the task was cancelled while a statement ran, `SQLITE_MISUSE` after
    ///   ``close()``; `CancellationError` when the task was cancelled before `body` started.
    public func writeWithoutTransaction<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let writer = try enterWriter("writeWithoutTransaction")
        defer { leave() }
        return try await writer.writeWithoutTransaction(body)
    }

    /// Runs an async read on the reader `grant` names, on the calling thread (a block of `readQueue`), and
    /// gives the reader back; nil when the task was cancelled first (its caller has been resumed).
    private func runRead<T>(
        _ grant: ReaderConnections.Grant, operation: QueueOperation, _ body: (Database) throws -> T
    ) -> Result<T, any Error>? {
        let db: Database
        do {
            db = try readers.connection(for: grant)
        } catch {
            guard operation.start(on: nil) else { return nil }
            operation.finish()
            return .failure(error)
        }
        defer { readers.give(back: db) }
        guard operation.start(on: db.handle) else { return nil }
        defer { operation.finish() }
        db.cancellation = operation
        defer { db.cancellation = nil }
        return Result { try readers.runBody { try db.readSnapshot(startingNow: true) { try body(db) } } }
    }
}
