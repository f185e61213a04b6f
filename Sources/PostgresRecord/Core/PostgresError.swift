#if PostgreSQL
import Foundation

/// An error PostgreSQL reported, or one libpq found on the way: its SQLSTATE, the server's message and the
/// names it gives (constraint, table, column), and the SQL.
///
/// The fields are those of PostgreSQL's error report (`PQresultErrorField`), see
/// <https://www.postgresql.org/docs/current/libpq-exec.html#LIBPQ-PQRESULTERRORFIELD> and the SQLSTATE
/// table <https://www.postgresql.org/docs/current/errcodes-appendix.html>. Bound argument values are never
/// part of the error, so that logs do not leak stored data.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// The server ran the statement and refused it: ``PostgresError/sqlState`` says why.
        case server
        /// No connection could be opened (bad address, authentication, server down).
        case connectionFailed
        /// The connection was lost while or before the statement ran. Whether the statement committed is
        /// unknown when it ran outside a transaction, and when the loss came during the transaction's
        /// `COMMIT` (SQLSTATE 08007, ``SQLState/transactionResolutionUnknown``); before `COMMIT` nothing
        /// committed. The pool opens a new connection for the next call.
        case connectionLost
        /// The library refused the call before anything ran (a value libpq cannot send, a result it cannot
        /// read).
        case client
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The five-character SQLSTATE (`23505` for a unique violation); empty when the server sent none.
    public let sqlState: SQLState
    /// The primary message (`PG_DIAG_MESSAGE_PRIMARY`), or libpq's message for client-side failures.
    public let message: String
    /// The server's detail line (`PG_DIAG_MESSAGE_DETAIL`), such as `Key (iso)=(FR) already exists.`
    public let detail: String?
    /// The constraint the statement violated (`PG_DIAG_CONSTRAINT_NAME`), such as `countries_iso_key`.
    public let constraint: String?
    /// The table concerned (`PG_DIAG_TABLE_NAME`).
    public let table: String?
    /// The column concerned (`PG_DIAG_COLUMN_NAME`), as a NOT NULL violation names it.
    public let column: String?
    /// The SQL that failed, when there was one.
    public let sql: String?
    /// For a statement of a pipelined batch (`Record.insertAll(_:_:)`), the index of the argument list (the
    /// record) it ran for, from 0; nil otherwise.
    public let batchIndex: Int?

    /// Makes an error; the library builds these from libpq's answers, a caller rarely needs to.
    public init(
        kind: Kind, sqlState: SQLState = SQLState(""), message: String, detail: String? = nil,
        constraint: String? = nil, table: String? = nil, column: String? = nil, sql: String? = nil,
        batchIndex: Int? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
        self.table = table
        self.column = column
        self.sql = sql
        self.batchIndex = batchIndex
    }

    /// `PostgreSQL error 23505: duplicate key value violates unique constraint "countries_iso_key" - while
    /// executing: INSERT ...`. The server's ``detail`` is left out: it holds the row's values (`Key (iso)=(FR)
    /// already exists.`, `Failing row contains (...)`), which a log must not receive by default, as SQLite's
    /// messages name columns but never values; read ``detail`` where you want them.
    public var description: String {
        var text: String
        switch kind {
        case .server: text = "PostgreSQL error \(sqlState.rawValue): \(message)"
        case .connectionFailed: text = "PostgreSQL connection failed: \(message)"
        case .connectionLost: text = "PostgreSQL connection lost: \(message)"
        case .client: text = "PostgresRecord: \(message)"
        }
        if let batchIndex { text += " - at index \(batchIndex) of the batch" }
        if let sql { text += " - while executing: \(sql)" }
        return text
    }

    /// A connection lost (`lost`) while `COMMIT` was in flight: kind `.connectionLost`, SQLSTATE 08007
    /// (`transaction_resolution_unknown`), a message saying the transaction may or may not have committed.
    static func commitOutcomeUnknown(_ lost: PostgresError) -> PostgresError {
        PostgresError(
            kind: .connectionLost, sqlState: .transactionResolutionUnknown,
            message: "the connection was lost during COMMIT, so whether the transaction committed is unknown: "
                + "check on a new connection (pg_xact_status of its pg_current_xact_id(), or a key it wrote) "
                + "before running it again (libpq: \(lost.message))",
            sql: "COMMIT")
    }

    /// This error with the SQL it happened for.
    func with(sql: String) -> PostgresError {
        PostgresError(
            kind: kind, sqlState: sqlState, message: message, detail: detail, constraint: constraint,
            table: table, column: column, sql: sql, batchIndex: batchIndex)
    }

    /// The server's answer to a statement the library cancelled at ``PostgresConfiguration/statementTimeout``
    /// (`seconds`): SQLSTATE 57014 as the server sent it, with a message naming the timeout (the SQL is in
    /// ``sql`` and the description).
    static func statementTimedOut(_ error: PostgresError, after seconds: TimeInterval) -> PostgresError {
        PostgresError(
            kind: error.kind, sqlState: error.sqlState,
            message: "the statement ran longer than the statement timeout of \(seconds) s "
                + "(PostgresConfiguration.statementTimeout), and the library had the server cancel it "
                + "(the server's answer: \(error.message))",
            detail: error.detail, constraint: error.constraint, table: error.table, column: error.column,
            sql: error.sql, batchIndex: error.batchIndex)
    }

    /// This error for the statement at `index` of a pipelined batch.
    func with(batchIndex index: Int) -> PostgresError {
        PostgresError(
            kind: kind, sqlState: sqlState, message: message, detail: detail, constraint: constraint,
            table: table, column: column, sql: sql, batchIndex: index)
    }
}

