import CSQLiteRecord

extension Database {
    /// One statement the connection ran, as ``trace(_:)`` reports it.
    public struct TraceEvent: Sendable {
        /// The statement's SQL. With ``Options/showsArgumentsInErrors`` on, the SQL with its bound values in
        /// place of the parameters (`sqlite3_expanded_sql`); otherwise the SQL as prepared, so that values
        /// stay out of logs, as they do in errors.
        public let sql: String
        /// How long the statement ran, from its first step to its reset, as SQLite measures it.
        public let duration: Duration
    }

    /// Calls `handler` after each statement this connection runs, with its SQL and how long it took; nil
    /// switches the trace off. One trace per connection: a new handler replaces the last.
    ///
    /// ```swift
    /// try queue.write { db in
    ///     db.trace { event in print("\(event.duration) \(event.sql)") }
    /// }
    /// ```
    ///
    /// The handler runs on the thread that runs the statement, inside SQLite: it must not use the connection.
    /// Statements the library runs itself (transactions, schema reads) are traced too. Bound values appear
    /// only when the connection's ``Options/showsArgumentsInErrors`` allows them. The corresponding SQLite
    /// call is `sqlite3_trace_v2` with `SQLITE_TRACE_PROFILE`; see <https://www.sqlite.org/c3ref/trace_v2.html>.
    public func trace(_ handler: (@Sendable (TraceEvent) -> Void)?) {
        if handler == nil && traceContext == nil { return }
        let context = traceContext ?? SQLiteCallbacks.TraceContext(showsArguments: options.showsArgumentsInErrors)
        traceContext = context
        context.handler = handler
        SQLiteCallbacks.setTrace(on: handle, context)
    }
}
