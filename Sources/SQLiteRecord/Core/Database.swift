import CSQLiteRecord
import Foundation

/// One SQLite connection: a database file, or a private in-memory database.
///
/// Every connection is opened with extended result codes and set up as its ``Options`` say: by default a
/// busy timeout of 5 seconds and `PRAGMA foreign_keys = ON`. A `Database` is not thread-safe (and not
/// `Sendable`): use it on one thread at a time, or through a ``DatabaseQueue``, which serializes access. The
/// connection closes when the object is released. See <https://www.sqlite.org/c3ref/sqlite3.html>.
public final class Database {

    /// The `sqlite3` connection handle.
    let handle: OpaquePointer
    /// The file path given when opening, or `":memory:"`.
    public let path: String
    /// The options the connection was opened with.
    public let options: Options

    /// Prepared statements reused by SQL text: see ``cachedStatement(sql:)``.
    let statementCache: StatementCache
    /// Table columns and what other layers derive from them, dropped when the schema changes.
    let schemaCache: SchemaCache
    /// The library's transactions as the commit and rollback hooks see them (see ``TransactionGuard``).
    let transactionGuard: TransactionGuard
    /// What this connection's statements read and write, and who observes its commits (see ``ChangeTracker``).
    var changeTracker: ChangeTracker { transactionGuard.changeTracker }
    /// A slot for the Record layer to keep what it prepares once per connection (its write plans, one per
    /// record type and statement). Core does not read it; it lives and dies with the connection, as
    /// ``Statement``'s coding slot does with a statement.
    var recordCache: AnyObject?
    /// The error after which SQLite rolled back the whole transaction while a savepoint of
    /// ``transaction(_:_:)`` ran; the outermost transaction then rolls back and throws. See `savepoint`.
    var automaticRollbackCause: (any Error)?
    /// What the trace callback reads (see ``SQLiteCallbacks``), made by the first ``trace(_:)`` and kept
    /// until the connection closes.
    var traceContext: SQLiteCallbacks.TraceContext?
    /// The busy handler's state: how long a statement waits for another connection's lock, and what its
    /// last wait came to (see ``BusyWait``).
    let busyWait: BusyWait
    /// The async call running on this connection now, whose task may be cancelled (see
    /// ``checkCancellation()``); nil between calls and for synchronous ones. Kept by ``busyWait``, whose
    /// handler stops waiting for a lock when the task is cancelled.
    var cancellation: QueueOperation? {
        get { busyWait.cancellation }
        set { busyWait.cancellation = newValue }
    }

