import CSQLiteRecord

import Foundation

/// The state of one async `read` or `write`, shared by the queue block that runs it and the task's
/// cancellation handler, which may run on any thread at any time.
///
/// The handler interrupts the connection only while this operation runs on it: an interrupt that arrived
/// after `finish()` would hit the next caller's statement instead. Both sides take `lock`, so the state
/// cannot change between the handler's check and its `sqlite3_interrupt` call.
final class QueueOperation: @unchecked Sendable {
    // @unchecked Sendable: `state` and `connection` are read and written only with `lock` held. `connection`
    // is used only for sqlite3_interrupt, which SQLite documents as safe from any thread; while the state is
    // `running`, the block that runs the operation holds the connection's owner (the DatabaseQueue, or the
    // DatabasePool that lent the reader), so the connection is open.
    private enum State {
        case pending, running, finished, cancelled
    }

    private let lock = NSLock()
    private var state = State.pending
    private var connection: OpaquePointer?

    /// Marks the operation as running on `connection` (known only now for a pool's reads); false when it was
    /// cancelled first and must not run.
    func start(on connection: OpaquePointer) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard state == .pending else { return false }
        state = .running
        self.connection = connection
        return true
    }

    /// Marks the operation as done: a cancellation from now on does nothing.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        state = .finished
    }

    /// Called when the task is cancelled: interrupts the running statement, or keeps the operation from
    /// starting.
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .pending: state = .cancelled
        case .running: if let connection { sqlite3_interrupt(connection) }
        case .finished, .cancelled: break
        }
    }
}
