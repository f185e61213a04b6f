import CSQLiteRecord

extension Database {
    /// Runs `body` in one DEFERRED transaction with writes refused (``TransactionGuard/refusesWrites``):
    /// every statement of the body reads one snapshot of the database, and a statement that may write fails
    /// with `SQLITE_READONLY` and a message that points at `write`, before it runs. The snapshot begins at the
    /// body's first read, or at once when `startingNow` is true (a ``DatabasePool`` reader, whose snapshot
    /// should be the state when the read began). The transaction is rolled back, never committed, at the
    /// end: a body that wrote through the raw connection (``sqliteConnection``) has its writes undone and the
    /// read throws (and the commit hook refuses any commit while writes are refused). See
    /// <https://www.sqlite.org/isolation.html>.
    /// - Throws: what `body` throws, ``DatabaseError`` from BEGIN, or ``DatabaseError`` with `SQLITE_READONLY`
    ///   when the body changed rows.
    func readSnapshot<T>(startingNow: Bool = false, _ body: () throws -> T) throws -> T {
        if isInsideTransaction { return try body() }
        try beginReadSnapshot(startingNow: startingNow)
        do {
            let result = try body()
            try endReadSnapshot()
            return result
        } catch {
            abandonReadSnapshot()
            throw error
        }
    }

    /// Opens the read-only DEFERRED transaction of ``readSnapshot(startingNow:_:)``; with `startingNow`, also
    /// reads the schema's first page, which makes SQLite take the snapshot now rather than at the first
    /// statement of the body (in WAL mode, the snapshot is the last commit before that first read).
    /// See <https://www.sqlite.org/wal.html#concurrency>.
    /// - Throws: ``DatabaseError`` from BEGIN or the read.
    func beginReadSnapshot(startingNow: Bool) throws {
        try run(sql: TransactionKind.deferred.beginSQL)
        transactionGuard.refusesWrites = true
        transactionGuard.changesAtSnapshotStart = sqlite3_total_changes64(handle)
        // Another connection (a pool's writer, another process) may have changed the schema since the last
        // snapshot: the cached columns are checked against `PRAGMA schema_version` again.
        schemaCache.isCurrent = false
        guard startingNow else { return }
        do {
            try run(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        } catch {
            abandonReadSnapshot()
            throw error
        }
    }

    /// Ends the snapshot that ``beginReadSnapshot(startingNow:)`` opened, with a ROLLBACK: a read has nothing
    /// to commit.
    /// - Throws: ``DatabaseError`` with `SQLITE_READONLY` when the body changed rows (through the raw
    ///   connection); they were rolled back.
    func endReadSnapshot() throws {
        let changed = sqlite3_total_changes64(handle) != transactionGuard.changesAtSnapshotStart
        abandonReadSnapshot()
        if changed {
            throw DatabaseError(
                resultCode: .readOnly,
                message: "a read cannot write: the body changed rows (through statements run on sqliteConnection), "
                    + "and its changes were rolled back; write inside write")
        }
    }

    /// Rolls back the snapshot's transaction after an error, keeping the error that caused it, and lets the
    /// connection write again.
    func abandonReadSnapshot() {
        if isInsideTransaction { try? run(sql: "ROLLBACK TRANSACTION") }
        transactionGuard.refusesWrites = false
    }

    /// Runs `body` outside any transaction the library opens, as ``DatabaseQueue/writeWithoutTransaction(_:)-3xevm``
    /// does: each statement commits on its own, or in a transaction the body opens and ends. A transaction
    /// the body leaves open is rolled back, so that it never swallows the writes of later calls.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_MISUSE` when `body` returned with a
    ///   transaction of its own still open (it was rolled back).
    func outsideTransaction<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            if isInsideTransaction { try? run(sql: "ROLLBACK TRANSACTION") }
            throw error
        }
        if isInsideTransaction {
            try? run(sql: "ROLLBACK TRANSACTION")
            throw DatabaseError(
                resultCode: .misuse,
                message: "writeWithoutTransaction's body began a transaction and did not end it; it was rolled back. "
                    + "End it with COMMIT inside the body, or use write, which commits for you")
        }
        return result
    }
}
