import CSQLiteRecord

import Foundation

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
