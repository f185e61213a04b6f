import CSQLiteRecord

extension Database {
    /// Runs `sql`, which may hold several statements separated by semicolons: FMDB's `executeUpdate` and
    /// `executeStatements` in one call. ``changesCount`` then tells how many rows the last one changed.
    ///
    /// ```swift
    /// try db.execute(sql: "UPDATE cities SET population = ? WHERE id = ?", arguments: [2_138_551, 1])
    /// try db.execute(sql: "DELETE FROM cities WHERE country_id = :country", arguments: ["country": 7])
    /// ```
    ///
    /// Positional arguments are spread over the statements in order, each taking as many as it has
    /// parameters; named arguments serve every statement that names them. See ``StatementArguments``.
    /// Each statement is prepared just before it runs (so a script can create a table and then fill it) and
    /// is not cached. See <https://www.sqlite.org/c3ref/prepare.html>.
    /// - Throws: ``DatabaseError`` for the first statement that fails (statements before it have run; wrap
    ///   the call in ``transaction(_:_:)`` to make it all or nothing). Argument mismatches are
    ///   `SQLITE_RANGE` errors thrown before the statement concerned runs: too few positional values for its
    ///   parameters, a named parameter with no value, or, before the last statement, values or keys that no
    ///   statement uses. `SQLITE_MISMATCH` before anything runs when an argument has no exact SQLite form;
    ///   `SQLITE_MISUSE` before anything runs when the text holds a NUL character (SQLite would stop there).
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        // Scripts are where schema changes happen: the schema cache checks the schema version next time.
        schemaCache.isCurrent = false
        // SQL that ran before as a single statement is in the cache: FMDB-style loops of the same UPDATE
        // prepare it once.
        if let cached = statementCache.statement(for: sql), !cached.isBusy, !cached.isCheckedOut {
            changeTracker.noteUse(of: cached)
            try withCheckedOut(cached, arguments: arguments) { statement in
                while try statement.step() {}
            }
            return
        }
        try Statement.checkHoldsNoNUL(sql)
        if let failure = arguments.conversionFailure {
            throw DatabaseError(
                resultCode: failure.resultCode, message: failure.message, sql: sql, arguments: arguments,
                includesArgumentsInDescription: options.showsArgumentsInErrors)
        }
        var positionalUsed = 0
        var usedNames = Set<String>()
        var statements: [Statement] = []
        try ByteView.withCString(sql) { text in
            var start = 0
            while start < text.count {
                forgetPreparedStatementNotes()
                let (code, prepared, end) = text.prepare(from: start, on: handle)
                guard code == SQLITE_OK else {
                    sqlite3_finalize(prepared)
                    // After a syntax error SQLite stops where parsing stopped, not at the statement's end: the
                    // error shows the rest of the text.
                    throw DatabaseError(
                        code, connection: handle, sql: text.extracting(start...).string, arguments: arguments,
                        includesArgumentsInDescription: options.showsArgumentsInErrors).thrown
                }
                let statementText = text.extracting(start..<end).string
                guard end > start else { break }
                start = end
                guard let prepared else { continue }  // only whitespace or comments
                let statement = Statement(handle: prepared, connection: handle, sql: statementText)
                notePreparedStatement(statement)
                changeTracker.noteUse(of: statement)
                statement.showsArgumentsInErrors = options.showsArgumentsInErrors
                statement.transactionGuard = transactionGuard
                if statements.count < 2 { statements.append(statement) }
                if !arguments.isEmpty {
                    statement.boundArguments = arguments
                    positionalUsed += try statement.bindParameters(
                        arguments, fromPositional: positionalUsed, usedNames: &usedNames)
                    let leftOver =
                        positionalUsed < arguments.values.count || usedNames.count < arguments.namedValues.count
                    // Only when something is left over is it worth preparing the rest to see if this is the last.
                    if leftOver && !text.holdsStatement(from: end, on: handle) {
                        try statement.checkNothingLeftOver(
                            arguments, positionalUsed: positionalUsed, usedNames: usedNames)
                    }
                }
                while try statement.step() {}
            }
        }
        if statements.count == 1, let statement = statements.first {
            statement.resetAndClearBindings()
            statementCache.insert(statement, for: sql)
        }
        // Reached only when the text holds no statement at all: before the last statement, leftovers throw.
        if positionalUsed < arguments.values.count || usedNames.count < arguments.namedValues.count {
            throw DatabaseError(
                resultCode: .range,
                message: "\(arguments.values.count + arguments.namedValues.count) argument(s) were given but the "
                    + "SQL holds no statement",
                sql: sql, arguments: arguments, includesArgumentsInDescription: options.showsArgumentsInErrors)
        }
    }
}
