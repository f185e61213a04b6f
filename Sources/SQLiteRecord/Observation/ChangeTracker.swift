import CSQLiteRecord
import Foundation

/// What one connection's statements read and write, kept for observations: the tables a statement reads
/// and writes (seen by the connection's authorizer while it is prepared), the tables the current
/// transaction wrote, the tables committed since observers last heard of it, and the observers of the
/// connection's commits.
///
/// A commit is found by the commit hook, which SQLite calls before the commit is durable (and may still
/// turn into a rollback), so the hook only moves the transaction's tables aside; observers hear of them in
/// ``deliverCommittedChanges(on:)``, which the ``DatabaseQueue`` calls once its write has ended, on the same
/// thread. A rollback (the rollback hook) forgets the transaction's tables. Observers then read again, in a
/// read of their own: what they deliver is always committed data.
/// See <https://www.sqlite.org/c3ref/commit_hook.html> and <https://www.sqlite.org/c3ref/set_authorizer.html>.
final class ChangeTracker: @unchecked Sendable {
    // @unchecked Sendable: the properties marked "connection" are used only on the connection's thread (by
    // the hooks inside sqlite3_step, and by the queue blocks that use the connection); `observers` is read
    // and written only with `lock` held, from any thread.

    /// Connection: the tables (lowercased) the statement being prepared reads, as the authorizer reports them.
    var preparedReads: Set<String> = []
    /// Connection: the tables (lowercased) the statement being prepared inserts into, updates or deletes from.
    var preparedWrites: Set<String> = []
    /// Connection: true while some observer listens to this connection's commits; writes are noted only then.
    var isActive: Bool {
        get { listening.isOn }
        set { listening.isOn = newValue }
    }
    /// Where ``isActive`` is kept: an object of its own, which the connection's statements hold strongly
    /// (they hold the tracker weakly, as a statement may outlive its connection). A statement that writes
    /// asks it before every step, and a connection nobody observes should not pay for a weak load per row.
    let listening = Listening()

    /// A flag that says whether observers listen, and a number that changes whenever the tracker forgets
    /// the tables statements told it; see ``listening``.
    final class Listening {
        /// Connection: true while some observer listens.
        var isOn = false
        /// Connection: changes each time the tracker forgets the tables noted so far (a commit, a rollback,
        /// the last observer leaving). A statement that told its tables under the current number does not
        /// tell them again: a bulk write runs one statement once per row, and tells them once.
        var generation: UInt64 = 1
    }
    /// Connection: the tables the open transaction wrote, and whether it changed the schema.
    private var pending = DatabaseChange()
    /// Connection: what committed since the observers last heard.
    private var committed = DatabaseChange()
    /// Connection: the tables an observed read used so far; nil when no observed read runs.
    ///
    /// Every access is a plain load or store with no call inside it (no `recordedReads?.formUnion(...)` in
    /// place), so that the compiler proves no access overlaps another and checks none at run time: this is
    /// read before every statement of every fetch.
    private var recordedReads: Set<String>?

    private let lock = NSLock()
    /// The observers, in the order they were added; replaced (never changed in place) by `add` and
    /// `remove`, so that a commit takes them with one retain under the lock, and tells them outside it.
    private var observers: [any DatabaseChangeObserver] = []

    /// Notes, from the authorizer, one action of the statement being prepared.
    func noteAuthorization(_ action: Int32, table: String?) {
        guard let table else { return }
        switch action {
        case SQLITE_READ:
            preparedReads.insert(table.lowercased())
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            preparedWrites.insert(table.lowercased())
        default:
            break
        }
    }

    /// Notes that a statement writing `tables` (or changing the schema) is about to run. The statement
    /// calls it once per ``Listening/generation``: what it adds stays in `pending` until the number changes.
    func statementWillWrite(_ tables: [String], changesSchema: Bool) {
        guard isActive else { return }
        if changesSchema { pending.changesSchema = true }
        pending.tables.formUnion(tables)
    }

    /// Forgets the open transaction's tables; statements tell theirs again afterwards.
    private func clearPending() {
        pending = DatabaseChange()
        listening.generation &+= 1
    }

    /// The commit hook allowed a commit: the transaction's changes wait for ``deliverCommittedChanges(on:)``.
    func transactionWillCommit() {
        guard isActive, !pending.isEmpty else { return }
        committed.tables.formUnion(pending.tables)
        if pending.changesSchema { committed.changesSchema = true }
        clearPending()
    }

    /// The rollback hook reported a rollback: the transaction's changes are gone.
    func transactionDidRollBack() {
        clearPending()
    }

    /// Tells the observers what committed since they last heard; called on the connection's thread, with
    /// `db` the connection, once a write has ended (committed or not).
    func deliverCommittedChanges(on db: Database) {
        guard isActive else { return }
        lock.lock()
        let listeners = observers
        lock.unlock()
        if listeners.isEmpty {
            isActive = false
            clearPending()
            committed = DatabaseChange()
            return
        }
        guard !committed.isEmpty else { return }
        let change = committed
        committed = DatabaseChange()
        for observer in listeners { observer.databaseDidCommit(change, in: db) }
    }

    /// Adds `observer`; called on the connection's thread (in a write block), so that every commit after
    /// this call reaches it.
    func add(_ observer: any DatabaseChangeObserver) {
        lock.lock()
        if !observers.contains(where: { $0 === observer }) { observers = observers + [observer] }
        lock.unlock()
        isActive = true
    }

    /// Removes `observer`, from any thread; it hears of no commit afterwards.
    func remove(_ observer: any DatabaseChangeObserver) {
        lock.lock()
        observers = observers.filter { $0 !== observer }
        lock.unlock()
    }

    /// The number of observers; for tests.
    var observerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return observers.count
    }

    /// Runs `body` while noting the tables its statements read into `tables`, and returns its value.
    func recordingReads<T>(into tables: inout Set<String>, _ body: () throws -> T) rethrows -> T {
        let outer = recordedReads
        recordedReads = []
        defer { recordedReads = outer }
        let value = try body()
        tables = recordedReads ?? []
        return value
    }

    /// Notes that `statement` is about to be used, when an observed read runs.
    @inline(__always)
    func noteUse(of statement: Statement) {
        guard var reads = recordedReads else { return }
        // Taken out while it grows, so that the set is not copied and no access spans the call.
        recordedReads = nil
        reads.formUnion(statement.readTables)
        recordedReads = reads
    }
}

extension Database {
    /// Runs `body`, a write, then tells the observers of this connection what it committed: after the
    /// transaction has ended, when the commit is durable and readers see it.
    func deliveringCommits<T>(_ body: () throws -> T) rethrows -> T {
        defer { changeTracker.deliverCommittedChanges(on: self) }
        return try body()
    }
}
