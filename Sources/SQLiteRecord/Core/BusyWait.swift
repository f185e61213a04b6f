import CSQLiteRecord
import Dispatch
import Foundation

/// One connection's waits for locks that other connections hold: what the library's busy handler does each
/// time SQLite calls it, and what the last wait that ended without the lock came to, for the error that
/// follows.
///
/// SQLite calls the handler (installed with `sqlite3_busy_handler` by ``SQLiteCallbacks/setBusyHandler(on:_:)``)
/// when a lock it asks for is held by another connection, with the number of times it has already called it
/// for that lock. The handler sleeps, 1 ms at first and twice as long each time up to 50 ms (the range of
/// SQLite's own handler), and has SQLite try again, until the busy timeout has passed since its first call;
/// it stops at once, at its next call, when the task of the async call running on the connection is
/// cancelled. SQLite then fails the statement with `SQLITE_BUSY`, and the error states the measured wait.
///
/// SQLite does not call the handler where waiting could deadlock: a transaction that has read asks to
/// write, `PRAGMA journal_mode = wal`, a WAL snapshot that another connection's commit made stale. The
/// statement then fails at once, and its error says that it did not wait. See
/// <https://www.sqlite.org/c3ref/busy_handler.html>.
///
/// Costs nothing on a statement that finds the file unlocked: SQLite calls the handler only on `SQLITE_BUSY`.
/// Read and written on the thread that uses the connection (the handler runs inside `sqlite3_step` or
/// `sqlite3_prepare_v3`), but the outcome of a wait is kept process-wide (see ``outcomes``).
final class BusyWait {
    /// How a wait that ended without the lock ended.
    enum Stop: Sendable, Equatable {
        /// The busy timeout passed.
        case timedOut
        /// The task of the async call running on the connection was cancelled.
        case cancelled
    }

    /// What the error of a `SQLITE_BUSY` on a connection reads: its busy timeout, and the last wait that
    /// ended without the lock, until an error takes it.
    struct Outcome: Sendable {
        var timeoutMilliseconds: Int32
        /// The way the last wait stopped and its length in seconds; nil once an error has taken it.
        var stop: (Stop, TimeInterval)?
        /// True once `PRAGMA busy_timeout = N` may have replaced the library's handler with SQLite's own,
        /// whose waits are not measured.
        var handlerReplaced = false
    }

    /// Process-wide, by connection handle, because an error is made from a bare `sqlite3 *` handle
    /// (``DatabaseError``'s initializer, from any of the library's calls into SQLite), where no `Database` is
    /// at hand. Written when a connection is set up, when a wait ends without the lock, and when an error
    /// takes the outcome; forgotten (``forget()``) before the connection closes. Only contended locks and
    /// errors touch it.
    private static let outcomes = Locked<[UInt: Outcome]>([:])

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    /// The connection's busy timeout in milliseconds, as `sqlite3_busy_timeout` would take it.
    let timeoutMilliseconds: Int32
    private let timeoutNanoseconds: UInt64
    private let connectionKey: UInt
    /// The async call running on the connection now, whose cancellation stops a wait; nil between calls and
    /// for synchronous ones (see ``Database/checkCancellation()``).
    var cancellation: QueueOperation?
    /// When the handler was first called for the lock it waits for now (uptime nanoseconds).
    private var firstCall: UInt64 = 0
    /// Set while the open retries a statement (``Database/retryingWhileLocked(timeout:_:)``): the time
    /// every wait counts from, so that the retries and the handler's waits share one busy timeout.
    private var sharedStart: UInt64?

    init(timeoutMilliseconds: Int32, connection: OpaquePointer) {
        self.timeoutMilliseconds = timeoutMilliseconds
        timeoutNanoseconds = UInt64(max(timeoutMilliseconds, 0)) * 1_000_000
        connectionKey = Self.key(connection)
        Self.outcomes.withLock { $0[connectionKey] = Outcome(timeoutMilliseconds: timeoutMilliseconds) }
    }

    /// Forgets the connection's outcome: called before the connection closes, so that a connection opened
    /// later at the same address starts afresh.
    func forget() {
        Self.outcomes.withLock { $0[connectionKey] = nil }
    }

    /// True when the task of the running async call, or the calling task, is cancelled.
    var isCancelled: Bool { cancellation?.isCancelled == true || Task.isCancelled }

