import Dispatch
import Foundation

/// SQLite's side of one iteration of an ``AsyncValueObservation``: it registers with the writer connection's
/// ``ChangeTracker`` (how a commit is heard), notes the tables each read used through the authorizer, reads
/// the value at start and after each commit that concerns it, checks for other connections' commits at an
/// interval, and hands values to the iteration's ``ObservedValues``.
///
/// On a ``DatabaseQueue`` the value is read on the queue itself, in the block of the write that committed,
/// right after the write ended (and the first value in the block that registers): a queue has one connection,
/// so a read elsewhere would wait for the queue anyway, and handing it to another thread makes the next write
/// wait for that thread too, which on a busy machine costs a commit many times the read. Every commit that
/// concerns the read then delivers its own value, in commit order. On a ``DatabasePool`` reads run on a
/// serial dispatch queue of the observer's own, on a reader beside the writer, one at a time: commits that
/// arrive while a read runs make one more read, never one per commit. Checks of other connections' commits
/// read on that dispatch queue too.
final class ValueObserver<Value: Sendable>: DatabaseChangeObserver, @unchecked Sendable {
    // @unchecked Sendable: every `var` below is read and written with `lock` held, except `versionReader`,
    // used only on `fetchQueue`. The calls of `deliver` run one at a time in the order of their reads, as
    // ``ObservedValues/deliver(_:)`` needs: on a queue, inside blocks of the queue's serial dispatch queue (a
    // read and its delivery in the same block); on a pool, on `fetchQueue` (serial).
    private let lock = NSLock()
    private let fetchQueue = DispatchQueue(label: "SQLiteRecord.ValueObservation")
    private let values: ObservedValues<Value>
    /// True when the observed reader is a ``DatabaseQueue``: the value is read on the writer connection in
    /// ``databaseDidCommit(_:in:)``.
    private let readsOnCommit: Bool
    private var reader: (any DatabaseReader)?
    /// The writer connection's tracker this observer is registered with; nil before and after.
    private var tracker: ChangeTracker?
    /// The tables and rows the last read used; nil before the first read ends (every commit then concerns it).
    private var region: ObservedRegion?
    private var needsFetch = true
    private var isFetching = false
    private var isStopped = false
    private var timer: (any DispatchSourceTimer)?
    /// `PRAGMA data_version` on the writer connection at the last check.
    private var dataVersion: Int64?
    /// The connection that reads `data_version` for a read-only pool, which has no writer: a number of one
    /// connection's, so always the same one, opened read-only for the observation. `fetchQueue` only.
    private var versionReader: Database?

    init(values: ObservedValues<Value>, reader: any DatabaseReader) {
        self.values = values
        self.reader = reader
        readsOnCommit = reader is DatabaseQueue
    }

    /// Registers with the writer, reads the first value, and starts the checks of other connections; stops
    /// when the iteration stops.
    func start() {
        values.onStop { self.stop() }
        fetchQueue.async {
            self.register()
            if !self.readsOnCommit { self.fetchIfNeeded() }
            self.startChecks()
        }
    }

    /// Stops the observation, from any thread (``ObservedValues/stop()`` calls it): no commit reaches it any
    /// more, its checks end, and it lets the queue or pool go (a read running now finishes first).
    func stop() {
        lock.lock()
        guard !isStopped else {
            lock.unlock()
            return
        }
        isStopped = true
        let tracker = self.tracker
        let timer = self.timer
        self.tracker = nil
        self.timer = nil
        reader = nil
        lock.unlock()
        tracker?.remove(self)
        timer?.cancel()
    }

    func databaseDidCommit(_ change: DatabaseChange, in db: Database) {
        lock.lock()
        // A read running now may or may not see this commit: read again after it.
        let concerned = !isStopped && (isFetching || (region.map(change.concerns) ?? true))
        // The write has ended; a transaction still open here would be one SQLite could not roll back, and a
        // read inside it would see uncommitted rows: the read then waits for the queue's next turn.
        let readsNow = concerned && readsOnCommit && !db.isInsideTransaction
        if concerned && !readsNow { needsFetch = true }
        lock.unlock()
        if readsNow {
            fetchAndDeliver(in: db)
        } else if concerned {
            fetchQueue.async { self.fetchIfNeeded() }
        }
    }

    /// The queue or pool, when it can write (a read-only pool cannot, and has no commits of its own).
    private var writer: (any DatabaseWriter)? {
        lock.lock()
        defer { lock.unlock() }
        return reader as? any DatabaseWriter
    }

    /// Adds the observer to the writer connection's tracker, in a block of the writer's own, so that every
    /// commit after the block reaches it; reads the writer's `data_version`, and on a queue the first value.
    /// A read-only pool has no writer and no commits of its own: its `data_version` is read on a connection
    /// of the observer's own. A failure ends the sequence with its error.
    private func register() {
        guard let writer else { return }
        do {
            try writer.writeWithoutTransaction { db in
                let version = db.path == ":memory:" ? nil : try db.dataVersion()
                let tracker = db.changeTracker
                tracker.add(self)
                // Kept before the first value is delivered: an iteration that ends at that value finds the
                // tracker to leave.
                lock.lock()
                let stopped = isStopped
                if !stopped {
                    self.tracker = tracker
                    dataVersion = version
                }
                lock.unlock()
                if stopped { return tracker.remove(self) }
                // On a queue, the first value is read in the block that registers: every commit after it
                // delivers a value of its own, after this one.
                if readsOnCommit { fetchAndDeliver(in: db) }
            }
        } catch let error as DatabaseError where error.resultCode == .readOnly && writer is DatabasePool {
            do {
                let version = try readOnlyDataVersion()
                lock.lock()
                dataVersion = version
                lock.unlock()
            } catch {
                end(throwing: error)
            }
        } catch {
            end(throwing: error)
        }
    }

