#if PostgreSQL
import CPostgresRecord
import Foundation

/// One connection to a PostgreSQL server, over libpq: statements with `$n` parameters, prepared once and
/// run by name, rows in binary form, transactions and savepoints.
///
/// A connection is used by one thread at a time: ``PostgresPool`` hands it to one closure at a time, on
/// that connection's own serial queue. Every session sets `TimeZone` to UTC on connect, so that a
/// `timestamp` without zone and the text of a `timestamptz` read as UTC. The server's notices and warnings
/// (`NOTICE`, `WARNING`) are dropped, never printed to the app's stderr.
///
/// Invariants (this file, `PostgresConnection+CopyIn.swift` for the COPY protocol, and `PostgresResult.swift` with
/// `PostgresResult+Row.swift` are the module's owners of libpq memory):
/// - `handle` is the non-null `PGconn *` this object alone owns, finished once, in `deinit`.
/// - Parameter bytes handed to libpq live in one `PostgresParameters` buffer kept alive for the whole libpq
///   call (`withArrays`); libpq copies them into its send buffer before the call returns.
/// - Every `PGresult *` libpq returns is wrapped at once in a `PostgresResult`, which clears it.
/// - Every `PGnotify *` `PQnotifies` returns is copied into a `PostgresNotification` and freed with
///   `PQfreemem` before `takeNotifications()` returns; none outlives the call.
/// - After any failure, `PQstatus` tells a lost connection (`CONNECTION_BAD`) from a refused statement; a
///   lost connection is never used again (the pool replaces it).
/// - Every statement a caller asks for (`execute`, `query`, `run`, `runPipelined`) runs between
///   `inFlight`'s `begin` and `end`, which is what lets another thread cancel it (a task's cancel, the
///   statement timeout) without reaching the next one; the library's transaction control (`BEGIN`, `COMMIT`,
///   `ROLLBACK`, savepoints) does not, so that a cancel never stops the `ROLLBACK` that ends a cancelled call.
public final class PostgresConnection {
    /// The `PGconn *`; read by this file and `PostgresConnection+CopyIn.swift`, the COPY protocol's owner.
    let handle: OpaquePointer
    /// Whether a statement is in flight, and the cancel requests that stop it.
    let inFlight: PostgresStatementInFlight
    /// The configuration the connection was opened with.
    public let configuration: PostgresConfiguration
    /// Statement names by SQL and parameter types, for named prepared statements.
    var preparedNames: [PreparedKey: String] = [:]
    /// The named statement `run` ran last, one of ``preparedNames``.
    var lastPrepared: (key: PreparedKey, name: String)?
    /// This connection's part of its statement names, random, so that no other client's session can hold
    /// a statement of the same name: behind a pooler that moves sessions between server connections
    /// (pgbouncer's transaction mode), a name this connection prepared elsewhere is then missing (SQLSTATE
    /// 26000), never another client's statement run with this connection's arguments.
    private let statementPrefix = "postgresrecord_" + UUID().uuidString.prefix(8).lowercased() + "_"
    /// Column names by table, for checking `where:` keys and `orderBy:` columns before a query runs.
    var tableColumnsCache: [String: [String]] = [:]
    /// The last `where:` fetch's form, whose columns were checked against ``tableColumnsCache``; forgotten
    /// whenever a table's columns are.
    var lastFetch: PostgresFetchForm?
    /// Per table, whether each column is an array column, read for records that write an array of scalars
    /// (see `writeArrays(of:into:)`), with its type; emptied as ``tableColumnsCache`` is, and when a plan expired.
    var tableArrayColumnsCache: [String: [String: ArrayColumnType]] = [:]
    /// Per table, its columns' types as `arrayColumns(of:)` read them last, kept when the cache is emptied.
    var tableArrayColumnsRead: [String: [String: ArrayColumnType]] = [:]
    /// Per rowid table, the count of explicit-id writes at which this connection last caught its identity
    /// sequence up (see `catchUpIdentity(of:)`); emptied by plain SQL, which may have written ids.
    var identityCatchUps: [String: Int] = [:]
    /// The catch-up `catchUpIdentity(of:)` found current last, and its count: one of ``identityCatchUps``'s
    /// entries (its table's), which a loop of inserts into one table checks without hashing the table's
    /// name. Emptied with ``identityCatchUps``.
    var lastIdentityCatchUp: (catchUp: IdentityCatchUp, writes: Int)?
    /// The record type whose shape this connection's record calls used last, and that shape (see
    /// `PostgresRecordShape.of(_:on:)`): a loop of calls on one type finds it without the shared cache's
    /// lock.
    var lastShape: (type: ObjectIdentifier, shape: PostgresRecordShape)?
    /// Per type OID of this server's own types (from 16384 on), whether it is an enum, `citext` or an array
    /// of either (see `ownType(_:)`): a type's OID names it for the life of the database.
    var ownTypes: [UInt32: OwnType] = [:]
    /// The column layout of each SQL text's results, for reading their rows (``columnLayout(for:sql:)``).
    var columnLayouts: [String: PostgresColumnLayout] = [:]
    /// How many savepoints deep the library's transactions are.
    var savepointDepth = 0
    /// True while ``run(_:_:)`` runs a statement again after the server refused its expired plan, so that a
    /// second refusal is the call's error.
    private var retryingExpiredPlan = false
    /// The cancellation of the async pool call running on the connection; nil between calls and for
    /// synchronous ones. Its cancel stops the statement in flight (``inFlight``).
    var cancellation: PostgresCallCancellation? {
        didSet { inFlight.attach(cancellation) }
    }
    /// A parameter buffer a record's statement used and handed back (``takeSpareParameters()``), so that the
    /// next one reuses its room instead of allocating its own.
    private var spareParameters = PostgresParameters()
    /// Named statements made so far, so that each has a name of its own (a pipeline's `Parse` that an earlier
    /// failure aborted leaves its name unused, never reused for other SQL).
    private var statementCount = 0

