import CSQLiteRecord
import Dispatch
import Foundation

/// Many readers beside one writer, on a database file in WAL mode: reads run at the same time as each other
/// and as the write, each in a snapshot of its own.
///
/// A pool opens the file, puts it in WAL mode (which the file keeps), and keeps one writer connection and
/// up to ``Database/Options/maximumReaderCount`` reader connections, each opened when a read first needs
/// it. `write` is the queue's: serialized, in an IMMEDIATE transaction, with savepoints for nested
/// transactions. `read` takes an idle reader and runs its closure in one read-only snapshot, which holds
/// for the whole closure and sees only committed data: what the last write committed before the read
/// began, never a write still running. See <https://www.sqlite.org/wal.html>.
///
/// ```swift
/// let pool = try DatabasePool(path: "world.sqlite")
/// try RecordStore.use(pool)                          // save(), fetch() go through the pool
/// try pool.write { db in try db.execute(sql: "DELETE FROM cities WHERE population < ?", arguments: [500]) }
/// let count = try await pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") }
/// ```
///
/// A pool needs a file: an in-memory database has no WAL, and ``init(path:options:)`` refuses `":memory:"`
/// (use a ``DatabaseQueue`` there). A file the process can only read gives a read-only pool: its reads work,
/// and every write throws `SQLITE_READONLY` (see ``isReadOnly``).
public final class DatabasePool: @unchecked Sendable {
    // @unchecked Sendable: `writer` and `isClosed` are read and written only with `lock` held. The writer's
    // connection is used only on its DatabaseQueue; each reader connection by the one read that
    // ReaderConnections lends it to.
    private let lock = NSLock()
    private var writer: DatabaseQueue?
    private var isClosed = false
    /// The pool's calls in progress, counted from before they wait for a connection: what ``close()`` waits
    /// for.
    private let inFlight = DispatchGroup()
    let readers: ReaderConnections
    /// Runs the async reads and the concurrent reads, each block on a reader connection of its own.
    let readQueue = DispatchQueue(label: "SQLiteRecord.DatabasePool.readers", attributes: .concurrent)

    /// The database file's path.
    public let path: String
    /// The options the pool was opened with; its readers are opened with them too, read-only.
    public let options: Database.Options
    /// True when the pool cannot write: it was opened with ``Database/Options/readOnly`` or
    /// ``Database/Options/immutable``, or the file (or the medium it is on) could only be opened for reading. Reads work; `write`, `writeWithoutTransaction`
    /// and ``checkpoint(_:)`` throw `SQLITE_READONLY`.
    public let isReadOnly: Bool

