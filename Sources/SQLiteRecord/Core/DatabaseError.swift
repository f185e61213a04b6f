import CSQLiteRecord

/// An error SQLite reported, or one the library found before SQLite ran anything: its result code, its
/// message, the SQL, and the arguments bound to it.
///
/// The codes are SQLite's: `SQLITE_RANGE` for arguments that do not match the SQL's parameters (or a column
/// a row does not have), `SQLITE_MISMATCH` for a value that does not convert exactly to or from a Swift type,
/// `SQLITE_MISUSE` for a call the library refuses. See <https://www.sqlite.org/rescode.html>.
///
/// Bound argument values are kept in ``arguments`` but left out of ``description`` unless asked for
/// (``includesArgumentsInDescription``, ``description(includingArguments:)``, or
/// ``Database/Options/showsArgumentsInErrors`` for every error a connection throws), so that logs do not
/// leak stored data.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, as `sqlite3_extended_errcode` gives it. Match a primary code with `~=`, or
    /// compare ``primaryResultCode``.
    public let resultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`) or the library's, such as `NOT NULL constraint failed: cities.name`.
    public internal(set) var message: String
    /// The SQL whose preparation or execution failed, when there was one.
    public let sql: String?
    /// The arguments bound to the statement that failed; nil when there were none or they are unknown.
    public internal(set) var arguments: StatementArguments?
    /// When true, ``description`` shows the values of ``arguments``; false unless the connection was opened
    /// with ``Database/Options/showsArgumentsInErrors``.
    public var includesArgumentsInDescription: Bool
    /// For a row of a batch (`Record.insertAll(_:_:)`, and `Record.save(_:_:)` of new records, which inserts
    /// them as one batch), the index in the records passed of the record whose row failed, from 0; nil
    /// otherwise. PostgreSQL's error carries the same index.
    public internal(set) var batchIndex: Int?

    /// Makes an error; the library builds these from SQLite's answers, a caller rarely needs to.
    /// - Parameters:
    ///   - resultCode: the (extended) result code.
    ///   - message: what went wrong, for the person reading the log.
    ///   - sql: the SQL concerned, if any.
    ///   - arguments: the arguments bound to it, if any; shown in ``description`` only when
    ///     `includesArgumentsInDescription` is true.
    ///   - includesArgumentsInDescription: whether ``description`` shows `arguments`; false by default, so
    ///     bound values stay out of logs.
    public init(
        resultCode: ResultCode, message: String, sql: String? = nil, arguments: StatementArguments? = nil,
        includesArgumentsInDescription: Bool = false
    ) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
        self.arguments = arguments.flatMap { $0.isEmpty ? nil : $0 }
        self.includesArgumentsInDescription = includesArgumentsInDescription
    }

    /// The primary result code: ``resultCode`` without its extended bits (`SQLITE_CONSTRAINT` for
    /// `SQLITE_CONSTRAINT_UNIQUE`).
    public var primaryResultCode: ResultCode { resultCode.primary }

    /// `SQLite error 19 (constraint failed): NOT NULL constraint failed: cities.name - while executing: INSERT ...`
    /// (with ` - at index 3 of the batch` before ` - while executing` for a row of a batch), followed by ` - with 2 arguments (redacted)` when arguments were bound, or by their values when
    /// ``includesArgumentsInDescription`` is true.
    public var description: String { description(includingArguments: includesArgumentsInDescription) }

    /// The description, with the argument values when `includingArguments` is true and only their count
    /// otherwise.
    public func description(includingArguments: Bool) -> String {
        var text = "SQLite error \(resultCode): \(message)"
        if let batchIndex { text += " - at index \(batchIndex) of the batch" }
        if let sql { text += " - while executing: \(sql)" }
        if let arguments {
            if includingArguments {
                text += " - with arguments \(arguments)"
            } else {
                let count = arguments.values.count + arguments.namedValues.count
                text += " - with \(count) argument\(count == 1 ? "" : "s") (redacted)"
            }
        }
        return text
    }

    /// Throws unless `code` is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`: the one place where SQLite's
    /// result codes become Swift errors. The message comes from `sqlite3_errmsg` on `connection`.
    static func check(
        _ code: Int32, connection: OpaquePointer?, sql: String? = nil, arguments: StatementArguments? = nil
    ) throws {
        guard code != SQLITE_OK && code != SQLITE_ROW && code != SQLITE_DONE else { return }
        throw DatabaseError(code, connection: connection, sql: sql, arguments: arguments).thrown
    }

    /// The error for a failed result `code`; the extended code and message are read from `connection`.
    init(
        _ code: Int32, connection: OpaquePointer?, sql: String?, arguments: StatementArguments? = nil,
        includesArgumentsInDescription: Bool = false
    ) {
        var extended = code
        var stoppedForCancellation = false
        var message = sqlite3_errstr(code).map { String(cString: $0) } ?? "unknown error"
        if let connection {
            // The connection's extended code refines `code` only when it describes the same failure.
            let connectionCode = sqlite3_extended_errcode(connection)
            if connectionCode & 0xFF == code & 0xFF { extended = connectionCode }
            if let text = sqlite3_errmsg(connection) { message = String(cString: text) }
            // "database is locked" says how long this connection waited, or that SQLite did not wait.
            if extended & 0xFF == SQLITE_BUSY, let outcome = BusyWait.takeOutcome(for: connection) {
                message += BusyWait.explanation(
                    outcome, extendedCode: extended, insideTransaction: sqlite3_get_autocommit(connection) == 0)
                stoppedForCancellation = outcome.stop?.0 == .cancelled
            }
            // "unable to open database file" and "attempt to write a readonly database" name no file: the
            // advice says which one this process may not read or write, and what to do.
            let primary = extended & 0xFF
            if primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY,
                let file = sqlite3_db_filename(connection, "main").map({ String(cString: $0) }),
                let advice = Self.fileAccessAdvice(path: file, resultCode: ResultCode(rawValue: extended))
            {
                message += advice
            }
        }
        self.init(
            resultCode: ResultCode(rawValue: extended), message: message, sql: sql, arguments: arguments,
            includesArgumentsInDescription: includesArgumentsInDescription)
        isCancelledWait = stoppedForCancellation
    }

    /// True for the `SQLITE_BUSY` of a statement whose wait for a lock the library's busy handler stopped
    /// because the task was cancelled (see ``BusyWait``): such an error is thrown as `CancellationError`.
    private(set) var isCancelledWait = false

    /// What the library throws for this error: `CancellationError` for a wait stopped by a cancelled task,
    /// the error itself otherwise.
    var thrown: any Error { isCancelledWait ? CancellationError() : self }

    /// The same error with `prefix` before its message, such as the path of a database that failed to open.
    func prefixingMessage(_ prefix: String) -> DatabaseError {
        var error = self
        error.message = prefix + message
        return error
    }

    /// The same error with `message` in place of its own, for an error whose cause the library knows better
    /// than SQLite's message says.
    func replacingMessage(_ message: String) -> DatabaseError {
        var error = self
        error.message = message
        return error
    }

    /// The same error carrying `arguments`, for an error thrown while values were bound one by one, before
    /// any ``StatementArguments`` existed.
    func carrying(_ arguments: StatementArguments?) -> DatabaseError {
        var error = self
        error.arguments = arguments.flatMap { $0.isEmpty ? nil : $0 }
        return error
    }

    /// The same error for the row of record `index` of a batch.
    func with(batchIndex index: Int) -> DatabaseError {
        var error = self
        error.batchIndex = index
        return error
    }
}