    struct PreparedKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Opens a connection and sets the session's time zone to UTC.
    /// - Throws: ``PostgresError`` of kind `.connectionFailed` with libpq's message when the server cannot
    ///   be reached or refuses the login.
    /// The corresponding libpq call is `PQconnectdb`.
    public init(configuration: PostgresConfiguration) throws {
        guard let handle = Self.connect(configuration) else {
            throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        self.handle = handle
        self.configuration = configuration
        inFlight = PostgresStatementInFlight(cancelKey: PostgresCancelKey(handle))
        // The server's notices and warnings (`CREATE TABLE IF NOT EXISTS`'s "already exists, skipping") are
        // dropped: libpq's default receiver prints them to the process's stderr, which is the app's, not a
        // library's. A failure is an error result and is never a notice. See
        // <https://www.postgresql.org/docs/current/libpq-notice-processing.html>.
        PQsetNoticeReceiver(handle, { _, _ in }, nil)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connectionFailed, message: lastMessage)
        }
        try execute("SET TimeZone TO 'UTC'")
    }

    /// `PQconnectdbParams` with the configuration's ``PostgresConfiguration/defaultParameters`` (those this
    /// libpq knows, by `PQconndefaults`) first and the connection string last, as `dbname` with
    /// `expand_dbname` set: libpq expands it into its parameters, which override the ones before it. See
    /// <https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PQCONNECTDBPARAMS>.
    private static func connect(_ configuration: PostgresConfiguration) -> OpaquePointer? {
        let pairs = configuration.defaultParameters.filter { knownParameters.contains($0.key) }
            .sorted { $0.key < $1.key } + [(key: "dbname", value: configuration.connectionString)]
        // Copies libpq reads during the call only; freed right after it.
        let keys = pairs.map { strdup($0.key) }
        let values = pairs.map { strdup($0.value) }
        defer {
            for copy in keys + values { free(copy) }
        }
        let keyPointers = keys.map { $0.map { UnsafePointer($0) } } + [nil]
        let valuePointers = values.map { $0.map { UnsafePointer($0) } } + [nil]
        return PQconnectdbParams(keyPointers, valuePointers, 1)
    }

    /// The parameter names the linked libpq accepts (`PQconndefaults`), read once.
    private static let knownParameters: Set<String> = {
        guard let options = PQconndefaults() else { return [] }
        defer { PQconninfoFree(options) }
        var names: Set<String> = []
        var option = options
        while let keyword = option.pointee.keyword {
            names.insert(String(cString: keyword))
            option += 1
        }
        return names
    }()

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

    /// The server and database of the session, as `host:port/dbname` (`PQhost`, `PQport`, `PQdb`; a Unix
    /// socket's directory as the host): for messages, without the password or the other parameters.
    public var serverLocation: String {
        let host = PQhost(handle).map { String(cString: $0) } ?? ""
        let port = PQport(handle).map { String(cString: $0) } ?? ""
        let database = PQdb(handle).map { String(cString: $0) } ?? ""
        return host + (port.isEmpty ? "" : ":" + port) + "/" + database
    }

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
        // The SQL may change tables: the columns read for where: checks are read again, and identities
        // are caught up again before the next insert without an id.
        forgetTableColumns()
        forgetIdentityCatchUps()
        _ = try cancellable(sql) { try check(PQexec(handle, sql), sql: sql) }
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
        // It may write ids: identities are caught up again before the next insert without an id.
        forgetIdentityCatchUps()
        return try run(sql, arguments).affectedRows
    }

    /// Runs one query with `$1`, `$2`... bound to `arguments`, and returns its rows (read in binary form).
    /// - Throws: ``PostgresError`` as ``execute(_:)``.
    public func query(_ sql: String, _ arguments: [PostgresValue] = []) throws -> PostgresRows {
        let result = try run(sql, arguments)
        try readTextTypesAsText(result)
        return PostgresRows(result: result, sql: sql, layout: columnLayout(for: result, sql: sql))
    }

    /// The buffer the last ``keepSpareParameters(_:)`` kept (its values still in it), or an empty one; the
    /// connection keeps none until it is handed back.
    func takeSpareParameters() -> PostgresParameters {
        defer { spareParameters = PostgresParameters() }
        return spareParameters
    }

    /// Keeps `parameters`, whose statement has run (libpq copied its values), for the next
    /// ``takeSpareParameters()``.
    func keepSpareParameters(_ parameters: PostgresParameters) {
        // A buffer a large value grew is let go, not kept for the connection's life.
        spareParameters = parameters.byteCapacity <= Self.keptParameterBytes ? parameters : PostgresParameters()
    }

    /// The most bytes of room a kept parameter buffer may hold.
    static let keptParameterBytes = 64 * 1024

    /// Runs one statement as the `run` below does, `arguments` written into the spare parameter buffer
    /// (``takeSpareParameters()``), handed back once libpq has copied them.
    func run(_ sql: String, _ arguments: [PostgresValue]) throws -> PostgresResult {
        var parameters = takeSpareParameters()
        parameters.removeAll()
        for argument in arguments { parameters.append(argument) }
        defer { keepSpareParameters(parameters) }
        return try run(sql, parameters)
    }

    /// Runs one statement: by name when the configuration keeps named prepared statements (preparing it on
    /// first use), else as libpq's unnamed statement. Results come in binary form.
    ///
    /// A named statement the session does not have (SQLSTATE 26000) or has already (42P05) means that a
    /// pooler ran this connection's statements on more than one server session: the error says so and
    /// names ``PostgresConfiguration/usesNamedPreparedStatements``, and the name is forgotten, so the next
    /// call prepares it again. A named statement whose result columns changed since it was prepared (another
    /// session added, dropped or retyped a column of its table: SQLSTATE 0A000, "cached plan must not change
    /// result type") is prepared again: at once when no transaction is open, else by the next call, the
    /// error saying so (the server has aborted the transaction). This is what Rails' PostgreSQL adapter
    /// does for the same error.
    func run(_ sql: String, _ parameters: PostgresParameters) throws -> PostgresResult {
        try cancellable(sql) { try send(sql, parameters) }
    }

    /// ``run(_:_:)``'s work, run while the statement is in flight.
    private func send(_ sql: String, _ parameters: PostgresParameters) throws -> PostgresResult {
        let count = Int32(parameters.count)
        guard configuration.usesNamedPreparedStatements else {
            return try parameters.withArrays { values, lengths, formats, types in
                try check(PQexecParams(handle, sql, count, types, values, lengths, formats, 1), sql: sql)
            }
        }
        let key: PreparedKey
        let name: String
        // A run of statements mostly repeats the one before (a loop of inserts): found without a hash.
        if let last = lastPrepared, last.key.sql == sql, last.key.types == parameters.types {
            (key, name) = last
        } else {
            key = PreparedKey(sql: sql, types: parameters.types)
            if let known = preparedNames[key] {
                name = known
            } else {
                name = nextStatementName()
                do {
                    _ = try check(
                        key.types.withUnsafeBufferPointer { typeBuffer in
                            PQprepare(handle, name, sql, count, typeBuffer.baseAddress)
                        }, sql: sql)
                } catch let error as PostgresError where error.sqlState == Self.duplicatePreparedStatement {
                    throw Self.sessionMoved(error, statement: name)
                }
                preparedNames[key] = name
            }
            lastPrepared = (key, name)
        }
        do {
            return try parameters.withArrays { values, lengths, formats, _ in
                try check(PQexecPrepared(handle, name, count, values, lengths, formats, 1), sql: sql)
            }
        } catch let error as PostgresError where error.sqlState == .invalidSQLStatementName {
            preparedNames[key] = nil
            lastPrepared = nil
            throw Self.sessionMoved(error, statement: name)
        } catch let error as PostgresError where [.undefinedFunction, .datatypeMismatch].contains(error.sqlState) {
            // Types inferred at prepare may not fit a column retyped since: the error is the call's, not retried.
            forgetRetypedStatement(sql)
            throw error
        } catch let error as PostgresError where error.sqlState == .featureNotSupported && !retryingExpiredPlan {
            // "cached plan must not change result type": the statement's tables changed (a column added,
            // dropped or retyped) since the session prepared it, so its `SELECT *` would now give other
            // columns. The name is forgotten, so the statement is prepared afresh; outside a transaction
            // nothing ran, and it runs again at once. Inside one, the error has aborted the transaction.
            preparedNames[key] = nil
            lastPrepared = nil
            columnLayouts[sql] = nil
            tableArrayColumnsCache.removeAll()
            guard PQtransactionStatus(handle) == PQTRANS_IDLE else { throw Self.planExpired(error) }
            retryingExpiredPlan = true
            defer { retryingExpiredPlan = false }
            return try send(sql, parameters)
        }
    }

    /// The server's refusal of a statement prepared before its tables changed, with what happened and what
    /// the next call does.
    private static func planExpired(_ error: PostgresError) -> PostgresError {
        PostgresError(
            kind: error.kind, sqlState: error.sqlState,
            message: error.message + " (SQLSTATE \(error.sqlState.rawValue)): a table the statement reads changed "
                + "since this connection prepared it; the transaction is rolled back, and the next call prepares "
                + "the statement again",
            detail: error.detail, constraint: error.constraint, table: error.table, column: error.column,
            sql: error.sql)
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

    /// Runs statements with their parameters (each a range of `parameters`) in libpq's pipeline mode: every
    /// execution is sent before the first answer is read, so a batch costs one round trip (plus what the
    /// socket's buffers split it into) instead of one per row. See
    /// <https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>.
    ///
    /// Each statement is prepared as ``run(_:_:)`` prepares it (once per connection and parameter types, by
    /// name; or as the unnamed statement when the configuration has no named statements, sent again in the
    /// batch whenever the SQL or the parameter types change), the `Parse` going out in the same batch. All executions
    /// run in the caller's transaction: the first one that fails aborts the rest (the server answers them
    /// `PGRES_PIPELINE_ABORTED`), and the caller's transaction must roll back.
    ///
    /// Each execution's result is handed to `answer` with its index in `statements`, in order, as soon as it
    /// is read, and cleared when `answer` returns: a batch keeps no result past its check. Once an execution
    /// failed or `answer` threw, the later results are read and cleared without `answer`.
    /// - Throws: ``PostgresError`` of the first execution that failed (the server's SQLSTATE, constraint,
    ///   table and column), with ``PostgresError/batchIndex`` set to its index in `statements`; of kind
    ///   `.connectionLost` when the connection broke; or the first error `answer` threw, once the whole batch
    ///   is read.
    func runPipelined(
        _ statements: [(sql: String, parameters: Range<Int>)], _ parameters: PostgresParameters,
        answer: (_ index: Int, _ result: PostgresResult) throws -> Void
    ) throws {
        guard let firstSQL = statements.first?.sql else { return }
        try cancellable(firstSQL) { try sendPipelined(statements, parameters, firstSQL: firstSQL, answer: answer) }
    }

    /// ``runPipelined(_:_:answer:)``'s work, run while the batch is in flight.
    private func sendPipelined(
        _ statements: [(sql: String, parameters: Range<Int>)], _ parameters: PostgresParameters, firstSQL: String,
        answer: (_ index: Int, _ result: PostgresResult) throws -> Void
    ) throws {
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(
                kind: .client, message: "could not enter pipeline mode: \(lastMessage)", sql: firstSQL)
        }
        // What was sent, in order: each answer is matched to its request.
        enum Request {
            case prepare(PreparedKey, name: String)
            case execute(index: Int, sql: String)

            var sql: String {
                switch self {
                case .prepare(let key, _): return key.sql
                case .execute(_, let sql): return sql
                }
            }
        }
        var requests: [Request] = []
        requests.reserveCapacity(statements.count + 1)
        var pendingNames: [PreparedKey: String] = [:]
        // The statement of the previous row: rows of a batch mostly share it, found without a hash.
        var previous: (key: PreparedKey, name: String)?
        // Every statement's parameters are in the one buffer: its arrays are made once for the batch, and each
        // statement passes them from its first parameter on.
        let sendFailure: PostgresError? = parameters.withArrays { values, lengths, formats, types in
            for (index, (sql, range)) in statements.enumerated() {
                let name: String
                var prepared: PreparedKey?
                if let previous, previous.key.sql == sql, previous.key.types.elementsEqual(parameters.types[range]) {
                    name = previous.name
                } else {
                    let key = PreparedKey(sql: sql, types: Array(parameters.types[range]))
                    if !configuration.usesNamedPreparedStatements {
                        // The unnamed statement, parsed again whenever the SQL or the types change.
                        name = ""
                        prepared = key
                    } else if let known = preparedNames[key] ?? pendingNames[key] {
                        name = known
                    } else {
                        name = nextStatementName()
                        pendingNames[key] = name
                        prepared = key
                    }
                    previous = (key, name)
                }
                let count = Int32(range.count)
                if let prepared {
                    guard PQsendPrepare(handle, name, sql, count, types.map { $0 + range.lowerBound }) == 1 else {
                        return failure(sql: sql)
                    }
                    requests.append(.prepare(prepared, name: name))
                }
                let sent = PQsendQueryPrepared(
                    handle, name, count, values.map { $0 + range.lowerBound }, lengths.map { $0 + range.lowerBound },
                    formats.map { $0 + range.lowerBound }, 1)
                guard sent == 1 else { return failure(sql: sql) }
                requests.append(.execute(index: index, sql: sql))
            }
            return nil
        }
        // Even after a failed send, the sync ends what was sent, so that the connection leaves pipeline mode.
        guard PQpipelineSync(handle) == 1 else {
            let error = sendFailure ?? failure(sql: firstSQL)
            PQexitPipelineMode(handle)
            throw error
        }
        var answered = 0
        var firstError: (any Error)?
        for request in requests {
            // Each request's answer is one result (PGRES_PIPELINE_ABORTED once an earlier one failed), then NULL.
            guard let raw = PQgetResult(handle) else {
                if !isConnected { throw failure(sql: request.sql) }
                continue
            }
            let result = PostgresResult(raw)
            while let extra = PQgetResult(handle) { _ = PostgresResult(extra) }
            switch request {
            case .prepare(let key, let name):
                if result.succeeded {
                    if configuration.usesNamedPreparedStatements { preparedNames[key] = name }
                } else if firstError == nil, !result.isPipelineAborted {
                    firstError = result.error(sql: key.sql, connectionLost: !isConnected)
                }
            case .execute(let index, let sql):
                if result.succeeded {
                    answered += 1
                    if firstError == nil {
                        do { try answer(index, result) } catch { firstError = error }
                    }
                } else if firstError == nil, !result.isPipelineAborted {
                    firstError = result.error(sql: sql, connectionLost: !isConnected).with(batchIndex: index)
                }
            }
        }
        // The batch ends with the PGRES_PIPELINE_SYNC result.
        while let raw = PQgetResult(handle) {
            let result = PostgresResult(raw)
            if result.isPipelineSync { break }
        }
        PQexitPipelineMode(handle)
        if let error = sendFailure { throw error }
        if let firstError { throw firstError }
        guard answered == statements.count else {
            throw PostgresError(
                kind: isConnected ? .client : .connectionLost,
                message: "the pipeline answered \(answered) of \(statements.count) statements", sql: firstSQL)
        }
    }

    /// `body`, the libpq calls of one statement (or one pipelined batch), run while ``inFlight`` says a
    /// statement is in flight, so that a cancel request sent meanwhile stops this statement and no other.
    ///
    /// The server answers a cancelled statement with SQLSTATE 57014; the request's reason turns it into the
    /// call's error: `CancellationError` for the task's cancel, ``PostgresError/statementTimedOut(_:after:)``
    /// for the statement timeout. A statement asked for after the task of the async pool call was cancelled
    /// is not sent.
    /// - Throws: what `body` throws, turned as above; `CancellationError` before sending anything when the
    ///   task was cancelled.
    func cancellable<T>(_ sql: String, _ body: () throws -> T) throws -> T {
        try inFlight.begin(timeout: configuration.statementTimeout)
        let result = Result { try body() }
        let reason = inFlight.end()
        guard case .failure(let error) = result, let reason, let error = error as? PostgresError,
            error.sqlState == .queryCanceled
        else { return try result.get() }
        switch reason {
        case .task: throw CancellationError()
        case .timeout(let seconds): throw PostgresError.statementTimedOut(error, after: seconds)
        }
    }

    /// The connection's socket (`PQsocket`): readable when the server sent something, such as a
    /// notification or the message that ends a terminated session; -1 when there is none.
    var socket: Int32 { PQsocket(handle) }

    /// Reads what the server has sent without waiting (`PQconsumeInput`), and returns the notifications
    /// received since the last call, oldest first (`PQnotifies`); each `PGnotify` is copied and freed
    /// (`PQfreemem`). See <https://www.postgresql.org/docs/current/libpq-notify.html>.
    /// - Throws: ``PostgresError`` of kind `.connectionLost` when the connection is gone (the server ended
    ///   the session, or the socket closed).
    func takeNotifications() throws -> [PostgresNotification] {
        let consumed = PQconsumeInput(handle) == 1
        var received: [PostgresNotification] = []
        while let notify: UnsafeMutablePointer<PGnotify> = PQnotifies(handle) {
            let channel = notify.pointee.relname.map { String(cString: $0) } ?? ""
            let payload = notify.pointee.extra.map { String(cString: $0) } ?? ""
            received.append(
                PostgresNotification(channel: channel, payload: payload, senderPID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        guard consumed, isConnected else {
            throw PostgresError(kind: .connectionLost, message: lastMessage)
        }
        return received
    }

    /// A statement name no other statement of this connection has had.
    private func nextStatementName() -> String {
        statementCount += 1
        return statementPrefix + String(statementCount)
    }

    func failure(sql: String) -> PostgresError {
        PostgresError(kind: isConnected ? .client : .connectionLost, message: lastMessage, sql: sql)
    }

    /// Wraps libpq's answer, and throws its error: the server's report, or a lost connection.
    func check(_ raw: OpaquePointer?, sql: String) throws -> PostgresResult {
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
}

/// A session's cancel key (libpq's `PGcancel *`, from `PQgetCancel`): what a cancel request sends the server
/// (the session's process id and secret key) and where (the connection's address).
///
/// Invariants: `handle` is the non-null `PGcancel *` this object alone owns, freed once, in `deinit`. It
/// holds copies of what it needs, so it stays valid after its connection is finished. `PQcancel` on it may run
/// on any thread (<https://www.postgresql.org/docs/current/libpq-cancel.html>); ``PostgresStatementInFlight``
/// calls ``send()`` under its lock only, so requests on one key never overlap.
final class PostgresCancelKey {
    private let handle: OpaquePointer

    /// The cancel key of `connection` (a `PGconn *`), or nil when libpq has none (the connection failed).
    init?(_ connection: OpaquePointer) {
        guard let handle = PQgetCancel(connection) else { return nil }
        self.handle = handle
    }

    deinit { PQfreeCancel(handle) }

    /// Asks the server to cancel the statement the session is running, and returns once the server has
    /// taken the request: libpq waits for the postmaster to close the request's connection, which it does
    /// after signalling the session's process. Returns nil then, or libpq's message when the request could
    /// not be sent. The corresponding libpq call is `PQcancel`.
    func send() -> String? {
        var message = [CChar](repeating: 0, count: 256)
        if PQcancel(handle, &message, Int32(message.count)) == 1 { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
