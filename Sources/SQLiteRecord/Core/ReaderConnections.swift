import CSQLiteRecord
import Dispatch
import Foundation

/// A ``DatabasePool``'s reader connections: opened when a read first needs one, at most `capacity` of them,
/// each lent to one read at a time; a read that finds them all lent waits its turn (first come, first
/// served).
///
/// Also knows which threads run a read body now, so that a pool call from inside one is refused instead of
/// waiting for a connection the same thread holds.
final class ReaderConnections: @unchecked Sendable {
    // @unchecked Sendable: every stored `var` is read and written only with `lock` held. A `Database` taken
    // out with `take` is used by one thread at a time, until `give` hands it back (or on to the next waiter);
    // the lock's release and acquire order the two threads' uses of it.
    private let lock = NSLock()
    /// Open connections no read holds now.
    private var idle: [Database] = []
    /// Every open connection, lent or idle, for `interruptAll`.
    private var opened: [Database] = []
    /// Connections open or being opened, lent or idle: never more than `capacity`.
    private var count = 0
    /// Reads waiting for a connection, in arrival order.
    private var waiters: [(Grant) -> Void] = []
    /// The threads running a read body now.
    private var bodyThreads: [pthread_t] = []
    private let capacity: Int
    private let open: () throws -> Database

    /// What a read is granted: an open connection, or the right to open one.
    ///
    /// @unchecked Sendable: a grant moves from the thread that frees a connection to the one that runs the
    /// read, and only the holder of the grant uses the connection in it.
    enum Grant: @unchecked Sendable {
        case connection(Database)
        case newConnection
    }

    /// - Parameters:
    ///   - capacity: the most connections open at once, at least 1.
    ///   - open: opens one reader connection.
    init(capacity: Int, open: @escaping () throws -> Database) {
        self.capacity = max(1, capacity)
        self.open = open
    }

    /// A connection for the caller, which must ``give(back:)`` it: at once when one is idle or another may
    /// be opened, otherwise after the reads ahead of it are done, blocking the calling thread meanwhile.
    /// - Throws: ``DatabaseError`` when a new connection cannot be opened.
    func take() throws -> Database {
        if let grant = grantNow(orQueue: nil) { return try connection(for: grant) }
        let granted = DispatchSemaphore(value: 0)
        var result: Grant?
        let queued = grantNow { grant in
            result = grant
            granted.signal()
        }
        if let queued { return try connection(for: queued) }
        granted.wait()
        guard let result else {
            throw DatabaseError(resultCode: .misuse, message: "a reader connection was granted without a value")
        }
        return try connection(for: result)
    }

    /// Calls `handler` with a grant as soon as a connection is free, without blocking: on the calling thread
    /// when one is free now, otherwise on the thread that frees one, so `handler` should only hand the grant
    /// on (to a dispatch queue) and turn it into a connection there with ``connection(for:)``.
    func take(then handler: @escaping (Grant) -> Void) {
        if let grant = grantNow(orQueue: handler) { handler(grant) }
    }

    /// Gives a connection back after a read: to the first waiting read, or to the idle ones.
    func give(back database: Database) {
        lock.lock()
        if waiters.isEmpty {
            idle.append(database)
            lock.unlock()
            return
        }
        let next = waiters.removeFirst()
        lock.unlock()
        next(.connection(database))
    }

    /// A grant available now, or nil after queueing `waiter` (when given) for the next one.
    private func grantNow(orQueue waiter: ((Grant) -> Void)?) -> Grant? {
        lock.lock()
        defer { lock.unlock() }
        if let database = idle.popLast() { return .connection(database) }
        if count < capacity {
            count += 1
            return .newConnection
        }
        if let waiter { waiters.append(waiter) }
        return nil
    }

    /// The granted connection, opened now when the grant is to open one; a failed open frees its place. The
    /// caller must ``give(back:)`` the connection after its read.
    /// - Throws: ``DatabaseError`` when the connection cannot be opened.
    func connection(for grant: Grant) throws -> Database {
        switch grant {
        case .connection(let database):
            return database
        case .newConnection:
            do {
                let database = try open()
                lock.lock()
                opened.append(database)
                lock.unlock()
                return database
            } catch {
                lock.lock()
                if waiters.isEmpty {
                    count -= 1
                    lock.unlock()
                } else {
                    // The next read may open one in this one's place (and probably fails the same way).
                    let next = waiters.removeFirst()
                    lock.unlock()
                    next(.newConnection)
                }
                throw error
            }
        }
    }

    /// Runs `body` recorded as a read body on the calling thread.
    func runBody<T>(_ body: () throws -> T) rethrows -> T {
        let thread = pthread_self()
        lock.lock()
        bodyThreads.append(thread)
        lock.unlock()
        defer {
            lock.lock()
            if let index = bodyThreads.lastIndex(where: { pthread_equal($0, thread) != 0 }) {
                bodyThreads.remove(at: index)
            }
            lock.unlock()
        }
        return try body()
    }

    /// True when the calling thread runs a read body of this pool now.
    var isCurrentThreadInside: Bool {
        let thread = pthread_self()
        lock.lock()
        defer { lock.unlock() }
        return bodyThreads.contains { pthread_equal($0, thread) != 0 }
    }

    /// How many reader connections are open now, lent or idle.
    var openedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return opened.count
    }

    /// Interrupts the statement running on each open connection, if any (`sqlite3_interrupt`, safe from any
    /// thread). The lock keeps the connections open meanwhile.
    func interruptAll() {
        lock.lock()
        defer { lock.unlock() }
        for database in opened { sqlite3_interrupt(database.handle) }
    }

    /// Forgets every connection, which closes them once no read holds them; called when no read runs.
    func closeAll() {
        lock.lock()
        let connections = opened
        idle.removeAll()
        opened.removeAll()
        count = 0
        lock.unlock()
        // Released here, outside the lock: closing a connection may take a while (a checkpoint).
        _ = connections
    }
}
