import Dispatch

/// One database connection behind a serial dispatch queue: safe to share between threads and tasks.
///
/// `read` and `write` run their closure on the queue, one at a time, and return its result. `write` runs it
/// in an IMMEDIATE transaction (committed when the closure returns, rolled back when it throws), so the
/// write lock is taken at BEGIN and waits up to the busy timeout instead of failing midway.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "world.sqlite")
/// try queue.write { db in try db.execute(sql: "DELETE FROM cities WHERE population < ?", arguments: [500]) }
/// ```
public final class DatabaseQueue: @unchecked Sendable {
    // `database` is only touched from blocks running on `queue`, a serial queue: that is what makes the
    // class safe to share, hence @unchecked Sendable.
    private let database: Database
    private let queue: DispatchQueue
    /// Set on `queue`, so a `read` or `write` called from inside another can be told apart and refused:
    /// a nested `queue.sync` would deadlock.
    private let queueKey = DispatchSpecificKey<Bool>()

    /// The database file's path, or `":memory:"`.
    public var path: String { database.path }

    /// Opens (creating when needed) the database file at `path`.
    /// - Throws: ``DatabaseError`` when the file cannot be opened or is not a database.
    public init(path: String) throws {
        database = try Database(path: path)
        queue = DispatchQueue(label: "SQLiteRecord.DatabaseQueue")
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Opens a private, empty in-memory database.
    /// - Throws: ``DatabaseError`` when SQLite cannot allocate it.
    public convenience init() throws {
        try self.init(path: ":memory:")
    }

    /// Runs `body` with the connection, serialized with every other `read` and `write` on this queue.
    ///
    /// No transaction is opened: each statement reads a consistent state of its own, and no other access
    /// through this queue interleaves with the closure. Open one with ``Database/transaction(_:_:)`` to
    /// read several statements from one snapshot while other processes write the file.
    /// - Throws: what `body` throws, or ``DatabaseError`` with `SQLITE_MISUSE` when called from inside
    ///   another `read` or `write` on this queue (use the `Database` the outer closure has instead).
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotReentrant("read")
        return try queue.sync { try body(database) }
    }

    /// Runs `body` in an IMMEDIATE transaction, serialized with every other `read` and `write` on this
    /// queue: committed when `body` returns, rolled back when it throws.
    /// - Throws: what `body` throws (after the rollback), ``DatabaseError`` from BEGIN or COMMIT, or
    ///   ``DatabaseError`` with `SQLITE_MISUSE` when called from inside another `read` or `write` on this
    ///   queue (use the `Database` the outer closure has instead).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotReentrant("write")
        return try queue.sync {
            try database.transaction(.immediate) { try body(database) }
        }
    }

    private func checkNotReentrant(_ call: String) throws {
        if DispatchQueue.getSpecific(key: queueKey) == true {
            throw DatabaseError(
                resultCode: .misuse,
                message: "DatabaseQueue.\(call) was called from inside read or write on the same queue, which "
                    + "would deadlock; use the Database that the outer closure receives")
        }
    }
}
