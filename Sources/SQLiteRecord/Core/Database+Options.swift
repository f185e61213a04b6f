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
    ///
    /// Two options are equal when their values are equal and they hold the same setup closures (the same
    /// ``prepareDatabase(_:)`` calls, compared by identity: closures have no equality of their own).
    public struct Options: Sendable, Equatable {
        /// Opens the database read-only (`SQLITE_OPEN_READONLY`): every write fails with `SQLITE_READONLY`,
        /// whatever the file's permissions (which do not stop root). The file must exist. Default false.
        /// See <https://www.sqlite.org/c3ref/open.html>.
        public var readOnly: Bool
        /// Opens the database immutable, read-only (SQLite's URI parameter `immutable=1`): SQLite takes no
        /// locks and neither reads nor creates the `-wal` and `-shm` files, so a WAL database opens in a
        /// folder this process may not write, where a plain read-only open fails. Only for a file no process
        /// changes while it is open: SQLite would read another connection's changes as corruption or miss
        /// them, and rows still in a `-wal` file that was not checkpointed are not seen. Implies
        /// ``readOnly``. Default false. See <https://www.sqlite.org/uri.html#uriimmutable> and
        /// <https://www.sqlite.org/wal.html#readonly>.
        public var immutable: Bool
        /// Creates the file when it does not exist (`SQLITE_OPEN_CREATE`); when false, a missing file fails
        /// with `SQLITE_CANTOPEN`. Ignored when ``readOnly`` or ``immutable`` is true. Default true.
        public var createIfMissing: Bool
        /// How long, in seconds, a statement waits for another connection's lock before failing with
        /// `SQLITE_BUSY`, rounded to milliseconds; 0 (or a negative value) fails at once. Default 5. The wait is
        /// the library's busy handler (`sqlite3_busy_handler`): it measures the wait for the error's message
        /// ("database is locked: waited 5.01 s, ..."), and stops at once when the task of the async call is
        /// cancelled. SQLite does not call it where waiting could deadlock, and the error then says it did not
        /// wait. `PRAGMA busy_timeout` reads 0 on such a connection, and setting it replaces the library's
        /// handler with SQLite's own. See <https://www.sqlite.org/c3ref/busy_handler.html>.
        public var busyTimeout: TimeInterval
        /// Enforces foreign keys (`PRAGMA foreign_keys = ON`); when false they are off, SQLite's own
        /// default. Default true. See <https://www.sqlite.org/foreignkeys.html>.
        public var foreignKeys: Bool
        /// Fires delete triggers for the rows a REPLACE conflict resolution deletes, and lets triggers fire
        /// recursively (`PRAGMA recursive_triggers = ON`). Without it, `INSERT OR REPLACE`, `REPLACE` and
        /// `UPDATE OR REPLACE` delete the row they replace without its AFTER DELETE trigger, so an external
        /// content full-text index (``FullTextSearchable``) keeps the old row's words and fails FTS5's
        /// integrity-check. A trigger that writes its own table then fires itself again, up to SQLite's depth
        /// limit of 1000 (`SQLITE_MAX_TRIGGER_DEPTH`). Default true; SQLite's own default is off. See
        /// <https://www.sqlite.org/lang_conflict.html> and
        /// <https://www.sqlite.org/pragma.html#pragma_recursive_triggers>.
        public var recursiveTriggers: Bool
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
        /// The closures ``prepareDatabase(_:)`` added, run in order on each new connection.
        var setups: [DatabaseSetup] = []

        /// Options with SQLite's defaults except foreign keys on, recursive triggers on and a 5-second busy
        /// timeout.
        /// - Parameters: see each property; `busyTimeout` is in seconds.
        public init(
            readOnly: Bool = false, createIfMissing: Bool = true, busyTimeout: TimeInterval = 5,
            foreignKeys: Bool = true, journalMode: JournalMode? = nil, statementCacheCapacity: Int = 128,
            showsArgumentsInErrors: Bool = false, maximumReaderCount: Int = 5, recursiveTriggers: Bool = true,
            immutable: Bool = false
        ) {
            self.readOnly = readOnly
            self.immutable = immutable
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.foreignKeys = foreignKeys
            self.journalMode = journalMode
            self.statementCacheCapacity = statementCacheCapacity
            self.showsArgumentsInErrors = showsArgumentsInErrors
            self.maximumReaderCount = maximumReaderCount
            self.recursiveTriggers = recursiveTriggers
        }

        /// Adds `setup`, run on every connection opened with these options, before the connection reads the
        /// file or serves any call: a ``Database``'s own, a ``DatabaseQueue``'s, and a ``DatabasePool``'s
        /// writer and each of its readers, those open now and those it opens later (observations read through
        /// them too). Custom functions, collations and pragmas registered here exist on every connection, so
        /// `pool.read` finds them whichever reader it gets.
        ///
        /// ```swift
        /// var options = Database.Options()
        /// options.prepareDatabase { db in
        ///     try db.createFunction("shout", argumentCount: 1, isDeterministic: true) { arguments in
        ///         guard case .text(let text) = arguments[0] else { return nil }
        ///         return text.uppercased()
        ///     }
        ///     try db.createCollation("localized") { $0.localizedStandardCompare($1) }
        /// }
        /// let pool = try DatabasePool(path: "world.sqlite", options: options)
        /// ```
        ///
        /// The name is GRDB's (`Configuration.prepareDatabase`), where users of the reference Swift library
        /// look for it. Each call adds a closure; they run in the order they were added, after the
        /// connection's own settings (extended result codes, the busy timeout, ``foreignKeys``,
        /// ``recursiveTriggers``) and before
        /// its first read of the file and the ``journalMode`` change, so a pragma that must come first (an
        /// encryption key) does. Reader connections are read-only: a setup that writes checks
        /// ``Database/isReadOnly`` first. A closure may run on any thread, once per connection, and must not
        /// keep the `Database` it is given.
        /// - Parameter setup: sets one connection up; what it throws fails the open of that connection with
        ///   that same error, unchanged (the open of a queue or pool, or the read that needed a new reader),
        ///   and the connection is closed.
        public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
            setups.append(DatabaseSetup(setup))
        }

        /// True when every value is equal and both hold the same setup closures, in the same order
        /// (compared by identity).
        public static func == (left: Options, right: Options) -> Bool {
            left.readOnly == right.readOnly && left.immutable == right.immutable
                && left.createIfMissing == right.createIfMissing
                && left.busyTimeout == right.busyTimeout && left.foreignKeys == right.foreignKeys
                && left.journalMode == right.journalMode
                && left.statementCacheCapacity == right.statementCacheCapacity
                && left.showsArgumentsInErrors == right.showsArgumentsInErrors
                && left.maximumReaderCount == right.maximumReaderCount
                && left.recursiveTriggers == right.recursiveTriggers
                && left.setups.elementsEqual(right.setups, by: ===)
        }

        /// The flags for `sqlite3_open_v2`.
        var openFlags: Int32 {
            // The connection is only ever used by one thread at a time (DatabaseQueue serializes; a DatabasePool
            // hands each reader to one read at a time), so SQLite's
            // own per-connection mutex is not needed. sqlite3_interrupt, the one call made from another
            // thread, is documented safe without it.
            var flags = SQLITE_OPEN_NOMUTEX
            if immutable {
                flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            } else if readOnly {
                flags |= SQLITE_OPEN_READONLY
            } else {
                flags |= SQLITE_OPEN_READWRITE
                if createIfMissing { flags |= SQLITE_OPEN_CREATE }
            }
            return flags
        }

        /// The name `sqlite3_open_v2` opens for `path`: the path itself, or with ``immutable`` the URI
        /// `file:PATH?immutable=1` (`?`, `#` and `%` in the path percent-encoded, as SQLite's URIs need). A
        /// path that is already a `file:` URI is opened as given. See <https://www.sqlite.org/uri.html>.
        func openName(for path: String) -> String {
            guard immutable, path != ":memory:", !path.isEmpty, !path.hasPrefix("file:"),
                let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
            else { return path }
            return "file:" + encoded + "?immutable=1"
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

    /// The connection's own settings, which read nothing from the file: the first step of an open.
    func applySettings(_ options: Options) throws {
        sqlite3_extended_result_codes(handle, 1)
        SQLiteCallbacks.observeTransactions(on: handle, transactionGuard)
        SQLiteCallbacks.setBusyHandler(on: handle, busyWait)
        // Every identifier the library writes is double-quoted: with this quirk on, a quoted name that is
        // not a column silently becomes a string and a query matches nothing instead of failing.
        try DatabaseError.check(csqliterecord_disable_double_quoted_strings(handle), connection: handle)
        try execute(sql: options.foreignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        if options.recursiveTriggers { try execute(sql: "PRAGMA recursive_triggers = ON") }
        // Built in, so that the Unicode-aware text matchers work on every connection, readers included.
        try registerCaseFolding()
        try registerNULReplacement()
    }

    /// Runs the ``Options/prepareDatabase(_:)`` closures in order: the second step of an open. Their errors
    /// pass through unchanged.
    func runSetups(_ options: Options) throws {
        for setup in options.setups { try setup.body(self) }
    }

    /// The last step of an open. Reading the schema comes before anything that could write: it makes a file
    /// that is not a database, or is truncated, fail here with `SQLITE_NOTADB` or `SQLITE_CORRUPT`, rather
    /// than at the first query, and with the file untouched.
    func checkFileAndSetJournalMode(_ options: Options) throws {
        // SQLite checks the header and, since 3.25, that the file holds the pages the header counts.
        // Both wait for another connection's lock as any statement does, retried where SQLite's busy handler
        // is not called.
        try retryingWhileLocked { try execute(sql: "SELECT count(*) FROM sqlite_master") }
        if let mode = options.journalMode {
            try retryingWhileLocked { try setJournalMode(mode) }
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
