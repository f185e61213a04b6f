import CSQLiteRecord
import Dispatch
import Foundation

extension DatabaseQueue {
    /// Runs `body` with the connection on the queue's own dispatch queue, serialized with every other
    /// `read` and `write`, and returns its result; the calling task is suspended meanwhile, so no thread of
    /// Swift's cooperative pool is blocked.
    ///
    /// ```swift
    /// let big = try await queue.read { db in
    ///     try db.fetchAll(sql: "SELECT name FROM cities WHERE population > ?", arguments: [1_000_000])
    /// }
    /// ```
    ///
    /// Cancelling the task interrupts the statement running for it (`sqlite3_interrupt`), which then fails
    /// with `SQLITE_INTERRUPT`; a task cancelled before its turn comes does not run `body` at all. A
    /// cancellation that lands between two statements of `body` finds nothing to interrupt, and `body` goes
    /// on. The body reads one snapshot and cannot write, as with the synchronous `read`.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_INTERRUPT` (``DatabaseError/isInterrupted``)
    ///   when the task was cancelled while a statement ran; `CancellationError` when it was cancelled before
    ///   `body` started.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { db in
            try db.readSnapshot { try body(db) }
        }
    }

    /// Runs `body` in an IMMEDIATE transaction on the queue's own dispatch queue, serialized with every
    /// other `read` and `write`: committed when `body` returns, rolled back when it throws. The calling task
    /// is suspended meanwhile, so no thread of Swift's cooperative pool is blocked.
    ///
    /// ```swift
    /// try await queue.write { db in
    ///     try db.execute(sql: "UPDATE cities SET population = :n WHERE id = :id", arguments: ["n": 10, "id": 1])
    /// }
    /// ```
    ///
    /// Cancelling the task interrupts the statement running for it (`sqlite3_interrupt`): it fails with
    /// `SQLITE_INTERRUPT` and the transaction is rolled back (unless `body` catches the error). A task
    /// cancelled before its turn comes does not run `body` at all; a cancellation that lands between two
    /// statements of `body` finds nothing to interrupt, and `body` goes on. Once SQLite has rolled the
    /// transaction back inside `body`, nothing later in it commits, as with the synchronous `write`.
    /// - Throws: what `body` throws (after the rollback), ``DatabaseError`` from BEGIN or COMMIT,
    ///   ``DatabaseError`` with `SQLITE_INTERRUPT` when the task was cancelled while a statement ran, or
    ///   `CancellationError` when it was cancelled before `body` started.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { db in
            try db.transaction(.immediate) {
                // BEGIN IMMEDIATE may have waited out another connection's write lock (the busy timeout)
                // while the task was cancelled: nothing starts then.
                try db.checkCancellation()
                return try body(db)
            }
        }
    }

    /// Runs `body` with the connection outside any transaction, as the synchronous
    /// ``writeWithoutTransaction(_:)-3xevm`` does, suspending the calling task meanwhile; cancelling the task
    /// interrupts the statement running for it.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_INTERRUPT` when the task was cancelled
    ///   while a statement ran; `CancellationError` when it was cancelled before `body` started.
    public func writeWithoutTransaction<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await perform { db in
            try db.outsideTransaction { try body(db) }
        }
    }

    /// Runs `work` on `queue`, resuming the caller with its result, and interrupts it when the calling
    /// task is cancelled while it runs.
    private func perform<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let operation = QueueOperation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                // A call still waiting for the queue (behind a long write) returns at its cancel, not when
                // the block ahead of it ends; its block then finds it cancelled and does nothing.
                operation.whenCancelledBeforeStart { continuation.resume(throwing: CancellationError()) }
                queue.async {
                    guard operation.start(on: self.database.handle) else { return }
                    self.database.cancellation = operation
                    let result = Result { try self.owner.run { try work(self.database) } }
                    self.database.cancellation = nil
                    operation.finish()
                    // After `finish`: the observations of a queue read the connection here, and a cancel of
                    // this task must not interrupt their reads.
                    self.owner.run { self.database.changeTracker.deliverCommittedChanges(on: self.database) }
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            operation.cancel()
        }
    }
}
