import Dispatch
import Foundation

/// The engine of one iteration of an ``AsyncValueObservation``: it registers with the writer connection's
/// ``ChangeTracker``, reads the value at start and after each commit that concerns it, checks for other
/// connections' commits at an interval, and hands values to the iteration's stream.
///
/// Reads run on a serial dispatch queue of the observer's own (never on the writer's thread, never on
/// Swift's cooperative pool), one at a time: commits that arrive while a read runs make one more read,
/// never one per commit.
final class ValueObserver<Value: Sendable>: DatabaseChangeObserver, @unchecked Sendable {
    // @unchecked Sendable: every `var` below is read and written with `lock` held, except `lastValue`, which
    // only blocks on `fetchQueue` (serial) touch.
    private let lock = NSLock()
    private let fetchQueue = DispatchQueue(label: "SQLiteRecord.ValueObservation")
    private let observation: ValueObservation<Value>
    private var reader: (any DatabaseReader)?
    private var continuation: AsyncThrowingStream<Value, any Error>.Continuation?
    /// The writer connection's tracker this observer is registered with; nil before and after.
    private var tracker: ChangeTracker?
    /// The tables the last read used; nil before the first read ends (every commit then concerns it).
    private var region: Set<String>?
    private var needsFetch = true
    private var isFetching = false
    private var isStopped = false
    private var timer: (any DispatchSourceTimer)?
    /// `PRAGMA data_version` on the writer connection at the last check.
    private var dataVersion: Int64?
    /// The last value delivered, kept when duplicates are removed. `fetchQueue` only.
    private var lastValue: Value?
    /// The connection that reads `data_version` for a read-only pool, which has no writer: a number of one
    /// connection's, so always the same one, opened read-only for the observation. `fetchQueue` only.
    private var versionReader: Database?

    init(
        observation: ValueObservation<Value>, reader: any DatabaseReader,
        continuation: AsyncThrowingStream<Value, any Error>.Continuation
    ) {
        self.observation = observation
        self.reader = reader
        self.continuation = continuation
    }

    /// Registers with the writer, reads the first value, and starts the checks of other connections.
    func start() {
        fetchQueue.async {
            self.register()
            self.fetchIfNeeded()
            self.startChecks()
        }
    }

    /// Stops the observation, from any thread: no commit reaches it any more, its checks end, and it lets
    /// the queue or pool go (a read running now finishes first).
    func stop() {
        lock.lock()
        guard !isStopped else {
            lock.unlock()
            return
        }
        isStopped = true
        let tracker = self.tracker
        let timer = self.timer
        let continuation = self.continuation
        self.tracker = nil
        self.timer = nil
        self.continuation = nil
        reader = nil
        lock.unlock()
        tracker?.remove(self)
        timer?.cancel()
        continuation?.finish()
    }

    func databaseDidCommit(_ change: DatabaseChange) {
        lock.lock()
        // A read running now may or may not see this commit: read again after it.
        let concerned = !isStopped && (isFetching || (region.map(change.concerns) ?? true))
        if concerned { needsFetch = true }
        lock.unlock()
        if concerned { fetchQueue.async { self.fetchIfNeeded() } }
    }

    /// The queue or pool, when it can write (a read-only pool cannot, and has no commits of its own).
    private var writer: (any DatabaseWriter)? {
        lock.lock()
        defer { lock.unlock() }
        return reader as? any DatabaseWriter
    }

    /// Adds the observer to the writer connection's tracker, in a block of the writer's own, so that every
    /// commit after the block reaches it; and reads the writer's `data_version`. A read-only pool has no
    /// writer and no commits of its own: its `data_version` is read on a connection of the observer's own.
    /// A failure ends the sequence with its error.
    private func register() {
        guard let writer else { return }
        let registered: (ChangeTracker?, Int64?)
        do {
            registered = try writer.writeWithoutTransaction { db -> (ChangeTracker?, Int64?) in
                db.changeTracker.add(self)
                return (db.changeTracker, db.path == ":memory:" ? nil : try db.dataVersion())
            }
        } catch let error as DatabaseError where error.resultCode == .readOnly && writer is DatabasePool {
            do {
                registered = (nil, try readOnlyDataVersion())
            } catch {
                return end(throwing: error)
            }
        } catch {
            return end(throwing: error)
        }
        let (tracker, version) = registered
        lock.lock()
        let stopped = isStopped
        if !stopped {
            self.tracker = tracker
            dataVersion = version
        }
        lock.unlock()
        if stopped { tracker?.remove(self) }
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
        lock.lock()
        let continuation = isStopped ? nil : self.continuation
        lock.unlock()
        continuation?.finish(throwing: error)
        stop()
    }

    /// Reads the value when a commit (or the start) asked for it, and delivers it.
    private func fetchIfNeeded() {
        lock.lock()
        guard !isStopped, needsFetch, let reader else {
            lock.unlock()
            return
        }
        needsFetch = false
        isFetching = true
        lock.unlock()
        let fetch = observation.fetch
        let result = Result {
            try reader.read { db in try db.changeTracker.recordingReads { try fetch(db) } }
        }
        lock.lock()
        isFetching = false
        if case .success((_, let tables)) = result { region = tables }
        let again = needsFetch && !isStopped
        let continuation = isStopped ? nil : self.continuation
        lock.unlock()
        switch result {
        case .success((let value, _)):
            if let isDuplicate = observation.isDuplicate {
                if let lastValue, isDuplicate(lastValue, value) {
                    // Nothing new to deliver.
                } else {
                    lastValue = value
                    continuation?.yield(value)
                }
            } else {
                continuation?.yield(value)
            }
        case .failure(let error):
            continuation?.finish(throwing: error)
            stop()
            return
        }
        if again { fetchQueue.async { self.fetchIfNeeded() } }
    }

    /// Starts checking `PRAGMA data_version` at the observation's interval, for a file database.
    private func startChecks() {
        guard let interval = observation.otherConnectionsInterval else { return }
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

extension Database {
    /// `PRAGMA data_version`: a number that changes when another connection committed a change to the
    /// database file since this connection last asked. See <https://www.sqlite.org/pragma.html#pragma_data_version>.
    /// - Throws: ``DatabaseError`` when the pragma cannot run.
    func dataVersion() throws -> Int64 {
        try integerScalar(sql: "PRAGMA data_version") ?? 0
    }
}