    /// Opens the database file at `path` as a pool: a writer connection (unless the file can only be read),
    /// which puts the file in WAL mode, and reader connections opened as reads need them.
    /// - Parameters:
    ///   - path: the database file's path.
    ///   - options: how to open each connection: by default read-write, created when missing, foreign keys
    ///     on, a 5-second busy timeout, at most 5 readers (``Database/Options/maximumReaderCount``). The
    ///     journal mode is WAL: ``Database/Options/journalMode`` must be nil or `.wal`.
    /// - Throws: ``DatabaseError`` with `SQLITE_CANTOPEN` for `":memory:"` or an empty path (WAL needs a
    ///   file), `SQLITE_MISUSE` for another journal mode or fewer than one reader, or as
    ///   ``Database/init(path:options:)`` when the file cannot be opened, is not a database, or cannot be put
    ///   in WAL mode.
    public init(path: String, options: Database.Options = Database.Options()) throws {
        guard path != ":memory:" && !path.isEmpty else {
            throw DatabaseError(
                resultCode: .cannotOpen,
                message: "a DatabasePool needs a database file: its readers and writer share the file through a "
                    + "write-ahead log, which an in-memory database does not have; use a DatabaseQueue for "
                    + "\(path.isEmpty ? "a temporary" : "an in-memory") database")
        }
        if let mode = options.journalMode, mode != .wal {
            throw DatabaseError(
                resultCode: .misuse,
                message: "a DatabasePool uses the WAL journal mode, not \(mode.rawValue): leave "
                    + "Options.journalMode nil, or use a DatabaseQueue for the \(mode.rawValue) mode")
        }
        guard options.maximumReaderCount >= 1 else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "a DatabasePool needs at least one reader; Options.maximumReaderCount is "
                    + "\(options.maximumReaderCount)")
        }
        self.path = path
        self.options = options
        var writerOptions = options
        writerOptions.journalMode = nil
        let connection = try Database(path: path, options: writerOptions)
        if connection.isReadOnly {
            // Read-only by request or because the file or its medium cannot be written: no WAL switch (that
            // writes the header), no writer; the file's journal mode stays what it is, and the readers read.
            isReadOnly = true
            writer = nil
        } else {
            do {
                // Waits up to the busy timeout while another connection writes (see retryingWhileLocked).
                try connection.retryingWhileLocked { try connection.setJournalMode(.wal) }
            } catch let error as DatabaseError {
                throw error.prefixingMessage("cannot open a DatabasePool at \(path): ")
            }
            isReadOnly = false
            writer = DatabaseQueue(database: connection, name: "DatabasePool")
        }
        var readerOptions = options
        readerOptions.readOnly = true
        readerOptions.createIfMissing = false
        readerOptions.journalMode = nil
        readers = ReaderConnections(capacity: options.maximumReaderCount) {
            try Database(path: path, options: readerOptions)
        }
    }

    /// Opens the database file at the file URL `url` as a pool.
    /// - Throws: ``DatabaseError`` with `SQLITE_CANTOPEN` when `url` is not a file URL, or as
    ///   ``init(path:options:)``.
    public convenience init(url: URL, options: Database.Options = Database.Options()) throws {
        guard url.isFileURL else {
            throw DatabaseError(
                resultCode: .cannotOpen, message: "cannot open database at \(url): only file URLs can be opened")
        }
        try self.init(path: url.path, options: options)
    }

    deinit {
        // Readers first: the writer, the file's last connection in this process, then checkpoints the WAL.
        readers.closeAll()
    }

    /// Runs `body` with a reader connection in one read-only snapshot, beside other reads and the write,
    /// blocking the calling thread until it is done.
    ///
    /// The snapshot is taken when the read begins and holds for the whole closure: every statement in it
    /// sees what the writes committed before then, and nothing of a write still running or committed since.
    /// A statement that would write fails with `SQLITE_READONLY`. When every reader is busy
    /// (``Database/Options/maximumReaderCount``), the read waits for one. See
    /// <https://www.sqlite.org/isolation.html>.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` for a write inside it, from
    ///   opening a reader, BEGIN or COMMIT, or with `SQLITE_MISUSE` when called from inside another `read` or
    ///   `write` of this pool (use the `Database` the outer closure has) or after ``close()``.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotInside("read")
        try enter()
        defer { inFlight.leave() }
        let db = try readers.take()
        defer { readers.give(back: db) }
        return try readers.runBody { try db.readSnapshot(startingNow: true) { try body(db) } }
    }

    /// Runs `body` in an IMMEDIATE transaction on the writer connection, serialized with every other write
    /// of this pool (reads go on meanwhile), blocking the calling thread until it is done: committed when
    /// `body` returns, rolled back when it throws. It behaves as ``DatabaseQueue/write(_:)-3p679`` does:
    /// nested transactions are savepoints, and once SQLite has ended the transaction inside the body,
    /// nothing later in it commits. See <https://www.sqlite.org/lang_transaction.html>.
    /// - Throws: what `body` throws (after the rollback); ``DatabaseError`` from BEGIN or COMMIT, with
    ///   `SQLITE_READONLY` on a read-only pool, or with `SQLITE_MISUSE` when called from inside another `read`
    ///   or `write` of this pool or after ``close()``.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotInside("write")
        let writer = try enterWriter("write")
        defer { inFlight.leave() }
        return try writer.write(body)
    }

    /// Runs `body` with the writer connection outside any transaction, serialized with every other write:
    /// each statement commits on its own unless `body` opens a transaction. For `VACUUM`, the pragmas SQLite
    /// refuses inside a transaction, and ``concurrentRead(_:)`` after a transaction of the body's own.
    /// See <https://www.sqlite.org/lang_vacuum.html>.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` on a read-only pool, or with
    ///   `SQLITE_MISUSE` when called from inside another `read` or `write` of this pool or after ``close()``.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try checkNotInside("writeWithoutTransaction")
        let writer = try enterWriter("writeWithoutTransaction")
        defer { inFlight.leave() }
        return try writer.writeWithoutTransaction(body)
    }

    /// Interrupts the statements running now on the pool's connections, the writer's and every reader's:
    /// they fail with `SQLITE_INTERRUPT`, and a write they belong to rolls back. Safe from any thread. The
    /// async calls interrupt their own statement when their task is cancelled.
    /// The corresponding SQLite call is `sqlite3_interrupt`; see <https://www.sqlite.org/c3ref/interrupt.html>.
    public func interrupt() {
        lock.lock()
        let writer = writer
        lock.unlock()
        writer?.interrupt()
        readers.interruptAll()
    }

    /// Closes the pool: waits for the reads and writes in progress (and those waiting for a connection) to
    /// finish, then closes every connection, readers first, so that the writer's close checkpoints the WAL
    /// into the database file. Later calls throw `SQLITE_MISUSE`; closing again does nothing. A pool that is
    /// released without `close()` closes the same way, once nothing holds it.
    /// See <https://www.sqlite.org/c3ref/close.html>.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` when called from inside a `read` or `write` of this
    ///   pool (it would wait for itself).
    public func close() throws {
        try checkNotInside("close")
        lock.lock()
        if isClosed {
            lock.unlock()
            return
        }
        isClosed = true
        lock.unlock()
        inFlight.wait()
        readers.closeAll()
        lock.lock()
        let writer = writer
        self.writer = nil
        lock.unlock()
        // Released here, outside the lock: the writer's close may checkpoint.
        _ = writer
    }

    // MARK: Bookkeeping

    /// Counts a call as in progress, unless the pool is closed.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` after ``close()``.
    func enter() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw closedError }
        inFlight.enter()
    }

    /// Ends a call counted by ``enter()``.
    func leave() {
        inFlight.leave()
    }

    /// Counts a write as in progress and returns the writer.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` after ``close()``, `SQLITE_READONLY` on a read-only
    ///   pool.
    func enterWriter(_ call: String) throws -> DatabaseQueue {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw closedError }
        guard let writer else {
            throw DatabaseError(
                resultCode: .readOnly,
                message: "DatabasePool.\(call) cannot write: the pool on \(path) is read-only ("
                    + (options.readOnly || options.immutable
                        ? "it was opened with Options.\(options.immutable ? "immutable" : "readOnly")"
                        : "the file, or the medium it is on, can only be read")
                    + "); its reads work"
                    + (options.readOnly || options.immutable
                        ? "" : DatabaseError.fileAccessAdvice(path: path, resultCode: .readOnly) ?? ""))
        }
        inFlight.enter()
        return writer
    }

    /// The writer, when the pool has one and is open.
    var currentWriter: DatabaseQueue? {
        lock.lock()
        defer { lock.unlock() }
        return writer
    }

    private var closedError: DatabaseError {
        DatabaseError(resultCode: .misuse, message: "the DatabasePool on \(path) is closed")
    }

    /// Refuses a call from inside a read or write of this pool: a read there would see the state before the
    /// write it is inside, a write would wait for itself, and a read inside reads could take every reader.
    private func checkNotInside(_ call: String) throws {
        if readers.isCurrentThreadInside || currentWriter?.isCurrentThreadInside == true {
            throw DatabaseError(
                resultCode: .misuse,
                message: "DatabasePool.\(call) was called from inside a read or write of the same pool; use the "
                    + "Database that the outer closure receives")
        }
    }
}