    /// `data_version` on ``versionReader``, opened read-only on the pool's file the first time.
    private func readOnlyDataVersion() throws -> Int64 {
        if let versionReader { return try versionReader.dataVersion() }
        guard let pool = writer as? DatabasePool else { return 0 }
        var options = pool.options
        options.readOnly = true
        let connection = try Database(path: pool.path, options: options)
        versionReader = connection
        return try connection.dataVersion()
    }

    /// Ends the sequence with `error` and stops the observation.
    private func end(throwing error: any Error) {
        values.finish(throwing: error)
    }

    /// Reads the value when a commit, a check or the start asked for it, and delivers it; on `fetchQueue`.
    private func fetchIfNeeded() {
        lock.lock()
        guard !isStopped, needsFetch, let reader else {
            lock.unlock()
            return
        }
        needsFetch = false
        isFetching = true
        lock.unlock()
        let values = self.values
        do {
            // Delivered inside the read: on a queue, the block orders it with the deliveries of commits.
            try reader.read { db in
                var region = ObservedRegion()
                let value: Value
                do {
                    value = try db.changeTracker.recordingReads(into: &region) { try values.read(on: db) }
                } catch {
                    return end(throwing: error)
                }
                deliver(value, reading: region)
            }
        } catch {
            end(throwing: error)
        }
        lock.lock()
        isFetching = false
        let again = needsFetch && !isStopped
        lock.unlock()
        if again { fetchQueue.async { self.fetchIfNeeded() } }
    }

    /// Reads the value on `db`, the queue's connection, in a read snapshot of its own, and delivers it.
    /// A read's error ends the sequence with that error.
    private func fetchAndDeliver(in db: Database) {
        let values = self.values
        var region = ObservedRegion()
        let value: Value
        do {
            value = try db.readSnapshot {
                try db.changeTracker.recordingReads(into: &region) { try values.read(on: db) }
            }
        } catch {
            return end(throwing: error)
        }
        deliver(value, reading: region)
    }

    /// Keeps `read`, the tables and rows the read of `value` used, and hands `value` to the iteration.
    private func deliver(_ value: Value, reading read: ObservedRegion) {
        lock.lock()
        let readRows = region.map { !$0.rows.isEmpty } ?? false
        region = read
        let stopped = isStopped
        // The writer's update hook reports rows only while some observer reads rows. Told with the lock
        // held, so that a stop, which forgets the tracker first, comes after.
        if readRows != !read.rows.isEmpty { tracker?.setReadsRows(!read.rows.isEmpty, for: self) }
        lock.unlock()
        if !stopped { values.deliver(value) }
    }

    /// Starts checking `PRAGMA data_version` at the observation's interval, for a file database.
    private func startChecks() {
        guard let interval = values.otherConnectionsInterval else { return }
        lock.lock()
        let checks = !isStopped && dataVersion != nil
        lock.unlock()
        guard checks else { return }
        let timer = DispatchSource.makeTimerSource(queue: fetchQueue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in self?.checkOtherConnections() }
        lock.lock()
        if isStopped {
            lock.unlock()
            // libdispatch traps on the release of a source that was never activated: cancelled first, its
            // event handler never runs.
            timer.cancel()
            timer.resume()
            return
        }
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    /// Reads the writer's `data_version`, and reads the value again when another connection committed.
    /// A check that cannot run ends the sequence with its error.
    private func checkOtherConnections() {
        guard let writer else { return }
        let version: Int64
        do {
            version =
                try versionReader != nil
                ? readOnlyDataVersion() : writer.writeWithoutTransaction({ db in try db.dataVersion() })
        } catch {
            return end(throwing: error)
        }
        lock.lock()
        let changed = version != dataVersion
        dataVersion = version
        if changed { needsFetch = true }
        lock.unlock()
        if changed { fetchIfNeeded() }
    }
}

extension DatabaseWriter {
    /// SQLite's observation: a ``ValueObserver`` registered with the writer connection's ``ChangeTracker``.
    @_spi(RecordEngine)
    public func observe<Value: Sendable>(_ values: ObservedValues<Value>) {
        ValueObserver(values: values, reader: self).start()
    }
}

extension Database {
    /// `PRAGMA data_version`: a number that changes when another connection committed a change to the
    /// database file since this connection last asked. See <https://www.sqlite.org/pragma.html#pragma_data_version>.
    /// - Throws: ``DatabaseError`` when the pragma cannot run.
    func dataVersion() throws -> Int64 {
        try integerScalar(sql: "PRAGMA data_version") ?? 0
    }
}