/// A SQLSTATE code: five characters, an open set the server can grow, so a struct rather than an enum.
/// See <https://www.postgresql.org/docs/current/errcodes-appendix.html>.
public struct SQLState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The five characters, such as `23505`.
    public let rawValue: String

    /// The code `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code `code`.
    public init(_ code: String) { self.rawValue = code }

    /// The two-character class (`23` for every integrity constraint violation).
    public var errorClass: String { String(rawValue.prefix(2)) }

    /// The code itself.
    public var description: String { rawValue }

    /// `23502`: a NULL into a NOT NULL column.
    public static let notNullViolation = SQLState("23502")
    /// `23503`: a foreign key names no row, or a delete leaves rows without their parent.
    public static let foreignKeyViolation = SQLState("23503")
    /// `23505`: a second row with a key a unique constraint or index already holds.
    public static let uniqueViolation = SQLState("23505")
    /// `23514`: a CHECK constraint failed.
    public static let checkViolation = SQLState("23514")
    /// `40001`: a SERIALIZABLE (or REPEATABLE READ) transaction could not be serialized; retry it.
    public static let serializationFailure = SQLState("40001")
    /// `40P01`: the server broke a deadlock by aborting this transaction.
    public static let deadlockDetected = SQLState("40P01")
    /// `25006`: a write inside a read-only transaction.
    public static let readOnlySQLTransaction = SQLState("25006")
    /// `25P02`: a statement inside a transaction that an earlier error aborted.
    public static let inFailedSQLTransaction = SQLState("25P02")
    /// `26000`: a prepared statement the connection does not know (what pgbouncer's transaction mode
    /// causes for named statements).
    public static let invalidSQLStatementName = SQLState("26000")
    /// `0A000`: a feature the server does not support; among them a named prepared statement whose result
    /// columns changed since it was prepared ("cached plan must not change result type").
    public static let featureNotSupported = SQLState("0A000")
    /// `57014`: the statement was cancelled: by a cancel request (a task's cancel, which the pool turns into
    /// `CancellationError`; ``PostgresConfiguration/statementTimeout``), or by the server's own
    /// `statement_timeout`.
    public static let queryCanceled = SQLState("57014")
    /// `08007` (`transaction_resolution_unknown`): the connection was lost during `COMMIT`, so the
    /// transaction may have committed or not; the library sets it on ``PostgresError`` of kind
    /// `.connectionLost` (the server never sends it). See ``PostgresConnection/transaction(_:readOnly:_:)``.
    public static let transactionResolutionUnknown = SQLState("08007")
    /// `42P01`: no such table.
    public static let undefinedTable = SQLState("42P01")
    /// `42P10`: an invalid column reference; among them an `ON CONFLICT` target that no unique or exclusion
    /// constraint matches.
    public static let invalidColumnReference = SQLState("42P10")
    /// `42703`: no such column.
    public static let undefinedColumn = SQLState("42703")
    /// `42883`: no function or operator takes the given types (`operator does not exist: text = jsonb`).
    public static let undefinedFunction = SQLState("42883")
    /// `42804`: a value's type does not fit where it goes (`column "tags" is of type jsonb but expression is
    /// of type text[]`).
    public static let datatypeMismatch = SQLState("42804")
}
#endif
