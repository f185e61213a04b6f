import CSQLiteRecord
import Dispatch
import Foundation

/// One database connection behind a serial dispatch queue: safe to share between threads and tasks.
///
/// `read` and `write` run their closure on the queue, one at a time, and return its result; each has an
/// async twin (`try await queue.read { db in ... }`) that awaits the queue without blocking Swift's
/// cooperative thread pool, and interrupts its statement when the task is cancelled. `write` runs the closure
/// in an IMMEDIATE transaction (committed when the closure returns, rolled back when it throws), so the
/// write lock is taken at BEGIN and waits up to the busy timeout instead of failing midway.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "world.sqlite")
/// try queue.write { db in try db.execute(sql: "DELETE FROM cities WHERE population < ?", arguments: [500]) }
/// let count = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") }
/// ```
public final class DatabaseQueue: @unchecked Sendable {
    // `database` is only used from blocks running on `queue`, a serial queue: that is what makes the class
    // safe to share, hence @unchecked Sendable. The one exception is `sqlite3_interrupt` on its handle,
    // which SQLite documents as safe from any thread (see `interrupt()` and QueueOperation).
    let database: Database
    let queue: DispatchQueue
    /// Set on `queue`, so a `read` or `write` called from inside another can be told apart and refused:
    /// a nested `queue.sync` would deadlock.
    private let queueKey = DispatchSpecificKey<Bool>()
    /// The thread running a block on `queue` right now. `getSpecific` sees only the current queue, so a
    /// closure that hops to another queue with `sync` and calls back into this one would escape the
    /// `queueKey` check and deadlock (libdispatch then traps); the owner thread catches it.
    let owner = QueueOwner()
    /// What the queue is called in errors: `DatabaseQueue`, or `DatabasePool` for a pool's writer.
    let name: String

    /// The database file's path, or `":memory:"`.
    public var path: String { database.path }

    /// Opens the database file at `path` as `options` say (by default read-write, created when missing,
    /// foreign keys on, a 5-second busy timeout).
    /// - Parameters:
    ///   - path: a file path; `":memory:"` opens a private in-memory database.
    ///   - options: how to open and set up the connection.
    /// - Throws: ``DatabaseError`` as ``Database/init(path:options:)``: `SQLITE_CANTOPEN`, `SQLITE_NOTADB`,
    ///   `SQLITE_CORRUPT`.
    public convenience init(path: String, options: Database.Options) throws {
        self.init(database: try Database(path: path, options: options), name: "DatabaseQueue")
    }

    /// A queue around `database`, an open connection: a ``DatabasePool``'s writer, named `name` in errors.
    init(database: Database, name: String) {
        self.database = database
        self.name = name
        queue = DispatchQueue(label: "SQLiteRecord.\(name)")
        queue.setSpecific(key: queueKey, value: true)
    }

    /// Opens (creating when needed) the database file at `path`, with the default options.
    /// - Throws: ``DatabaseError`` when the file cannot be opened or is not a database.
    public convenience init(path: String) throws {
        try self.init(path: path, options: Database.Options())
    }

    /// Opens the database file at the file URL `url` as `options` say.
    /// - Throws: ``DatabaseError`` with `SQLITE_CANTOPEN` when `url` is not a file URL, or as
    ///   ``init(path:options:)``.
    public convenience init(url: URL, options: Database.Options = Database.Options()) throws {
        guard url.isFileURL else {
            throw DatabaseError(
                resultCode: .cannotOpen, message: "cannot open database at \(url): only file URLs can be opened")
        }
        try self.init(path: url.path, options: options)
    }

    /// Opens a private, empty in-memory database.
    /// - Throws: ``DatabaseError`` when SQLite cannot allocate it.
    public convenience init() throws {
        try self.init(path: ":memory:")
    }