    /// The busy handler: sleeps and answers true (try the lock again), or answers false when the busy
    /// timeout has passed or the task is cancelled, noting why. `count` is the number of earlier calls for
    /// the same lock, as SQLite passes it.
    func shouldRetry(afterCalls count: Int32) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if count == 0 { firstCall = now }
        let start = min(sharedStart ?? firstCall, now)
        let waited = now - start
        if isCancelled {
            noteStop(.cancelled, waitedNanoseconds: waited)
            return false
        }
        guard waited < timeoutNanoseconds else {
            noteStop(.timedOut, waitedNanoseconds: waited)
            return false
        }
        let backoff: UInt64 = count < 6 ? 1_000_000 << UInt64(count) : 50_000_000
        let pause = min(backoff, timeoutNanoseconds - waited)
        usleep(UInt32(pause / 1_000))
        return true
    }

    private func noteStop(_ stop: Stop, waitedNanoseconds: UInt64) {
        let seconds = Double(waitedNanoseconds) / 1e9
        Self.outcomes.withLock { $0[connectionKey]?.stop = (stop, seconds) }
    }

    /// Runs `body` with every wait of the handler counted from `start` (uptime nanoseconds).
    func countingFrom<T>(_ start: UInt64, _ body: () throws -> T) rethrows -> T {
        sharedStart = start
        defer { sharedStart = nil }
        return try body()
    }

    /// Notes that a `PRAGMA busy_timeout = N` was prepared on the connection: SQLite's own handler may now
    /// stand in for the library's.
    func noteHandlerReplaced() {
        Self.outcomes.withLock { $0[connectionKey]?.handlerReplaced = true }
    }

    /// The outcome for the `SQLITE_BUSY` error `connection` just reported, leaving no wait behind for the
    /// next error; nil for a connection the library did not set up.
    static func takeOutcome(for connection: OpaquePointer) -> Outcome? {
        outcomes.withLock { outcomes in
            let outcome = outcomes[key(connection)]
            outcomes[key(connection)]?.stop = nil
            return outcome
        }
    }

    // MARK: Messages

    /// `2 s`, `0.3 s`: a busy timeout in milliseconds, as seconds.
    static func seconds(milliseconds: Int32) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    /// `2.01 s`: a measured wait.
    static func seconds(_ waited: TimeInterval) -> String { String(format: "%.2f s", waited) }

    /// `: waited 2.01 s, this connection's busy timeout is 2 s (...)`: a wait that ran out the busy timeout.
    static func timedOutMessage(waited: TimeInterval, timeoutMilliseconds: Int32) -> String {
        ": waited \(seconds(waited)), this connection's busy timeout is \(seconds(milliseconds: timeoutMilliseconds))"
            + " (another connection held a lock on the file that this statement needs all that time; raise "
            + "Database.Options.busyTimeout, or keep other connections' write transactions short)"
    }

    /// What a `SQLITE_BUSY` message gets after SQLite's own ("database is locked"): the wait as it happened.
    /// - Parameters:
    ///   - extendedCode: the error's extended result code.
    ///   - insideTransaction: whether the connection was inside a transaction when the statement failed.
    static func explanation(_ outcome: Outcome, extendedCode: Int32, insideTransaction: Bool) -> String {
        let timeout = seconds(milliseconds: outcome.timeoutMilliseconds)
        switch outcome.stop {
        case (.timedOut, let waited)?:
            return timedOutMessage(waited: waited, timeoutMilliseconds: outcome.timeoutMilliseconds)
        case (.cancelled, let waited)?:
            return ": stopped waiting after \(seconds(waited)) because the task was cancelled (this connection's "
                + "busy timeout is \(timeout))"
        case nil:
            if outcome.handlerReplaced {
                return " (the wait was not measured: a PRAGMA busy_timeout statement replaced the library's busy "
                    + "handler with SQLite's own; set Database.Options.busyTimeout instead)"
            }
            return ": did not wait: SQLite does not call the busy handler for this lock state ("
                + lockState(extendedCode: extendedCode, insideTransaction: insideTransaction)
                + "; see https://www.sqlite.org/c3ref/busy_handler.html)"
        }
    }

    /// Why SQLite answered `SQLITE_BUSY` without waiting, as far as the error tells.
    private static func lockState(extendedCode: Int32, insideTransaction: Bool) -> String {
        if extendedCode == SQLITE_BUSY | (2 << 8) {  // SQLITE_BUSY_SNAPSHOT
            return "this transaction read a snapshot of the write-ahead log that another connection's commit has "
                + "since replaced, and now asks to write: no wait can help it; roll it back and run it again, "
                + "beginning it IMMEDIATE"
        }
        if extendedCode == SQLITE_BUSY | (1 << 8) {  // SQLITE_BUSY_RECOVERY
            return "another connection is recovering the write-ahead log after a crash; try again shortly"
        }
        if insideTransaction {
            return "this connection's transaction has read and now asks to write while another connection holds "
                + "the write lock: waiting could deadlock; begin transactions that write IMMEDIATE "
                + "(Database.transaction(.immediate), as DatabaseQueue.write does)"
        }
        return "a lock asked for while another is held, as PRAGMA journal_mode = wal does, where waiting could "
            + "deadlock; run the statement again once the other connection's write transaction ends"
    }
}
