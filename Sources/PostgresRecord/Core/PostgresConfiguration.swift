#if PostgreSQL
import Foundation

/// How to reach a server, and how connections behave.
public struct PostgresConfiguration: Sendable, Equatable {
    /// A libpq connection string: a URI (`postgresql://user@127.0.0.1:5432/db`) or `key=value` pairs
    /// (`host=/tmp port=5432 dbname=app`). See
    /// <https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING>.
    ///
    /// For a primary that may fail over to a standby, name every server with
    /// `target_session_attrs=read-write` (`postgresql://app@db-1:5432,db-2:5432/app?target_session_attrs=read-write`):
    /// libpq tries them in order and keeps the first that takes writes, so each new connection of a pool
    /// finds the promoted standby by itself. See
    /// <https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-MULTIPLE-HOSTS>.
    public var connectionString: String

    /// When true (the default), each connection prepares a statement once under a name
    /// (`PQprepare`) and runs it by that name afterwards. Set false behind pgbouncer in transaction mode
    /// (before its 1.21 statement tracking), where the next transaction may run on another server
    /// connection that does not know the name: the call then throws ``PostgresError`` with SQLSTATE 26000
    /// and a message naming this property.
    ///
    /// When false, no call sends a named statement: each one is parsed with its arguments in one round trip
    /// (`PQexecParams`, the unnamed statement), as Rails' `prepared_statements: false` does, and a pipelined
    /// batch (`insertAll(_:_:)`) prepares the unnamed statement once for its rows. Statements are
    /// parsed on every call then, which costs the server some time per call. See pgbouncer's feature table
    /// <https://www.pgbouncer.org/features.html> and the protocol's unnamed statement
    /// <https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY>.
    public var usesNamedPreparedStatements: Bool

    /// The most connections a ``PostgresPool`` opens; at least 1. Ten by default.
    public var maximumConnections: Int

    /// How long a statement may run, in seconds, before the library cancels it; nil (the default), zero or
    /// less: no limit. The statement then throws ``PostgresError`` with SQLSTATE 57014 (`queryCanceled`) and a
    /// message naming this timeout, its transaction rolls back as for any error, and the connection stays
    /// usable.
    ///
    /// The limit is a timer in this process, started as each statement is sent, that sends the server a
    /// cancel request (`PQcancel`, as a task's cancel does) for that statement if it is still running when
    /// the timer fires. A pipelined batch (`insertAll(_:_:)`) counts as one statement; the library's own
    /// `BEGIN`, `COMMIT`, `ROLLBACK` and savepoints are not timed. The server's `statement_timeout` setting would
    /// do the same without a timer, but a `SET` at connect belongs to one server session, and behind
    /// pgbouncer in transaction mode a connection's transactions run on any of its server sessions: the setting
    /// would be lost, or apply to another client. pgbouncer forwards cancel requests to the session running
    /// the client's statement, so the timer works behind it too. The cancel reaches the server within a
    /// network round trip of the timeout. A cancel request is a connection of its own to the server, so it
    /// cannot end a statement whose network path is gone without either side noticing:
    /// ``defaultParameters`` (TCP keepalives and `tcp_user_timeout`) are the answer there. See
    /// <https://www.postgresql.org/docs/current/libpq-cancel.html>.
    public var statementTimeout: TimeInterval?

    /// libpq connection parameters applied before ``connectionString``: a parameter the connection string
    /// names itself wins. ``networkTimeouts`` by default, so that no call waits forever on a peer that
    /// vanished (a partition, a host that died without closing its sockets); an empty dictionary leaves
    /// libpq's own defaults (no connect timeout, the system's keepalives: two hours). A parameter the
    /// linked libpq does not know (`tcp_user_timeout` before libpq 12) is left out. Unix-domain sockets
    /// ignore the TCP ones. See <https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PARAMKEYWORDS>.
    public var defaultParameters: [String: String]

    /// The network timeouts every connection gets unless its connection string says otherwise:
    /// - `connect_timeout=10`: a connection attempt ends after 10 seconds (per host address).
    /// - `keepalives=1`, `keepalives_idle=5`, `keepalives_interval=2`, `keepalives_count=3`: a connection
    ///   that has heard nothing for 5 seconds sends a TCP keepalive probe every 2 seconds.
    /// - `tcp_user_timeout=15000`: the system drops the connection once data it sent, or its probes, have
    ///   gone unacknowledged for 15 seconds.
    ///
    /// So a call whose server stops answering (the statement sent, or idle and probed) ends with
    /// ``PostgresError`` of kind `.connectionLost` within about 15 seconds of the peer's last packet, plus a
    /// keepalive interval; a statement that runs long on a server that answers probes is never cut.
    public static let networkTimeouts: [String: String] = [
        "connect_timeout": "10", "keepalives": "1", "keepalives_idle": "5", "keepalives_interval": "2",
        "keepalives_count": "3", "tcp_user_timeout": "15000",
    ]

    /// Makes a configuration.
    /// - Parameters:
    ///   - connectionString: a libpq URI or `key=value` string.
    ///   - usesNamedPreparedStatements: false behind pgbouncer's transaction mode.
    ///   - maximumConnections: the pool's size (values below 1 count as 1).
    ///   - statementTimeout: the longest a statement may run, in seconds; nil for no limit.
    ///   - defaultParameters: libpq parameters the connection string may override; ``networkTimeouts`` by
    ///     default.
    public init(
        connectionString: String, usesNamedPreparedStatements: Bool = true, maximumConnections: Int = 10,
        statementTimeout: TimeInterval? = nil, defaultParameters: [String: String] = networkTimeouts
    ) {
        self.connectionString = connectionString
        self.usesNamedPreparedStatements = usesNamedPreparedStatements
        self.maximumConnections = max(1, maximumConnections)
        self.statementTimeout = statementTimeout
        self.defaultParameters = defaultParameters
    }
}
#endif
