#if PostgreSQL
/// The isolation level a transaction runs at. See
/// <https://www.postgresql.org/docs/current/transaction-iso.html>.
public enum IsolationLevel: String, Sendable, CaseIterable {
    /// Each statement sees what was committed before it began: PostgreSQL's default.
    case readCommitted = "READ COMMITTED"
    /// Every statement sees the snapshot taken at the transaction's first statement; a write that conflicts
    /// with a concurrent commit fails with SQLSTATE 40001.
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one after another; one that cannot be ordered so fails with SQLSTATE 40001
    /// and should be retried (`PostgresPool.write(isolation:retryingSerializationFailures:_:)`).
    case serializable = "SERIALIZABLE"
}

extension PostgresConnection {
    /// Runs `body` in a transaction: `BEGIN` ... `COMMIT`, or `ROLLBACK` when it throws (the first error is
    /// rethrown). Called inside a transaction, `body` runs in a savepoint instead (`SAVEPOINT` ...
    /// `RELEASE`, `ROLLBACK TO` on a throw), so transactions nest; `isolation` and `readOnly` then belong to
    /// the outer transaction and are not changed.
    ///
    /// A read-only transaction (`readOnly: true`) ends with `ROLLBACK`: it reads one snapshot (from
    /// REPEATABLE READ on) and any write in it fails with SQLSTATE 25006.
    ///
    /// Nothing commits half: when a statement inside `body` failed and `body` caught the error, the server
    /// has aborted the transaction, and the call throws instead of committing.
    ///
    /// A write transaction run for an async pool call whose task was cancelled rolls back when `body`
    /// returns, and the call throws `CancellationError`: a cancelled task commits nothing. The cancel also
    /// stops the statement in flight, which throws `CancellationError` in `body`.
    /// A connection lost during `COMMIT` leaves the outcome unknown: the server may have committed and only
    /// its answer been lost, or never received the `COMMIT`. The call then throws ``PostgresError`` of kind
    /// `.connectionLost` with SQLSTATE 08007 (``SQLState/transactionResolutionUnknown``); every other loss
    /// inside the transaction means nothing committed. To learn the outcome, take the transaction's id in
    /// `body` (`SELECT pg_current_xact_id()`) and ask `pg_xact_status(id)` on a new connection: `committed`,
    /// `aborted`, or `in progress` while the server has not noticed the lost session yet (end it with
    /// `pg_terminate_backend(pid)`, its `pg_backend_pid()`, which aborts it). Or write a key of your own with
    /// the transaction and look for it. See
    /// <https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT>.
    /// - Throws: what `body` throws; ``PostgresError`` when the transaction cannot begin or commit, or when
    ///   an earlier error aborted it (SQLSTATE 25P02), or when `body` itself ended it (SQLSTATE 08007 when
    ///   the connection was lost during `COMMIT`); `CancellationError` when the task of the async pool call
    ///   was cancelled.
    @discardableResult
    public func transaction<T>(
        _ isolation: IsolationLevel? = nil, readOnly: Bool = false, _ body: () throws -> T
    ) throws -> T {
        switch transactionStatus {
        case .inTransaction: return try savepoint(body)
        case .failedTransaction:
            throw PostgresError(
                kind: .client, sqlState: .inFailedSQLTransaction,
                message: "the transaction was aborted by an earlier error; roll it back before starting another")
        default: break
        }
        var begin = "BEGIN"
        if let isolation { begin += " ISOLATION LEVEL " + isolation.rawValue }
        if readOnly { begin += " READ ONLY" }
        try executeControl(begin)
        let value: T
        do {
            value = try body()
        } catch {
            rollBack()
            throw error
        }
        switch transactionStatus {
        case .inTransaction: break
        case .failedTransaction:
            rollBack()
            // A statement the task's cancel stopped, whose error the body caught: the cancel is the reason.
            if cancellation?.isCancelled == true { throw CancellationError() }
            throw PostgresError(
                kind: .client, sqlState: .inFailedSQLTransaction,
                message: "a statement failed inside the transaction and the error was caught; nothing was committed")
        default:
            throw PostgresError(
                kind: isConnected ? .client : .connectionLost,
                message: isConnected
                    ? "the transaction body ended the library's transaction itself (COMMIT or ROLLBACK)"
                    : "the connection was lost before the transaction committed; nothing was committed")
        }
        if !readOnly, cancellation?.isCancelled == true {
            // The task that asked for the write was cancelled: its transaction never commits.
            rollBack()
            throw CancellationError()
        }
        if readOnly {
            try executeControl("ROLLBACK")
            return value
        }
        do {
            try executeControl("COMMIT")
        } catch let error as PostgresError
            where error.kind == .connectionLost || !isConnected || error.sqlState.rawValue.hasPrefix("57P")
        {
            // The COMMIT may have reached the server and committed, with only its answer lost; a server
            // shutting down (57P01 to 57P03) may have flushed the commit before it ended the session.
            throw PostgresError.commitOutcomeUnknown(error)
        }
        return value
    }

    private func rollBack() {
        // The body may have changed tables (`execute` of DDL), which the rollback undoes.
        forgetTableColumns()
        guard isConnected, transactionStatus != .idle else { return }
        // The body's error is the one that matters; a failing ROLLBACK means the session is gone.
        try? executeControl("ROLLBACK")
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "postgresrecord_savepoint_\(savepointDepth)"
        try executeControl("SAVEPOINT " + name)
        do {
            let value = try body()
            try executeControl("RELEASE SAVEPOINT " + name)
            return value
        } catch {
            // As ``rollBack()``: the tables the body changed are changed back.
            forgetTableColumns()
            if isConnected {
                try? executeControl("ROLLBACK TO SAVEPOINT " + name)
                try? executeControl("RELEASE SAVEPOINT " + name)
            }
            throw error
        }
    }
}
#endif
