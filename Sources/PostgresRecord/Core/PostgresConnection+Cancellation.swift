#if PostgreSQL
import Foundation

/// Whether the task of one async pool call (``PostgresPool``'s `read`, `write`, `writeWithoutTransaction`)
/// was cancelled, shared by the task's cancellation handler and the connection's queue that runs the call.
final class PostgresCallCancellation: @unchecked Sendable {
    // The lock guards `cancelled` and `onCancel`.
    private let lock = NSLock()
    private var cancelled = false
    private var onCancel: (() -> Void)?

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Marks the call cancelled and runs the handler `whenCancelled` left, once.
    func cancel() {
        let handler: (() -> Void)? = lock.withLock {
            cancelled = true
            defer { onCancel = nil }
            return onCancel
        }
        handler?()
    }

    /// Runs `handler` at the cancel, or at once when the call is cancelled already.
    func whenCancelled(_ handler: @escaping () -> Void) {
        let runNow: Bool = lock.withLock {
            if cancelled { return true }
            onCancel = handler
            return false
        }
        if runNow { handler() }
    }
}

extension PostgresConnection {
    /// Throws `CancellationError` when the task of the async pool call running on this connection was
    /// cancelled; returns otherwise (always, for the synchronous calls).
    ///
    /// A cancel does not stop a statement the server is running: the library's own loops over records
    /// (`Record.insertAll(_:_:)` once its pipeline is answered, the array `Record.save(_:_:)` and
    /// `Record.save(_:children:)` before each record) call this, so a cancelled batch throws, rolls back
    /// whole, and leaves no id on a record; and a cancelled `PostgresPool.write` rolls back instead of
    /// committing. Call it between the statements of a long write body of your own
    /// to stop it sooner.
    /// - Throws: `CancellationError`.
    public func checkCancellation() throws {
        if cancellation?.isCancelled == true { throw CancellationError() }
    }
}
#endif
