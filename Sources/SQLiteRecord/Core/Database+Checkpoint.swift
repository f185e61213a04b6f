import CSQLiteRecord

extension Database {
    /// How a WAL checkpoint copies the log's pages into the database file. See
    /// <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>.
    public enum CheckpointMode: Sendable, Hashable, CaseIterable {
        /// Copies as many pages as it can without waiting for readers or the writer (SQLite's automatic
        /// checkpoints are passive).
        case passive
        /// Waits (up to the busy timeout) for the writer and for readers of older snapshots, then copies
        /// every page.
        case full
        /// As full, then also waits for every reader to be done with the log, so the next write starts it
        /// over from the beginning.
        case restart
        /// As restart, then truncates the log file to zero bytes.
        case truncate

        var rawValue: Int32 {
            switch self {
            case .passive: return SQLITE_CHECKPOINT_PASSIVE
            case .full: return SQLITE_CHECKPOINT_FULL
            case .restart: return SQLITE_CHECKPOINT_RESTART
            case .truncate: return SQLITE_CHECKPOINT_TRUNCATE
            }
        }
    }

    /// What a checkpoint did: how large the log is and how much of it is now in the database file.
    public struct CheckpointResult: Sendable, Hashable {
        /// The frames (page images) in the WAL file; -1 when the database is not in WAL mode.
        public let walFrameCount: Int
        /// The frames copied into the database file, this time or earlier; -1 when the database is not in WAL
        /// mode.
        public let checkpointedFrameCount: Int

        /// True when every frame of the log is in the database file. False after a passive checkpoint means
        /// a reader holds an older snapshot (or a write is running): the log keeps growing until it ends.
        public var isComplete: Bool { walFrameCount == checkpointedFrameCount }

        /// A result with the two counts SQLite reports.
        public init(walFrameCount: Int, checkpointedFrameCount: Int) {
            self.walFrameCount = walFrameCount
            self.checkpointedFrameCount = checkpointedFrameCount
        }
    }

    /// Runs a checkpoint of the main database's write-ahead log: copies committed pages from the `-wal` file
    /// into the database file, and with `.restart` or `.truncate` lets the log start over. Run it outside a
    /// transaction (``DatabasePool/checkpoint(_:)`` does).
    ///
    /// A checkpoint cannot copy pages that a reader's snapshot may still need: a read that runs for a long
    /// time while writes go on keeps the log growing. The full, restart and truncate modes wait for such
    /// readers up to the busy timeout, then fail with `SQLITE_BUSY`.
    /// The corresponding SQLite call is `sqlite3_wal_checkpoint_v2`; see
    /// <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html> and <https://www.sqlite.org/wal.html#ckpt>.
    /// - Parameter mode: how far to go; passive by default.
    /// - Returns: the log's size and how much of it is checkpointed.
    /// - Throws: ``DatabaseError`` with `SQLITE_BUSY` when a reader or writer kept the checkpoint from
    ///   finishing in the time the busy timeout allows, with `SQLITE_LOCKED` inside a transaction of this
    ///   connection, or another error of SQLite's.
    public func checkpoint(_ mode: CheckpointMode = .passive) throws -> CheckpointResult {
        var logFrames: Int32 = -1
        var checkpointedFrames: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(handle, nil, mode.rawValue, &logFrames, &checkpointedFrames)
        let result = CheckpointResult(
            walFrameCount: Int(logFrames), checkpointedFrameCount: Int(checkpointedFrames))
        if code & 0xFF == SQLITE_BUSY {
            // The busy handler's wait, taken so that no later error reports it.
            let outcome = BusyWait.takeOutcome(for: handle)
            if outcome?.stop?.0 == .cancelled { throw CancellationError() }
            let wait = outcome?.stop.map { "waited \(BusyWait.seconds($0.1)), and " } ?? ""
            throw DatabaseError(
                resultCode: .busy,
                message: "the \(mode) checkpoint of \(path) could not finish: \(wait)a reader of an older snapshot "
                    + "or another writer held the log past the busy timeout (\(result.checkpointedFrameCount) of "
                    + "\(result.walFrameCount) frames are in the database file)")
        }
        try DatabaseError.check(code, connection: handle)
        return result
    }
}

extension DatabasePool {
    /// Runs a checkpoint of the pool's write-ahead log on the writer connection, between two writes: copies
    /// committed pages into the database file, and with `.restart` or `.truncate` lets the log start over.
    ///
    /// SQLite already checkpoints on its own (passively, when a commit leaves the log over 1000 pages), but
    /// it cannot copy pages a reader's snapshot may still need, so reads that never stop (one long read, or
    /// reads that always overlap) let the log grow without bound. A result whose ``Database/CheckpointResult/isComplete``
    /// stays false tells of it; a `.truncate` checkpoint when the app is idle brings the file back to zero.
    /// See <https://www.sqlite.org/wal.html#avoiding_excessively_large_wal_files>.
    /// - Parameter mode: how far to go; passive by default.
    /// - Returns: the log's size and how much of it is checkpointed.
    /// - Throws: ``DatabaseError`` as ``Database/checkpoint(_:)``, with `SQLITE_READONLY` on a read-only pool,
    ///   or `SQLITE_MISUSE` when called from inside a `read` or `write` of this pool or after ``close()``.
    public func checkpoint(_ mode: Database.CheckpointMode = .passive) throws -> Database.CheckpointResult {
        try writeWithoutTransaction { db in try db.checkpoint(mode) }
    }
}