extension DatabaseError {
    /// True for `SQLITE_CONSTRAINT` and its extended codes: a NOT NULL, UNIQUE, CHECK, PRIMARY KEY or FOREIGN
    /// KEY constraint failed. See <https://www.sqlite.org/rescode.html#constraint>.
    public var isConstraintViolation: Bool { resultCode.primary == .constraint }

    /// True for `SQLITE_BUSY` and its extended codes: another connection held a lock that this statement
    /// needs, all through the busy timeout, or where SQLite does not wait for it (the message says which, with
    /// the measured wait). Retrying later may succeed. See <https://www.sqlite.org/rescode.html#busy>.
    public var isBusy: Bool { resultCode.primary == .busy }

    /// True for `SQLITE_READONLY` and its extended codes: a write to a connection opened read-only, or to a
    /// file the process cannot write. See <https://www.sqlite.org/rescode.html#readonly>.
    public var isReadOnly: Bool { resultCode.primary == .readOnly }

    /// True for `SQLITE_CORRUPT` and its extended codes: the database file is malformed (truncated, or
    /// overwritten). See <https://www.sqlite.org/rescode.html#corrupt>.
    public var isCorrupt: Bool { resultCode.primary == .corrupt }

    /// True for `SQLITE_NOTADB`: the file is not an SQLite database (or is encrypted).
    /// See <https://www.sqlite.org/rescode.html#notadb>.
    public var isNotADatabase: Bool { resultCode.primary == .notADatabase }

    /// True for `SQLITE_INTERRUPT`: the statement was interrupted (`sqlite3_interrupt`), as when the task
    /// awaiting an async ``DatabaseQueue`` call is cancelled. See <https://www.sqlite.org/rescode.html#interrupt>.
    public var isInterrupted: Bool { resultCode.primary == .interrupt }
}
