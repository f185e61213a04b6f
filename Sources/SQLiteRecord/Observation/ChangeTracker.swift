import CSQLiteRecord
import Foundation

/// What one connection's statements read and write, kept for observations: the tables a statement reads
/// and writes (seen by the connection's authorizer while it is prepared), the tables and rows the current
/// transaction wrote, those committed since observers last heard of them, and the observers of the
/// connection's commits.
///
/// A commit is found by the commit hook, which SQLite calls before the commit is durable (and may still
/// turn into a rollback), so the hook only moves the transaction's tables aside; observers hear of them in
/// ``deliverCommittedChanges(on:)``, which the ``DatabaseQueue`` calls once its write has ended, on the same
/// thread. A rollback (the rollback hook) forgets the transaction's tables. Observers then read again, in a
/// read of their own: what they deliver is always committed data.
///
/// Rows: while an observer's last read was narrowed to rows (``ObservedRegion/rows``), the update hook
/// reports each row a statement inserts, updates or deletes in a rowid table, by rowid, so that such a read
/// hears only of commits that changed its rows; a statement that ran while the hook was not installed counts
/// as a change of the whole tables it wrote. The hook has gaps, which SQLite documents: it is not called for WITHOUT
/// ROWID tables, for rows deleted by the REPLACE conflict resolution, for a `DELETE` without `WHERE` that
/// SQLite runs as a truncation, nor for internal tables. Each gap counts as a change of the whole table:
/// a statement that may replace (its SQL says `REPLACE`) or that deletes from a table without reading it
/// (no `WHERE` on it) marks the tables it writes as unattributed (``DatabaseChange/unattributedTables``),
/// and a read is narrowed to rows only on a rowid table by its `INTEGER PRIMARY KEY`, when neither the
/// table nor any trigger declares a REPLACE (see `Database.noteRowRead(of:keyColumn:rowIDs:)`).
/// See <https://www.sqlite.org/c3ref/commit_hook.html>, <https://www.sqlite.org/c3ref/update_hook.html>
/// and <https://www.sqlite.org/c3ref/set_authorizer.html>.
final class ChangeTracker: @unchecked Sendable {
    // @unchecked Sendable: the properties marked "connection" are used only on the connection's thread (by
    // the hooks inside sqlite3_step, and by the queue blocks that use the connection); `observers` is read
    // and written only with `lock` held, from any thread.

    /// Connection: the tables (lowercased) the statement being prepared reads, as the authorizer reports them.
    var preparedReads: Set<String> = []
    /// Connection: the tables (lowercased) the statement being prepared inserts into, updates or deletes from.
    var preparedWrites: Set<String> = []
    /// Connection: the tables (lowercased) the statement being prepared deletes from.
    var preparedDeletes: Set<String> = []
    /// Connection: the columns (lowercased) the statement being prepared sets, by table (lowercased).
    var preparedUpdatedColumns: [String: Set<String>] = [:]
    /// The connection, on which the update hook is installed while observers listen; set once it is open.
    var connection: OpaquePointer?
    /// The update hook's names of tables, kept from row to row.
    let hookTableNames = UpdateHookTableNames()
    /// Connection: true while the update hook is installed.
    private var reportsRows = false
    /// The observers whose last read was narrowed to rows; the update hook is installed only while there
    /// is one. Read and written with `lock` held.
    private var rowReaders: Set<ObjectIdentifier> = []
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
    /// Connection: the rows by rowid of each table (lowercased) that an observed read read so far, through
    /// statements the library wrote with the keys in them.
    private var recordedRows: [String: Set<Int64>] = [:]
    /// Connection: the rowid column (lowercased) of each table of `recordedRows`.
    private var recordedRowIDColumns: [String: String] = [:]
    /// Connection: the rows the next statement an observed read uses reads, when it reads only `table`;
    /// set by the library right before it uses a statement whose keys it wrote (see
    /// ``noteRowRead(_:of:rowIDColumn:)``).
    private var rowHint: (table: String, rowIDs: [Int64], rowIDColumn: String)?

    private let lock = NSLock()
    /// The observers, in the order they were added; replaced (never changed in place) by `add` and
    /// `remove`, so that a commit takes them with one retain under the lock, and tells them outside it.
    private var observers: [any DatabaseChangeObserver] = []

    /// Notes, from the authorizer, one action of the statement being prepared.
    func noteAuthorization(_ action: Int32, table: String?, column: String? = nil) {
        guard let table else { return }
        switch action {
        case SQLITE_READ:
            preparedReads.insert(table.lowercased())
        case SQLITE_INSERT:
            preparedWrites.insert(table.lowercased())
        case SQLITE_UPDATE:
            let name = table.lowercased()
            preparedWrites.insert(name)
            if let column { preparedUpdatedColumns[name, default: []].insert(column.lowercased()) }
        case SQLITE_DELETE:
            let name = table.lowercased()
            preparedWrites.insert(name)
            preparedDeletes.insert(name)
        default:
            break
        }
    }