    /// Opens the database file at `path` as `options` say: by default read-write, created when missing,
    /// with foreign keys on and a 5-second busy timeout.
    ///
    /// The file is checked at open: a file that is not a database, or a database whose file is shorter than
    /// its header says (truncated), throws here and is left byte for byte as it was. A zero-length file is
    /// a valid empty database. Damage deeper in a file of the right length surfaces as `SQLITE_CORRUPT` when
    /// a statement reads the damaged pages (`PRAGMA integrity_check` finds it ahead of time).
    /// The corresponding SQLite call is `sqlite3_open_v2`; see <https://www.sqlite.org/c3ref/open.html>.
    /// - Parameters:
    ///   - path: a file path; `":memory:"` opens a private in-memory database.
    ///   - options: how to open and set up the connection.
    /// - Throws: ``DatabaseError`` whose message starts with the path: `SQLITE_CANTOPEN` when the file cannot
    ///   be opened (missing with `createIfMissing` false or `readOnly` true, or in a missing folder),
    ///   `SQLITE_CANTOPEN` or `SQLITE_READONLY_DIRECTORY` when this process may not read the file, its `-wal`
    ///   or `-shm`, or create those of a WAL database in its folder (the message says which, and what to do),
    ///   `SQLITE_NOTADB` for a file that is not a database, `SQLITE_CORRUPT` for a truncated or malformed
    ///   one, or the error of a journal mode that cannot be set; or, unchanged, what a
    ///   ``Options/prepareDatabase(_:)`` closure throws.
    public init(path: String, options: Options) throws {
        // Before SQLite opens it: a file cut inside its last page would open, and read zeros as data.
        try Self.checkFileLength(path: path)
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(options.openName(for: path), &handle, options.openFlags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError(code, connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw error.prefixingMessage("cannot open database at \(path): ").explainingOpenFailure(path: path)
        }
        self.handle = handle
        self.path = path
        self.options = options
        self.statementCache = StatementCache(capacity: options.statementCacheCapacity)
        let schemaCache = SchemaCache()
        self.schemaCache = schemaCache
        self.busyWait = BusyWait(timeoutMilliseconds: options.busyTimeoutMilliseconds, connection: handle)
        self.transactionGuard = TransactionGuard(
            schemaCache: schemaCache, changeTracker: ChangeTracker(), busyWait: busyWait)
        transactionGuard.changeTracker.connection = handle
        // deinit closes the connection on each throw below: self is fully initialized.
        do {
            try applySettings(options)
        } catch let error as DatabaseError {
            throw error.prefixingMessage("cannot open database at \(path): ")
        }
        // The user's setup fails the open with its own error, unchanged.
        try runSetups(options)
        do {
            try checkFileAndSetJournalMode(options)
        } catch let error as DatabaseError {
            throw error.prefixingMessage("cannot open database at \(path): ").explainingOpenFailure(path: path)
        }
    }

    /// Opens (creating when needed) the database file at `path`, with the default ``Options``.
    /// - Parameter path: a file path; `":memory:"` opens a private in-memory database.
    /// - Throws: as ``init(path:options:)``.
    public convenience init(path: String) throws {
        try self.init(path: path, options: Options())
    }

    /// Opens the database file at the file URL `url` as `options` say.
    /// - Throws: ``DatabaseError`` with `SQLITE_CANTOPEN` when `url` is not a file URL, or as
    ///   ``init(path:options:)``.
    public convenience init(url: URL, options: Options = Options()) throws {
        guard url.isFileURL else {
            throw DatabaseError(
                resultCode: .cannotOpen, message: "cannot open database at \(url): only file URLs can be opened")
        }
        try self.init(path: url.path, options: options)
    }

    /// Opens a private, empty in-memory database, gone when the object is released.
    /// - Throws: ``DatabaseError`` when SQLite cannot allocate it.
    public convenience init() throws {
        try self.init(path: ":memory:")
    }

    deinit {
        statementCache.removeAll()
        // The Record layer's plans hold prepared statements too.
        recordCache = nil
        SQLiteCallbacks.stopObservingTransactions(on: handle)
        SQLiteCallbacks.stopTrace(on: handle)
        SQLiteCallbacks.stopBusyHandler(on: handle, keepingTimeout: busyWait.timeoutMilliseconds)
        busyWait.forget()
        // close_v2 defers the close until statements still held elsewhere (a cursor) are finalized.
        sqlite3_close_v2(handle)
    }

    /// Prepares `sql`, one statement, for the caller to keep; it is not cached.
    /// - Throws: ``DatabaseError`` when SQLite cannot prepare it, or when the text holds no statement or more
    ///   than one (`SQLITE_MISUSE`). The corresponding SQLite call is `sqlite3_prepare_v3`.
    public func makeStatement(sql: String) throws -> Statement {
        // Statements of the caller's own may change the schema.
        schemaCache.isCurrent = false
        return try prepareStatement(sql: sql)
    }

    /// Prepares a statement the library itself runs (never DDL). `notesUse` false leaves telling an observed
    /// read that the statement is used to the caller, which keeps it for later uses.
    func prepareStatement(sql: String, notesUse: Bool = true) throws -> Statement {
        let statement = try notingSchemaEffects { try Statement(connection: handle, sql: sql) }
        statement.showsArgumentsInErrors = options.showsArgumentsInErrors
        statement.transactionGuard = transactionGuard
        if notesUse { changeTracker.noteUse(of: statement) }
        return statement
    }

    /// The statement for `sql` from this connection's cache, prepared on first use.
    ///
    /// The cache holds up to ``Options/statementCacheCapacity`` statements and evicts the least recently
    /// used. A statement in use (a ``RowCursor`` iterating it, or a caller that has stepped it without
    /// finishing or resetting it) is not shared: the caller then gets a fresh statement, not cached. Bind
    /// before each use (``Statement/bind(_:)`` replaces every binding); the library's own calls reset and
    /// clear a cached statement when they are done with it.
    /// - Throws: as ``makeStatement(sql:)``.
    public func cachedStatement(sql: String) throws -> Statement {
        // Statements of the caller's own may change the schema.
        schemaCache.isCurrent = false
        return try statementFromCache(sql: sql)
    }

    /// ``cachedStatement(sql:)`` for the library's own statements, which never change the schema.
    func statementFromCache(sql: String) throws -> Statement {
        if let statement = statementCache.statement(for: sql), !statement.isBusy, !statement.isCheckedOut {
            changeTracker.noteUse(of: statement)
            return statement
        }
        let statement = try prepareStatement(sql: sql)
        if !statementCache.contains(sql) {
            statementCache.insert(statement, for: sql)
        }
        return statement
    }

    /// The rowid of the most recent successful INSERT on this connection (`sqlite3_last_insert_rowid`).
    /// See <https://www.sqlite.org/c3ref/last_insert_rowid.html>.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Sets what ``lastInsertedRowID`` reports until the next insert (`sqlite3_set_last_insert_rowid`): an
    /// upsert sets a value no insert it runs can produce, then tells an insert from an update by whether
    /// the value moved. See <https://www.sqlite.org/c3ref/set_last_insert_rowid.html>.
    func setLastInsertedRowID(_ rowID: Int64) { sqlite3_set_last_insert_rowid(handle, rowID) }

    /// The number of rows the most recent INSERT, UPDATE or DELETE changed (`sqlite3_changes64`), not
    /// counting changes made by triggers or foreign key actions: FMDB's `changes`, the "rows affected" of
    /// an update. See <https://www.sqlite.org/c3ref/changes.html>.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }

    /// The most values one statement may bind: SQLite's `SQLITE_LIMIT_VARIABLE_NUMBER` for this connection
    /// (32,766 by default since SQLite 3.32, 999 before). See <https://www.sqlite.org/limits.html>.
    public var maximumBoundValues: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }

    /// True between BEGIN and COMMIT or ROLLBACK, that is when the connection is not in autocommit mode
    /// (`sqlite3_get_autocommit`).
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// True when the main database is read-only: opened with ``Options/readOnly``, or a file SQLite could
    /// only open for reading (`sqlite3_db_readonly`). See <https://www.sqlite.org/c3ref/db_readonly.html>.
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }
}
