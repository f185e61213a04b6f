import CSQLiteRecord

/// What a connection knows of the transactions the library opened on it, kept where the connection's commit
/// and rollback hooks can read it: the guard that stops work from committing on its own once SQLite has
/// ended the transaction it belonged to, and the flag that makes a `read` read-only.
///
/// SQLite rolls back a whole transaction on an interrupt and on some `SQLITE_FULL`, `SQLITE_IOERR`,
/// `SQLITE_BUSY` and `SQLITE_NOMEM` errors, and a body's own SQL may run `COMMIT` or `ROLLBACK`. The
/// connection is then in autocommit mode, and a statement the body runs after catching such an error would
/// be committed at once, outside the transaction the caller asked for. The commit hook refuses every commit
/// while the library holds a transaction open, but the library's own: SQLite then turns the commit into a
/// rollback and the statement fails with `SQLITE_CONSTRAINT_COMMITHOOK`. So nothing in a `write` body
/// commits except through the `COMMIT` the library runs when the body returns.
/// See <https://www.sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction> and
/// <https://www.sqlite.org/c3ref/commit_hook.html>.
///
/// Read and written on the connection's thread only: by the library's transaction code, and by the hooks,
/// which SQLite calls inside `sqlite3_step` (see ``SQLiteCallbacks``).
final class TransactionGuard {
    /// True from the library's BEGIN of a ``Database/transaction(_:_:)`` until it commits or rolls back.
    var holdsTransaction = false
    /// True while the library runs the COMMIT of the transaction it holds: the one commit the hook allows.
    var commitsOwnTransaction = false
    /// True when a rollback happened while the library held a transaction, other than the library's own
    /// ROLLBACK: SQLite rolled it back after an error, or the body ran ROLLBACK (or a COMMIT the hook
    /// refused).
    var transactionWasRolledBack = false
    /// True while the library rolls back the transaction it holds.
    var rollsBackOwnTransaction = false
    /// True while a read runs, from the library's BEGIN of its snapshot to its ROLLBACK: a statement that may
    /// write is refused before it runs, with `SQLITE_READONLY` and ``writeInsideRead`` (see ``Statement``),
    /// and the commit hook refuses every commit, so that statements run through `sqlite3_exec` on the raw
    /// connection commit nothing either.
    ///
    /// A flag of the library's, not `PRAGMA query_only`: changing that pragma expires every prepared statement
    /// of the connection, so a queue that alternates reads and writes would prepare its statements again at
    /// each turn. Nor the authorizer: it runs when a statement is prepared, and a cached INSERT prepared in a
    /// `write` would run in a later `read` unchecked. `sqlite3_stmt_readonly`, read once per prepared
    /// statement, holds for every run of it. See <https://www.sqlite.org/c3ref/stmt_readonly.html>.
    var refusesWrites = false
    /// True while a ``DatabaseMigrator`` migration body runs: the authorizer then refuses `PRAGMA
    /// foreign_keys = ...`, which SQLite ignores inside the migration's transaction.
    var refusesForeignKeysPragma = false
    /// Set by the authorizer when it refused a `PRAGMA foreign_keys`, so the migrator reports it even when
    /// the body caught the error.
    var refusedForeignKeysPragma = false
    /// Set by the authorizer while a statement is prepared when it is `PRAGMA journal_mode` or `PRAGMA
    /// wal_checkpoint`: SQLite counts both as writes (`sqlite3_stmt_readonly` is false) though neither changes
    /// a row or the schema, and a read may run them, as SQLite's `PRAGMA query_only` lets it. Read right after
    /// the prepare.
    var preparedStatementKeepsContent = false
    /// `sqlite3_total_changes64` when the current read snapshot began: a read whose body changed rows throws.
    var changesAtSnapshotStart: Int64 = 0
    /// The connection's schema cache, which the same hooks keep honest.
    let schemaCache: SchemaCache
    /// What the connection's statements read and write, for observations; the same hooks tell it of commits
    /// and rollbacks.
    let changeTracker: ChangeTracker
    /// The connection's busy handler state, told when a `PRAGMA busy_timeout = N` may replace the handler.
    let busyWait: BusyWait

