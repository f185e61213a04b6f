import CSQLiteRecord

// Online backups: SQLite's backup API (`sqlite3_backup_*`), which copies a live database page by page, and
// `VACUUM INTO`, which writes a compacted copy in one statement. See <https://www.sqlite.org/backup.html> and
// <https://www.sqlite.org/lang_vacuum.html#vacuuminto>.

extension Database {
    /// How far a backup has come, reported after each step of ``backup(to:pagesPerStep:progress:)``.
    /// Counts are of database pages (``pageCount`` times the page size, 4,096 bytes by default, is the
    /// source's size), as `sqlite3_backup_pagecount` and `sqlite3_backup_remaining` report them.
    public struct BackupProgress: Sendable, Hashable {
        /// The pages still to copy after this step.
        public let remainingPageCount: Int
        /// The pages of the source database at this step.
        public let pageCount: Int

        /// The pages copied so far.
        public var completedPageCount: Int { pageCount - remainingPageCount }

        /// True after the last step: every page is copied.
        public var isComplete: Bool { remainingPageCount == 0 }

        /// A progress report with SQLite's two counts.
        public init(remainingPageCount: Int, pageCount: Int) {
            self.remainingPageCount = remainingPageCount
            self.pageCount = pageCount
        }
    }

    /// Copies this connection's main database into `destination`'s, replacing what it held, `pagesPerStep`
    /// pages at a time; `progress` hears each step.
    ///
    /// Each step takes SQLite's shared lock on the source for that step alone. The copy is of the
    /// snapshot this connection reads: called inside a read transaction (``DatabasePool/read(_:)``, as
    /// ``DatabaseReader/backup(to:pagesPerStep:progress:)`` does), it is that transaction's snapshot, and on a
    /// WAL database other connections' writes go on between and during the steps without touching the copy.
    /// Outside a transaction, a write by another connection between two steps makes SQLite start the copy
    /// over at the next step, which a steady stream of writes can keep doing; writes through this connection
    /// are copied as they happen.
    ///
    /// `destination` must be outside any transaction, and nothing else may use it until the backup ends.
    /// The corresponding SQLite calls are `sqlite3_backup_init`, `sqlite3_backup_step`,
    /// `sqlite3_backup_remaining`, `sqlite3_backup_pagecount` and `sqlite3_backup_finish`; see
    /// <https://www.sqlite.org/c3ref/backup_finish.html>.
    /// - Parameters:
    ///   - destination: the connection whose main database becomes the copy.
    ///   - pagesPerStep: pages copied per step, more than 0; -1 (or any negative number) copies every page in
    ///     one step.
    ///   - progress: called after each step, on this thread, with the pages remaining and the total. Throwing
    ///     from it stops the backup: the destination's copy is rolled back, and the error is rethrown.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` for a `pagesPerStep` of 0, with `SQLITE_ERROR` when
    ///   `destination` is inside a transaction or is this connection, `SQLITE_BUSY` or `SQLITE_LOCKED` when a
    ///   lock kept a step from running, `SQLITE_READONLY` for a read-only destination, or another error of
    ///   SQLite's; what `progress` throws.
    public func backup(
        to destination: Database, pagesPerStep: Int = 100, progress: ((BackupProgress) throws -> Void)? = nil
    ) throws {
        guard pagesPerStep != 0 else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "a backup of \(path) in steps of 0 pages would never end: pass a positive count, or -1 "
                    + "to copy every page in one step")
        }
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            // The error is the destination connection's (https://www.sqlite.org/c3ref/backup_finish.html).
            throw DatabaseError(sqlite3_extended_errcode(destination.handle), connection: destination.handle, sql: nil)
        }
        let step = Int32(clamping: pagesPerStep)
        var finished = false
        defer {
            if !finished { sqlite3_backup_finish(backup) }
        }
        while true {
            let code = sqlite3_backup_step(backup, step)
            guard code == SQLITE_OK || code == SQLITE_DONE else {
                finished = true
                sqlite3_backup_finish(backup)
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: "the backup of \(path) into \(destination.path) stopped: "
                        + (sqlite3_errstr(code).map { String(cString: $0) } ?? "error \(code)"))
            }
            let report = BackupProgress(
                remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                pageCount: Int(sqlite3_backup_pagecount(backup)))
            try progress?(report)
            if code == SQLITE_DONE { break }
        }
        finished = true
        try DatabaseError.check(sqlite3_backup_finish(backup), connection: destination.handle)
    }

    /// Writes a compacted copy of this connection's main database to a new file at `path`, in one
    /// statement: `VACUUM INTO`. The copy is one consistent snapshot, with its free pages dropped; the source
    /// is not changed. Run it outside a transaction (``DatabaseWriter/vacuum(into:)`` does).
    ///
    /// `path` must not exist, or be an empty file. See <https://www.sqlite.org/lang_vacuum.html#vacuuminto>.
    /// - Throws: ``DatabaseError``: `SQLITE_ERROR` with "output file already exists" when `path` holds a
    ///   database, or inside a transaction ("cannot VACUUM from within a transaction"), `SQLITE_CANTOPEN`
    ///   when the file cannot be created.
    public func vacuum(into path: String) throws {
        try execute(sql: "VACUUM INTO ?", arguments: [path])
    }
}

extension DatabaseReader {
    /// Copies one snapshot of this database into `destination`'s, replacing what it held, in steps of
    /// `pagesPerStep` pages (see ``Database/backup(to:pagesPerStep:progress:)``): the read of one snapshot,
    /// with `destination`'s connection outside any transaction.
    ///
    /// On a ``DatabasePool`` the backup runs on a reader connection, so writes go on while it copies, and
    /// none of them is in the copy. On a ``DatabaseQueue``, whose one connection the backup holds, reads and
    /// writes wait until it ends.
    /// - Throws: as ``Database/backup(to:pagesPerStep:progress:)``, and as ``read(_:)`` and
    ///   ``DatabaseWriter/writeWithoutTransaction(_:)``.
    public func backup(
        to destination: some DatabaseWriter, pagesPerStep: Int = 100,
        progress: ((Database.BackupProgress) throws -> Void)? = nil
    ) throws {
        try read { source in
            try destination.writeWithoutTransaction { target in
                try source.backup(to: target, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }
}

extension DatabaseWriter {
    /// Writes a compacted copy of this database to a new file at `path`: ``Database/vacuum(into:)`` on the
    /// writer connection, outside any transaction. Other writes wait until it ends; for a copy made while
    /// they go on, use ``DatabaseReader/backup(to:pagesPerStep:progress:)`` from a ``DatabasePool``.
    /// - Throws: as ``Database/vacuum(into:)`` and ``writeWithoutTransaction(_:)``.
    public func vacuum(into path: String) throws {
        try writeWithoutTransaction { db in try db.vacuum(into: path) }
    }
}
