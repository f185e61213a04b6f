extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws and rethrows that
    /// error.
    ///
    /// Called while a transaction is already open, the body runs in a savepoint instead (`kind` is then
    /// ignored): its work is rolled back alone when it throws, and the outer transaction goes on. A COMMIT
    /// that fails (a deferred foreign key violation, `SQLITE_BUSY`) is rolled back and thrown, leaving the
    /// connection usable. See <https://www.sqlite.org/lang_savepoint.html>.
    /// - Parameters:
    ///   - kind: how the transaction takes its locks; `.immediate` for transactions that write.
    ///   - body: the work; its result is returned.
    /// - Throws: the first error `body` throws, or ``DatabaseError`` from BEGIN, COMMIT or SAVEPOINT.
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        if isInsideTransaction {
            return try savepoint(body)
        }
        try run(sql: kind.beginSQL)
        // Another connection may have changed the schema since the last transaction; within this one, only
        // this connection's own statements can.
        schemaCache.isCurrent = false
        automaticRollbackCause = nil
        let transactions = transactionGuard
        transactions.holdsTransaction = true
        transactions.transactionWasRolledBack = false
        defer {
            automaticRollbackCause = nil
            transactions.holdsTransaction = false
            transactions.transactionWasRolledBack = false
        }
        do {
            let result = try body()
            if let cause = automaticRollbackCause { throw Self.rolledBackBySQLite(after: cause) }
            // Also when the body began a transaction of its own after the rollback: what it did before the
            // rollback is gone, so committing the rest would commit half the body.
            if transactions.transactionWasRolledBack { throw Self.rolledBackInsideBody }
            guard isInsideTransaction else { throw Self.endedInsideBody }
            transactions.commitsOwnTransaction = true
            defer { transactions.commitsOwnTransaction = false }
            try run(sql: "COMMIT TRANSACTION")
            return result
        } catch {
            // Some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) have already rolled the transaction back;
            // ROLLBACK would then fail with "no transaction is active". The body's error is the one to report.
            if isInsideTransaction {
                transactions.rollsBackOwnTransaction = true
                try? run(sql: "ROLLBACK TRANSACTION")
                transactions.rollsBackOwnTransaction = false
            }
            throw error
        }
    }

    /// The error for a body that returned after its transaction was rolled back inside it (by SQLite after
    /// an error the body caught, or by a ROLLBACK of its own): what it did before was rolled back, and every
    /// statement after that which would have committed on its own was refused.
    static let rolledBackInsideBody = DatabaseError(
        resultCode: .abort,
        message: "the transaction was rolled back inside its body (by SQLite after an error such as an interrupt, "
            + "SQLITE_FULL or SQLITE_IOERR that the body caught, or by a ROLLBACK of the body's own), and the body "
            + "went on: nothing it did was committed, and statements after the rollback that would have "
            + "committed on their own were refused. Let such errors end the body")

    /// The error for a body that ran COMMIT or ROLLBACK itself: the transaction it was given is gone, and
    /// what it did up to then was committed or rolled back by its own statement.
    static let endedInsideBody = DatabaseError(
        resultCode: .misuse,
        message: "the transaction was ended inside its body by a COMMIT or ROLLBACK of the caller's own; "
            + "work done before that statement was committed or rolled back by it, work after it ran outside "
            + "any transaction. Let the library end the transaction: return to commit, throw to roll back")

    /// The error for a transaction whose body returned after SQLite rolled the whole transaction back on an
    /// error inside a savepoint, an error the body caught.
    static func rolledBackBySQLite(after cause: any Error) -> DatabaseError {
        DatabaseError(
            resultCode: (cause as? DatabaseError)?.resultCode ?? .abort,
            message: "SQLite rolled back the whole transaction after an error inside a nested transaction (\(cause)); "
                + "nothing the transaction did was committed, including what ran after that error")
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back to and released when it throws.
    ///
    /// SQLite itself may roll back the whole transaction on `SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_BUSY` or
    /// `SQLITE_NOMEM` (<https://www.sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction>).
    /// When that happens inside the savepoint, the caller's transaction is gone: a caller that catches the
    /// error and goes on would run its next statements in autocommit, each committed on its own, and lose
    /// what came before. A stand-in transaction is opened instead, and the outermost ``transaction(_:_:)``
    /// rolls it back and throws, so the whole transaction stays all or nothing.
    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        if let cause = automaticRollbackCause { throw Self.rolledBackBySQLite(after: cause) }
        // One name for every level is enough: ROLLBACK TO and RELEASE act on the innermost savepoint of
        // that name.
        try run(sql: "SAVEPOINT \"sqliterecord\"")
        do {
            let result = try body()
            if let cause = automaticRollbackCause { throw Self.rolledBackBySQLite(after: cause) }
            guard isInsideTransaction else { throw Self.endedInsideBody }
            try run(sql: "RELEASE SAVEPOINT \"sqliterecord\"")
            return result
        } catch {
            if automaticRollbackCause != nil {
                // An inner savepoint already found the transaction gone; this one went with it.
            } else if isInsideTransaction {
                try? run(sql: "ROLLBACK TRANSACTION TO SAVEPOINT \"sqliterecord\"")
                try? run(sql: "RELEASE SAVEPOINT \"sqliterecord\"")
            } else {
                automaticRollbackCause = error
                try? run(sql: TransactionKind.deferred.beginSQL)
            }
            throw error
        }
    }

    /// Runs one statement from the statement cache to completion, binding `arguments`.
    /// - Throws: ``DatabaseError`` from preparing, binding or stepping.
    func run(sql: String, arguments: StatementArguments = []) throws {
        try withStatement(sql: sql, arguments: arguments) { statement in
            while try statement.step() {}
        }
    }
}