    init(schemaCache: SchemaCache, changeTracker: ChangeTracker, busyWait: BusyWait) {
        self.schemaCache = schemaCache
        self.changeTracker = changeTracker
        self.busyWait = busyWait
    }

    /// What the commit hook answers: 0 lets the commit go ahead, anything else turns it into a rollback.
    func commitHookAnswer() -> Int32 {
        if holdsTransaction && !commitsOwnTransaction { return 1 }
        // Inside a read: a body that ended the read's transaction and wrote through the raw connection
        // cannot commit either.
        if refusesWrites { return 1 }
        schemaCache.changedSchemaInTransaction = false
        changeTracker.transactionWillCommit()
        return 0
    }

    /// The rollback hook reported a rollback: notes it when it was not the library's own, tells the change
    /// tracker, and drops the schema cache when the transaction had changed the schema.
    func transactionDidRollBack() {
        if holdsTransaction && !rollsBackOwnTransaction { transactionWasRolledBack = true }
        changeTracker.transactionDidRollBack()
        if schemaCache.changedSchemaInTransaction { schemaCache.needsDrop = true }
        schemaCache.changedSchemaInTransaction = false
    }

    /// Notes, from the authorizer, one action of the statement being prepared, whose first argument (a
    /// table name for reads and writes, the kind of a transaction statement) is `first`: the tables it reads
    /// and writes for the change tracker, and whether it changes the schema or rolls back for the schema
    /// cache. See <https://www.sqlite.org/c3ref/c_alter_table.html>.
    /// Notes what a statement being prepared does (the authorizer's `action` and its first argument), and
    /// answers the authorizer: `SQLITE_DENY` for `PRAGMA foreign_keys = ...` (`setsValue`: the pragma has a
    /// value, so it is not a read of the setting) while ``refusesForeignKeysPragma`` is on, else `SQLITE_OK`.
    /// `column` is the column an `SQLITE_UPDATE` sets. See <https://www.sqlite.org/c3ref/set_authorizer.html>.
    func authorize(_ action: Int32, _ first: String?, setsValue: Bool, column: String? = nil) -> Int32 {
        if action == SQLITE_PRAGMA, refusesForeignKeysPragma, setsValue, let first,
            first.lowercased() == "foreign_keys"
        {
            refusedForeignKeysPragma = true
            return SQLITE_DENY
        }
        if action == SQLITE_PRAGMA, let first {
            let name = first.lowercased()
            if setsValue, name == "busy_timeout" {
                // SQLite's `sqlite3_busy_timeout` replaces the library's busy handler, whose waits are measured.
                busyWait.noteHandlerReplaced()
            }
            if name == "journal_mode" || name == "wal_checkpoint" { preparedStatementKeepsContent = true }
        }
        changeTracker.noteAuthorization(action, table: first, column: column)
        if SchemaCache.changesSchema(action) {
            schemaCache.preparedStatementEffect = .changesSchema
        } else if action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT, let first,
            first.uppercased() == "ROLLBACK"
        {
            // ROLLBACK, and ROLLBACK TO a savepoint, which the rollback hook does not report.
            schemaCache.preparedStatementEffect = .rollsBack
        }
        return SQLITE_OK
    }

    /// A message for an error that the guard itself caused, in place of SQLite's terse one; nil for every
    /// other error.
    func explanation(for resultCode: ResultCode) -> String? {
        if resultCode == .constraintCommitHook && refusesWrites && !holdsTransaction {
            return "a read cannot write: DatabaseQueue.read and DatabasePool.read run their body in one read-only "
                + "snapshot, and a commit inside it is refused; write inside write"
        }
        if resultCode == .constraintCommitHook && holdsTransaction {
            return "this statement ran after the transaction of its write had ended (SQLite rolls a whole "
                + "transaction back on an interrupt and on some SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY or "
                + "SQLITE_NOMEM errors; a ROLLBACK or COMMIT in the body ends it too), so it would have committed "
                + "on its own; it was rolled back instead. Nothing in a write body commits but the write itself: "
                + "let the error end the body, or run the rest in a new write"
        }
        return nil
    }

    /// The message of a statement refused because it may write inside a read.
    static let writeInsideRead =
        "a read cannot write: DatabaseQueue.read and DatabasePool.read run their body in one read-only "
        + "snapshot; run this statement inside write instead"
}
