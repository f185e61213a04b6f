#if PostgreSQL
import Dispatch
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

    /// Runs `handler` at the cancel, or at once when the call is cancelled already. It replaces the handler
    /// an earlier `whenCancelled` left: the pool's wait for a connection, once the call holds one.
    func whenCancelled(_ handler: @escaping () -> Void) {
        let runNow: Bool = lock.withLock {
            if cancelled { return true }
            onCancel = handler
            return false
        }
        if runNow { handler() }
    }
}

/// Why the library asked the server to cancel a statement.
enum PostgresCancelReason: Sendable, Equatable {
    /// The task of the async pool call was cancelled.
    case task
    /// The statement ran longer than ``PostgresConfiguration/statementTimeout``, this many seconds.
    case timeout(TimeInterval)
}

/// "A statement is in flight on this connection", and the cancel requests that stop it: a task's cancel and
/// the statement timeout, sent from threads other than the one waiting for the statement.
///
/// A cancel request names a session, not a statement: the server stops whatever that session is running
/// when the request arrives. Sent just after a statement ended, it could stop the next one. So the flag is
/// set and cleared under the lock, a request is sent only while the flag is set, and it is sent
/// synchronously under the lock: `PQcancel` returns once the postmaster has signalled the session's process,
/// and the statement's end waits for the lock before the connection sends anything else. A signal that
/// reaches the process after its statement ended finds it idle, reading its next command, and a process
/// reading a command drops a cancel: postgres.c's `PostgresMain` runs `CHECK_FOR_INTERRUPTS()` while
/// `DoingCommandRead` is still set, just after `ReadCommand`, and `ProcessInterrupts` clears
/// `QueryCancelPending` without an error when `DoingCommandRead` is set ("Query cancel is supposed to be a
/// no-op when there is no query in progress"). So a request reaches the statement it was meant for, or none.
/// Behind pgbouncer, the request goes to pgbouncer, which from 1.18 on closes it only after the server has
/// closed the one it forwarded, and keeps that server session from other clients meanwhile.
final class PostgresStatementInFlight: @unchecked Sendable {
    // The lock guards every property below, and is held while a cancel request is sent (see the type).
    private let lock = NSLock()
    private let cancelKey: PostgresCancelKey?
    private var inFlight = false
    /// Counts the statements begun, so that a timer of an earlier statement cancels nothing.
    private var statement: UInt64 = 0
    /// Why a cancel request went out for the statement in flight; nil when none did.
    private var reason: PostgresCancelReason?
    /// The async pool call the connection runs for, whose task's cancel stops its statements.
    private weak var call: PostgresCallCancellation?
    /// The statement timeout's timer for the statement in flight.
    private var timer: DispatchWorkItem?
    /// Where the timer waits and the cancel requests are sent from: a serial queue of this connection's own.
    /// Not the global concurrent queue: its threads are as many as the cores, and synchronous pool calls
    /// made from it (each blocked in libpq for its statement) can hold them all, so that the timer of those
    /// very statements would run only once they had ended. A serial queue created without a target gets a
    /// thread of its own whenever it has work.
    private let queue = DispatchQueue(label: "PostgresRecord.Cancel")

    init(cancelKey: PostgresCancelKey?) { self.cancelKey = cancelKey }

    /// Makes `call`'s cancel stop the statement in flight, from now until the next `attach`.
    func attach(_ call: PostgresCallCancellation?) {
        lock.withLock { self.call = call }
        // Sent from a queue of its own, so that the thread that cancels the task never waits for the
        // server; the request still goes out under the lock, for this call's statement only.
        guard let call else { return }
        call.whenCancelled { [weak self, weak call] in
            guard let self else { return }
            self.queue.async { [weak self, weak call] in
                guard let self, let call else { return }
                self.cancel(.task) { self.call === call }
            }
        }
    }

    /// Marks a statement in flight and starts its timer when `timeout` is above zero (seconds).
    /// - Throws: `CancellationError`, marking nothing, when the task of the attached call was cancelled: the
    ///   statement is not to be sent. Checked under the lock, so that a cancel either finds this statement
    ///   in flight or is seen here.
    func begin(timeout: TimeInterval?) throws {
        try lock.withLock {
            if call?.isCancelled == true { throw CancellationError() }
            inFlight = true
            reason = nil
            statement &+= 1
            guard let timeout, timeout > 0 else { return }
            let begun = statement
            let timer = DispatchWorkItem { [weak self] in
                guard let self else { return }
                self.cancel(.timeout(timeout)) { self.statement == begun }
            }
            self.timer = timer
            queue.asyncAfter(deadline: .now() + timeout, execute: timer)
        }
    }

    /// Marks the statement ended, waiting for a cancel request being sent, and returns why one was sent for
    /// it, if one was.
    func end() -> PostgresCancelReason? {
        lock.withLock {
            inFlight = false
            timer?.cancel()
            timer = nil
            defer { reason = nil }
            return reason
        }
    }

    /// Sends a cancel request for `reason` when a statement is in flight, none was sent for it yet, and
    /// `applies` (run under the lock) says the statement is still the one meant.
    private func cancel(_ reason: PostgresCancelReason, when applies: () -> Bool) {
        lock.withLock {
            guard inFlight, self.reason == nil, applies(), let cancelKey else { return }
            // A request that could not be sent (the server is gone) changes nothing: the statement ends with
            // the connection's own error.
            if cancelKey.send() == nil { self.reason = reason }
        }
    }
}

extension PostgresConnection {
    /// Throws `CancellationError` when the task of the async pool call running on this connection was
    /// cancelled; returns otherwise (always, for the synchronous calls).
    ///
    /// A task's cancel stops the statement the server is running for the call (a cancel request,
    /// `PQcancel`), and a statement asked for after the cancel is not sent: either throws
    /// `CancellationError`. The library's own loops over records (`Record.insertAll(_:_:)` once its
    /// pipeline is answered, the array `Record.save(_:_:)` and `Record.save(_:children:)` before each record)
    /// call this too, so a cancelled batch throws, rolls back whole, and leaves no id on a record; and a
    /// cancelled `PostgresPool.write` rolls back instead of committing. Call it between long stretches of
    /// work of your own in a body, where no statement runs, to stop it sooner.
    /// - Throws: `CancellationError`.
    public func checkCancellation() throws {
        if cancellation?.isCancelled == true { throw CancellationError() }
    }
}
#endif
