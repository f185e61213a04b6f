#if PostgreSQL
import CPostgresRecord
import Foundation

/// One connection to a PostgreSQL server, over libpq: statements with `$n` parameters, prepared once and
/// run by name, rows in binary form, transactions and savepoints.
///
/// A connection is used by one thread at a time: ``PostgresPool`` hands it to one closure at a time, on
/// that connection's own serial queue. Every session sets `TimeZone` to UTC on connect, so that a
/// `timestamp` without zone and the text of a `timestamptz` read as UTC.
///
/// Invariants (this file and `PostgresResult.swift` are the module's owners of libpq memory):
/// - `handle` is the non-null `PGconn *` this object alone owns, finished once, in `deinit`.
/// - Parameter bytes handed to libpq live in one array kept alive for the whole libpq call
///   (`withParameters`); libpq copies them into its send buffer before the call returns.
/// - Every `PGresult *` libpq returns is wrapped at once in a ``PostgresResult``, which clears it.
/// - After any failure, `PQstatus` tells a lost connection (`CONNECTION_BAD`) from a refused statement; a
///   lost connection is never used again (the pool replaces it).
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// The configuration the connection was opened with.
    public let configuration: PostgresConfiguration
    /// Statement names by SQL and parameter types, for named prepared statements.
    private var preparedNames: [PreparedKey: String] = [:]
    /// This connection's part of its statement names, random, so that no other client's session can hold
    /// a statement of the same name: behind a pooler that moves sessions between server connections
    /// (pgbouncer's transaction mode), a name this connection prepared elsewhere is then missing (SQLSTATE
    /// 26000), never another client's statement run with this connection's arguments.
    private let statementPrefix = "postgresrecord_" + UUID().uuidString.prefix(8).lowercased() + "_"
    /// Column names by table, for checking `where:` keys and `orderBy:` columns before a query runs.
    var tableColumnsCache: [String: [String]] = [:]
    /// How many savepoints deep the library's transactions are.
    var savepointDepth = 0
    /// Batches sent so far, so that each pipelined statement has a name of its own even when an earlier
    /// batch failed before releasing its name.
    private var pipelineCount = 0

    private struct PreparedKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Opens a connection and sets the session's time zone to UTC.
    /// - Throws: ``PostgresError`` of kind `.connectionFailed` with libpq's message when the server cannot
    ///   be reached or refuses the login.
    /// The corresponding libpq call is `PQconnectdb`.
    public init(configuration: PostgresConfiguration) throws {
        guard let handle = PQconnectdb(configuration.connectionString) else {
            throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        self.handle = handle
        self.configuration = configuration
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connectionFailed, message: lastMessage)
        }
        try execute("SET TimeZone TO 'UTC'")
    }

    /// Opens a connection with a libpq connection string (a URI or `key=value` pairs).
    /// - Throws: as ``init(configuration:)``.
    public convenience init(_ connectionString: String) throws {
        try self.init(configuration: PostgresConfiguration(connectionString: connectionString))
    }

    deinit { PQfinish(handle) }

    /// False once the connection is lost (`PQstatus` is `CONNECTION_BAD`).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server's process id for this session (`PQbackendPID`): what `pg_terminate_backend` takes.
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Where the session stands between transactions (`PQtransactionStatus`).
    public var transactionStatus: TransactionStatus {
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE: return .idle
        case PQTRANS_ACTIVE: return .active
        case PQTRANS_INTRANS: return .inTransaction
        case PQTRANS_INERROR: return .failedTransaction
        default: return .unknown
        }
    }

    /// Where a session stands, as `PQtransactionStatus` reports it.
    public enum TransactionStatus: Sendable, Equatable {
        /// Outside any transaction.
        case idle
        /// A statement is running.
        case active
        /// Inside a transaction block.
        case inTransaction
        /// Inside a transaction that an error aborted: every statement fails until it rolls back.
        case failedTransaction
        /// The connection is lost.
        case unknown
    }

    private var lastMessage: String {
        PQerrorMessage(handle).map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? "unknown libpq error"
    }

    /// Runs SQL of one or more statements without parameters (`PQexec`): DDL, `SET`, transaction control.
    /// - Throws: ``PostgresError`` with the SQLSTATE and the SQL; of kind `.connectionLost` when the
    ///   connection is gone.
    public func execute(_ sql: String) throws {
        // The SQL may change tables: the columns read for where: checks are read again.
        tableColumnsCache.removeAll()
        _ = try check(PQexec(handle, sql), sql: sql)
    }

    /// Transaction control (`BEGIN`, `COMMIT`, `SAVEPOINT`...), which changes no table.
    func executeControl(_ sql: String) throws {
        _ = try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs one statement with `$1`, `$2`... bound to `arguments`, and returns the number of rows it
    /// inserted, updated or deleted.
    /// - Throws: ``PostgresError`` as ``execute(_:)``.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [PostgresValue]) throws -> Int {
        try run(sql, arguments).affectedRows
    }

    /// Runs one query with `$1`, `$2`... bound to `arguments`, and returns its rows (read in binary form).
    /// - Throws: ``PostgresError`` as ``execute(_:)``.
    public func query(_ sql: String, _ arguments: [PostgresValue] = []) throws -> PostgresRows {
        PostgresRows(result: try run(sql, arguments), sql: sql)
    }

    /// Runs one statement: by name when the configuration keeps named prepared statements (preparing it on
    /// first use), else as libpq's unnamed statement. Results come in binary form.
    ///
    /// A named statement the session does not have (SQLSTATE 26000) or has already (42P05) means that a
    /// pooler ran this connection's statements on more than one server session: the error says so and
    /// names ``PostgresConfiguration/usesNamedPreparedStatements``, and the name is forgotten, so the next
    /// call prepares it again.
    func run(_ sql: String, _ arguments: [PostgresValue]) throws -> PostgresResult {
        let types = arguments.map { $0.isNull ? 0 : $0.typeOID }
        guard configuration.usesNamedPreparedStatements else {
            return try withParameters(arguments) { count, values, lengths, formats in
                try check(
                    types.withUnsafeBufferPointer { typeBuffer in
                        PQexecParams(handle, sql, count, typeBuffer.baseAddress, values, lengths, formats, 1)
                    }, sql: sql)
            }
        }
        let key = PreparedKey(sql: sql, types: types)
        let name: String
        if let known = preparedNames[key] {
            name = known
        } else {
            name = statementPrefix + String(preparedNames.count + 1)
            do {
                _ = try check(
                    types.withUnsafeBufferPointer { typeBuffer in
                        PQprepare(handle, name, sql, Int32(types.count), typeBuffer.baseAddress)
                    }, sql: sql)
            } catch let error as PostgresError where error.sqlState == Self.duplicatePreparedStatement {
                throw Self.sessionMoved(error, statement: name)
            }
            preparedNames[key] = name
        }
        do {
            return try withParameters(arguments) { count, values, lengths, formats in
                try check(PQexecPrepared(handle, name, count, values, lengths, formats, 1), sql: sql)
            }
        } catch let error as PostgresError where error.sqlState == .invalidSQLStatementName {
            preparedNames[key] = nil
            throw Self.sessionMoved(error, statement: name)
        }
    }

    /// `42P05`: a statement of that name exists in the session already.
    private static let duplicatePreparedStatement = SQLState("42P05")

    /// The server's error about the named statement `statement`, with what it means and what to set.
    private static func sessionMoved(_ error: PostgresError, statement: String) -> PostgresError {
        PostgresError(
            kind: error.kind, sqlState: error.sqlState,
            message: error.message + " (SQLSTATE \(error.sqlState.rawValue)): the connection prepared \"\(statement)\" "
                + "in another server session, as a pooler in transaction mode (pgbouncer's pool_mode = "
                + "transaction) hands each transaction any server connection; set "
                + "PostgresConfiguration.usesNamedPreparedStatements to false to run every statement unnamed",
            detail: error.detail, constraint: error.constraint, table: error.table, column: error.column,
            sql: error.sql)
    }

    /// Runs one prepared statement once per argument list in libpq's pipeline mode: every statement is
    /// sent before the first answer is read, so a batch costs one round trip instead of one per row. All run
    /// in the caller's transaction; the first failure is thrown after the batch is drained. See
    /// <https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>.
    /// - Returns: each statement's rows, in order.
    /// - Throws: ``PostgresError`` of the first statement that failed.
    func runPipelined(_ sql: String, _ argumentLists: [[PostgresValue]]) throws -> [PostgresResult] {
        guard let first = argumentLists.first else { return [] }
        let types = first.map { $0.isNull ? 0 : $0.typeOID }
        pipelineCount += 1
        // Without named statements the batch uses the unnamed one: a pooler may run the next transaction
        // on a server session that never saw this batch, so no name may outlive it.
        let name = configuration.usesNamedPreparedStatements ? statementPrefix + "pipeline_\(pipelineCount)" : ""
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(kind: .client, message: "could not enter pipeline mode: \(lastMessage)", sql: sql)
        }
        defer { PQexitPipelineMode(handle) }
        let prepared = types.withUnsafeBufferPointer { typeBuffer in
            PQsendPrepare(handle, name, sql, Int32(types.count), typeBuffer.baseAddress)
        }
        guard prepared == 1 else { throw failure(sql: sql) }
        for arguments in argumentLists {
            let sent = withParameters(arguments) { count, values, lengths, formats in
                PQsendQueryPrepared(handle, name, count, values, lengths, formats, 1)
            }
            guard sent == 1 else { throw failure(sql: sql) }
        }
        guard PQpipelineSync(handle) == 1 else { throw failure(sql: sql) }
        var results: [PostgresResult] = []
        var firstError: PostgresError?
        // Each statement's results end with a NULL; the batch ends with the PGRES_PIPELINE_SYNC result.
        while true {
            guard let raw = PQgetResult(handle) else {
                if !isConnected { throw failure(sql: sql) }
                continue
            }
            let result = PostgresResult(raw)
            if result.isPipelineSync { break }
            if result.succeeded {
                if PQresultStatus(raw) != PGRES_COMMAND_OK || !result.commandStatus.hasPrefix("PREPARE") {
                    results.append(result)
                }
            } else if PQresultStatus(raw) != PGRES_PIPELINE_ABORTED, firstError == nil {
                firstError = result.error(sql: sql, connectionLost: !isConnected)
            }
        }
        if let trailing = PQgetResult(handle) { _ = PostgresResult(trailing) }
        if let firstError { throw firstError }
        // The statement's name is released for the next batch; the unnamed one goes with the next Parse.
        if !name.isEmpty {
            _ = try? check(PQexec(handle, "DEALLOCATE " + name), sql: "DEALLOCATE " + name)
        }
        return Array(results.suffix(argumentLists.count))
    }

    private func failure(sql: String) -> PostgresError {
        PostgresError(kind: isConnected ? .client : .connectionLost, message: lastMessage, sql: sql)
    }

    /// Wraps libpq's answer, and throws its error: the server's report, or a lost connection.
    private func check(_ raw: OpaquePointer?, sql: String) throws -> PostgresResult {
        guard let raw else { throw failure(sql: sql) }
        let result = PostgresResult(raw)
        guard result.succeeded else {
            var error = result.error(sql: sql, connectionLost: !isConnected)
            if error.kind == .client && !isConnected {
                error = PostgresError(kind: .connectionLost, message: error.message, sql: sql)
            }
            throw error
        }
        return result
    }

    /// Hands libpq the parameters as the four arrays `PQexecParams` and `PQexecPrepared` take: count, values
    /// (NUL-terminated for text), lengths, formats (0 text, 1 binary).
    private func withParameters<R>(
        _ arguments: [PostgresValue],
        _ body: (
            Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
        ) throws -> R
    ) rethrows -> R {
        var storage: [CChar] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        storage.reserveCapacity(arguments.reduce(1) { $0 + ($1.bytes?.count ?? 0) + 1 })
        for argument in arguments {
            formats.append(argument.isBinary ? 1 : 0)
            guard let bytes = argument.bytes else {
                offsets.append(nil)
                lengths.append(0)
                continue
            }
            offsets.append(storage.count)
            lengths.append(Int32(bytes.count))
            for byte in bytes { storage.append(CChar(bitPattern: byte)) }
            storage.append(0)
        }
        storage.append(0)
        return try storage.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { start in base.map { $0 + start } }
            }
            return try values.withUnsafeBufferPointer { valueBuffer in
                try lengths.withUnsafeBufferPointer { lengthBuffer in
                    try formats.withUnsafeBufferPointer { formatBuffer in
                        try body(
                            Int32(arguments.count), valueBuffer.baseAddress, lengthBuffer.baseAddress,
                            formatBuffer.baseAddress)
                    }
                }
            }
        }
    }
}
#endif
