import CSQLiteRecord
import Foundation

extension Database {
    /// How a connection is opened and set up: given to ``Database/init(path:options:)``,
    /// ``DatabaseQueue/init(path:options:)`` and ``DatabasePool/init(path:options:)`` (which applies them to
    /// its writer and to each reader).
    ///
    /// ```swift
    /// let reader = try Database(path: "world.sqlite", options: .init(readOnly: true, busyTimeout: 1))
    /// let queue = try DatabaseQueue(path: "world.sqlite", options: .init(journalMode: .wal))
    /// ```
    public struct Options: Sendable, Equatable {
        /// Opens the database read-only (`SQLITE_OPEN_READONLY`): every write fails with `SQLITE_READONLY`,
        /// whatever the file's permissions (which do not stop root). The file must exist. Default false.
        /// See <https://www.sqlite.org/c3ref/open.html>.
        public var readOnly: Bool
        /// Creates the file when it does not exist (`SQLITE_OPEN_CREATE`); when false, a missing file fails
        /// with `SQLITE_CANTOPEN`. Ignored when ``readOnly`` is true. Default true.
        public var createIfMissing: Bool
        /// How long, in seconds, a statement waits for another connection's lock before failing with
        /// `SQLITE_BUSY` (`sqlite3_busy_timeout`, which counts milliseconds; the value is rounded to them).
        /// 0 fails at once. Default 5. See <https://www.sqlite.org/c3ref/busy_timeout.html>.
        public var busyTimeout: TimeInterval
        /// Enforces foreign keys (`PRAGMA foreign_keys = ON`); when false they are off, SQLite's own
        /// default. Default true. See <https://www.sqlite.org/foreignkeys.html>.
        public var foreignKeys: Bool
        /// The journal mode to set at open (`PRAGMA journal_mode`); nil keeps the file's (a new file's is
        /// `delete`). WAL lets readers on other connections work while one connection writes, and is kept
        /// by the file once set. Default nil. See <https://www.sqlite.org/pragma.html#pragma_journal_mode>.
        public var journalMode: JournalMode?
        /// The most prepared statements the connection keeps for reuse, keyed by SQL text; the least
        /// recently used is finalized when a new one needs the room. 0 keeps none. Default 128.
        public var statementCacheCapacity: Int
        /// When true, the ``DatabaseError``s this connection throws show their bound argument values in
        /// their description; when false (the default) descriptions give only how many there were, so that
        /// logs do not leak stored data. ``DatabaseError/arguments`` holds the values either way.
        public var showsArgumentsInErrors: Bool
        /// The most reader connections a ``DatabasePool`` opens, each when a read first needs it: as many
        /// reads run at once, and a read beyond them waits for one to finish. At least 1; ignored by
        /// ``Database`` and ``DatabaseQueue``. Default 5, GRDB's too: more than the cores of most devices,
        /// few enough that the connections' page caches stay small.
        public var maximumReaderCount: Int

        /// Options with SQLite's defaults except foreign keys on and a 5-second busy timeout.
        /// - Parameters: see each property; `busyTimeout` is in seconds.
        public init(
            readOnly: Bool = false, createIfMissing: Bool = true, busyTimeout: TimeInterval = 5,
            foreignKeys: Bool = true, journalMode: JournalMode? = nil, statementCacheCapacity: Int = 128,
            showsArgumentsInErrors: Bool = false, maximumReaderCount: Int = 5
        ) {
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.foreignKeys = foreignKeys
            self.journalMode = journalMode
            self.statementCacheCapacity = statementCacheCapacity
            self.showsArgumentsInErrors = showsArgumentsInErrors
            self.maximumReaderCount = maximumReaderCount
        }

        /// The flags for `sqlite3_open_v2`.
        var openFlags: Int32 {
            // The connection is only ever used by one thread at a time (DatabaseQueue serializes; a DatabasePool
            // hands each reader to one read at a time), so SQLite's
            // own per-connection mutex is not needed. sqlite3_interrupt, the one call made from another
            // thread, is documented safe without it.
            var flags = SQLITE_OPEN_NOMUTEX
            if readOnly {
                flags |= SQLITE_OPEN_READONLY
            } else {
                flags |= SQLITE_OPEN_READWRITE
                if createIfMissing { flags |= SQLITE_OPEN_CREATE }
            }
            return flags
        }

        /// ``busyTimeout`` in whole milliseconds, clamped to what `sqlite3_busy_timeout` takes; NaN and
        /// negative values are 0.
        var busyTimeoutMilliseconds: Int32 {
            let milliseconds = (busyTimeout * 1000).rounded()
            guard milliseconds > 0 else { return 0 }  // also NaN
            return milliseconds >= Double(Int32.max) ? Int32.max : Int32(milliseconds)
        }
    }

    /// A journal mode: how SQLite keeps a transaction atomic on disk.
    /// See <https://www.sqlite.org/pragma.html#pragma_journal_mode>.
    public enum JournalMode: String, Sendable, Hashable, CaseIterable {
        /// A rollback journal deleted at each commit: SQLite's default.
        case delete
        /// A rollback journal truncated to zero bytes at each commit.
        case truncate
        /// A rollback journal whose header is zeroed at each commit.
        case persist
        /// A rollback journal kept in memory: a crash mid-transaction can corrupt the file.
        case memory
        /// A write-ahead log: readers do not block the writer nor the writer them.
        /// See <https://www.sqlite.org/wal.html>.
        case wal
        /// No journal: ROLLBACK is undefined and a crash can corrupt the file.
        case off
    }

    /// Sets the connection up as `options` ask, after it is open. Reading the schema comes before anything
    /// that could write: it makes a file that is not a database, or is truncated, fail here with
    /// `SQLITE_NOTADB` or `SQLITE_CORRUPT`, rather than at the first query, and with the file untouched.
    func configure(_ options: Options) throws {
        sqlite3_extended_result_codes(handle, 1)
        SQLiteCallbacks.observeTransactions(on: handle, transactionGuard)
        sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
        BusyTimeouts.remember(options.busyTimeout, for: handle)
        // Every identifier the library writes is double-quoted: with this quirk on, a quoted name that is
        // not a column silently becomes a string and a query matches nothing instead of failing.
        try DatabaseError.check(csqliterecord_disable_double_quoted_strings(handle), connection: handle)
        try execute(sql: options.foreignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        // SQLite checks the header and, since 3.25, that the file holds the pages the header counts.
        try execute(sql: "SELECT count(*) FROM sqlite_master")
        if let mode = options.journalMode {
            try setJournalMode(mode)
        }
    }

    /// Runs `PRAGMA journal_mode = mode` and checks the answer: SQLite answers with the mode in force, which
    /// is not the one asked for when the database cannot use it (an in-memory database only has `memory`
    /// and `off`).
    func setJournalMode(_ mode: JournalMode) throws {
        let sql = "PRAGMA journal_mode = \(mode.rawValue)"  // a case name from the enum, not user input
        let statement = try makeStatement(sql: sql)
        let current = try statement.step() ? statement.string(at: 0).lowercased() : ""
        statement.reset()
        guard current == mode.rawValue else {
            throw DatabaseError(
                resultCode: .error,
                message: "the journal mode could not be set to \(mode.rawValue); it is \(current)", sql: sql)
        }
    }
}
