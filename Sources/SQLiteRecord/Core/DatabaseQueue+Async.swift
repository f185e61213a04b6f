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
                    let result = Result {
                        try self.owner.run { try self.database.deliveringCommits { try work(self.database) } }
                    }
                    self.database.cancellation = nil
                    operation.finish()
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            operation.cancel()
        }
    }
}

/// The state of one async `read` or `write`, shared by the queue block that runs it and the task's
/// cancellation handler, which may run on any thread at any time.
///
/// The handler interrupts the connection only while this operation runs on it: an interrupt that arrived
/// after `finish()` would hit the next caller's statement instead. Both sides take `lock`, so the state
/// cannot change between the handler's check and its `sqlite3_interrupt` call.
final class QueueOperation: @unchecked Sendable {
    // @unchecked Sendable: `state`, `connection`, `cancelledWhileRunning` and `resumeCancelled` are read and
    // written only with `lock` held. `connection` is used only for sqlite3_interrupt, which SQLite documents
    // as safe from any thread; while the state is `running`, the block that runs the operation holds the
    // connection's owner (the DatabaseQueue, or the DatabasePool that lent the reader), so the connection is
    // open.
    private enum State {
        case pending, running, finished, cancelled
    }

    private let lock = NSLock()
    private var state = State.pending
    private var connection: OpaquePointer?
    private var cancelledWhileRunning = false
    /// Resumes the caller with `CancellationError` when the task is cancelled before the operation starts.
    private var resumeCancelled: (@Sendable () -> Void)?

    /// Sets what a cancellation before the start does: resume the waiting caller at once. Called before the
    /// operation is queued; runs `resume` now when the task was already cancelled. Exactly one of `resume`
    /// and the block that runs the operation resumes the caller: the block runs only after `start` succeeds,
    /// and `start` fails once `resume` may have run.
    func whenCancelledBeforeStart(_ resume: @escaping @Sendable () -> Void) {
        lock.lock()
        if state == .cancelled {
            lock.unlock()
            resume()
            return
        }
        resumeCancelled = resume
        lock.unlock()
    }

    /// Marks the operation as running on `connection` (known only now for a pool's reads; nil when it could
    /// not be opened); false when it was cancelled first and must not run.
    func start(on connection: OpaquePointer?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard state == .pending else { return false }
        state = .running
        resumeCancelled = nil
        self.connection = connection
        return true
    }

    /// True once the task was cancelled: the library's loops stop at the next record (``Database/checkCancellation()``).
    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return state == .cancelled || cancelledWhileRunning
    }

    /// Marks the operation as done: a cancellation from now on does nothing.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        state = .finished
    }

    /// Called when the task is cancelled: interrupts the running statement and marks the operation
    /// cancelled, or keeps it from starting and resumes its caller.
    func cancel() {
        lock.lock()
        var resume: (@Sendable () -> Void)?
        switch state {
        case .pending:
            state = .cancelled
            resume = resumeCancelled
            resumeCancelled = nil
        case .running:
            cancelledWhileRunning = true
            if let connection { sqlite3_interrupt(connection) }
        case .finished, .cancelled: break
        }
        lock.unlock()
        resume?()
    }
}