    /// Notes that a statement writing `tables` (or changing the schema) is about to run, of which the update
    /// hook may not report every changed row of `unattributed`. The statement calls it once per
    /// ``Listening/generation``: what it adds stays in `pending` until the number changes.
    func statementWillWrite(
        _ tables: [String], unattributed: [String], updatedColumns: [String: Set<String>], changesSchema: Bool
    ) {
        guard isActive else { return }
        if changesSchema { pending.changesSchema = true }
        pending.tables.formUnion(tables)
        // Installed before the statement runs, so that each of its rows is reported; a statement that
        // runs without the hook reports none, and counts as a change of its whole tables. The hook is
        // removed only between transactions, when every statement tells its tables again.
        if !reportsRows, readsRows { setReportsRows(true) }
        if !reportsRows {
            pending.unattributedTables.formUnion(tables)
            for table in tables { pending.rows[table] = nil }
        }
        for (table, columns) in updatedColumns { pending.updatedColumns[table, default: []].formUnion(columns) }
        if !unattributed.isEmpty {
            pending.unattributedTables.formUnion(unattributed)
            for table in unattributed { pending.rows[table] = nil }
        }
    }

    /// Notes, from the update hook, that the row `rowID` of `table` (lowercased) changed.
    func rowDidChange(_ rowID: Int64, in table: String) {
        guard isActive else { return }
        pending.noteRow(rowID, of: table)
    }

    /// Forgets the open transaction's tables; statements tell theirs again afterwards.
    private func clearPending() {
        pending = DatabaseChange()
        listening.generation &+= 1
    }

    /// The commit hook allowed a commit: the transaction's changes wait for ``deliverCommittedChanges(on:)``.
    func transactionWillCommit() {
        guard isActive, !pending.isEmpty else { return }
        committed.formUnion(pending)
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
            setReportsRows(false)
            clearPending()
            committed = DatabaseChange()
            return
        }
        if reportsRows, !readsRows, !db.isInsideTransaction { setReportsRows(false) }
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

    /// Notes whether the last read of `observer` was narrowed to rows, from any thread.
    func setReadsRows(_ readsRows: Bool, for observer: any DatabaseChangeObserver) {
        lock.lock()
        if readsRows {
            rowReaders.insert(ObjectIdentifier(observer))
        } else {
            rowReaders.remove(ObjectIdentifier(observer))
        }
        lock.unlock()
    }

    /// True while the update hook is installed; for tests, on the connection's thread.
    var isReportingRows: Bool { reportsRows }

    /// True while some observer's last read was narrowed to rows.
    private var readsRows: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !rowReaders.isEmpty
    }

    /// Installs or removes the update hook; on the connection's thread. Only a connection where some
    /// observer reads rows pays for a call per changed row.
    private func setReportsRows(_ on: Bool) {
        guard on != reportsRows, let connection else { return }
        reportsRows = on
        if on {
            SQLiteCallbacks.setUpdateHook(on: connection, self)
        } else {
            SQLiteCallbacks.stopUpdateHook(on: connection)
        }
    }

    /// Removes `observer`, from any thread; it hears of no commit afterwards.
    func remove(_ observer: any DatabaseChangeObserver) {
        lock.lock()
        observers = observers.filter { $0 !== observer }
        rowReaders.remove(ObjectIdentifier(observer))
        lock.unlock()
    }

    /// The number of observers; for tests.
    var observerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return observers.count
    }

    /// Runs `body` while noting what its statements read into `region`, and returns its value.
    func recordingReads<T>(into region: inout ObservedRegion, _ body: () throws -> T) rethrows -> T {
        let outer = recordedReads
        let outerRows = recordedRows
        let outerColumns = recordedRowIDColumns
        let outerHint = rowHint
        recordedReads = []
        recordedRows = [:]
        recordedRowIDColumns = [:]
        rowHint = nil
        defer {
            recordedReads = outer
            recordedRows = outerRows
            recordedRowIDColumns = outerColumns
            rowHint = outerHint
        }
        let value = try body()
        let tables = recordedReads ?? []
        let rows = recordedRows.filter { !tables.contains($0.key) }
        region = ObservedRegion(
            tables: tables, rows: rows, rowIDColumns: recordedRowIDColumns.filter { rows[$0.key] != nil })
        return value
    }

    /// True while an observed read runs.
    var isRecordingReads: Bool { recordedReads != nil }

    /// Tells that the next statement the observed read uses reads only the rows `rowIDs` of `table`
    /// (lowercased), whose rowid is the column `rowIDColumn` (lowercased): when that statement reads `table`
    /// and no other, its read is recorded as those rows; any other statement uses the note up and is
    /// recorded by its tables.
    func noteRowRead(_ rowIDs: [Int64], of table: String, rowIDColumn: String) {
        guard recordedReads != nil else { return }
        rowHint = (table, rowIDs, rowIDColumn)
    }

    /// Notes that `statement` is about to be used, when an observed read runs.
    @inline(__always)
    func noteUse(of statement: Statement) {
        guard recordedReads != nil else { return }
        noteObservedUse(of: statement)
    }

    @inline(never)
    private func noteObservedUse(of statement: Statement) {
        guard var reads = recordedReads else { return }
        if let hint = rowHint {
            rowHint = nil
            let tables = statement.readTables
            if tables.count == 1, tables[0] == hint.table {
                var rows = recordedRows.removeValue(forKey: hint.table) ?? []
                rows.formUnion(hint.rowIDs)
                recordedRows[hint.table] = rows
                recordedRowIDColumns[hint.table] = hint.rowIDColumn
                return
            }
        }
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