    /// Runs `body` with the connection, serialized with every other `read` and `write` on this queue,
    /// blocking the calling thread until it is done.
    ///
    /// The body reads one snapshot: it runs in a DEFERRED transaction, so every statement in it sees the
    /// same committed state of the database, even while other processes write the file, and it cannot
    /// write: a statement that would (an INSERT, a `save(db)`, a CREATE) fails with `SQLITE_READONLY` and a
    /// message that names ``write(_:)-3p679`` as the place for it, before it runs (SQLite's
    /// `sqlite3_stmt_readonly` tells which statements may write). See <https://www.sqlite.org/isolation.html>
    /// and <https://www.sqlite.org/c3ref/stmt_readonly.html>.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` for a write inside it,
    ///   ``DatabaseError`` from BEGIN or COMMIT, or ``DatabaseError`` with `SQLITE_MISUSE` when called from
    ///   inside another `read` or `write` on this queue (use the `Database` the outer closure has instead).
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotReentrant("read")
        return try queue.sync { try owner.run { try database.readSnapshot { try body(database) } } }
    }

    /// Runs `body` in an IMMEDIATE transaction, serialized with every other `read` and `write` on this
    /// queue, blocking the calling thread until it is done: committed when `body` returns, rolled back when
    /// it throws.
    ///
    /// Nothing in `body` commits but the transaction itself: once SQLite has ended the transaction inside
    /// the body (it rolls the whole transaction back on an interrupt and on some `SQLITE_FULL`,
    /// `SQLITE_IOERR`, `SQLITE_BUSY` or `SQLITE_NOMEM` errors, and the body's own SQL may run ROLLBACK or
    /// COMMIT), a statement that would commit on its own fails instead, with
    /// `SQLITE_CONSTRAINT_COMMITHOOK`, and the write throws even when the body catches every error. See
    /// <https://www.sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction>.
    /// - Throws: what `body` throws (after the rollback), ``DatabaseError`` from BEGIN or COMMIT, or
    ///   ``DatabaseError`` with `SQLITE_MISUSE` when called from inside another `read` or `write` on this
    ///   queue (use the `Database` the outer closure has instead).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotReentrant("write")
        return try queue.sync {
            try owner.run {
                try database.deliveringCommits { try database.transaction(.immediate) { try body(database) } }
            }
        }
    }

    /// Runs `body` with the connection outside any transaction, serialized with every other `read` and
    /// `write` on this queue: each statement commits on its own unless `body` opens a transaction with
    /// ``Database/transaction(_:_:)``. For the statements SQLite refuses inside a transaction: `VACUUM`,
    /// `PRAGMA foreign_keys`, `PRAGMA synchronous`, `PRAGMA journal_mode = WAL`. GRDB calls it the same.
    /// See <https://www.sqlite.org/lang_vacuum.html> and <https://www.sqlite.org/pragma.html>.
    /// A transaction the body begins and leaves open is rolled back, and the call throws.
    /// - Throws: what `body` throws, or ``DatabaseError`` with `SQLITE_MISUSE` when called from inside
    ///   another `read` or `write` on this queue, or when `body` left a transaction open.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotReentrant("writeWithoutTransaction")
        return try queue.sync {
            try owner.run { try database.deliveringCommits { try database.outsideTransaction { try body(database) } } }
        }
    }

    /// Interrupts the statement running on the queue now, if any: it fails with `SQLITE_INTERRUPT`, and a
    /// `write` it belongs to rolls back. Statements that start after the call are not affected once the
    /// interrupted one has stopped. Safe from any thread. The async `read` and `write` call this for you,
    /// scoped to their own work, when their task is cancelled.
    /// The corresponding SQLite call is `sqlite3_interrupt`; see <https://www.sqlite.org/c3ref/interrupt.html>.
    public func interrupt() {
        sqlite3_interrupt(database.handle)
    }

    /// True when the calling thread runs a block on this queue now: a `read` or `write` there would deadlock.
    var isCurrentThreadInside: Bool {
        DispatchQueue.getSpecific(key: queueKey) == true || owner.isCurrentThread
    }

    private func checkNotReentrant(_ call: String) throws {
        if isCurrentThreadInside {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(name).\(call) was called from inside read or write on the same queue, which "
                    + "would deadlock; use the Database that the outer closure receives")
        }
    }
}
