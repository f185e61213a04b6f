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
        guard let handler else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            traceHandler = nil
            return
        }
        let box = TraceHandlerBox(handler: handler, showsArguments: options.showsArgumentsInErrors)
        // The box is kept by the connection (traceHandler) for as long as SQLite may call it: until it is
        // replaced, switched off, or the connection closes (deinit switches the trace off first).
        traceHandler = box
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, nanoseconds in
                guard let context, let statement, let nanoseconds else { return 0 }
                let box = Unmanaged<TraceHandlerBox>.fromOpaque(context).takeUnretainedValue()
                let handle = OpaquePointer(statement)
                var sql: String?
                if box.showsArguments, let expanded = sqlite3_expanded_sql(handle) {
                    sql = String(cString: expanded)
                    sqlite3_free(expanded)
                }
                if sql == nil, let text = sqlite3_sql(handle) { sql = String(cString: text) }
                let elapsed = nanoseconds.load(as: Int64.self)
                box.handler(TraceEvent(sql: sql ?? "", duration: .nanoseconds(elapsed)))
                return 0
            }, Unmanaged.passUnretained(box).toOpaque())
    }
}

/// The handler of ``Database/trace(_:)`` and whether it may see bound values. Immutable; kept alive by the
/// connection's `traceHandler` while SQLite holds its pointer.
final class TraceHandlerBox {
    let handler: @Sendable (Database.TraceEvent) -> Void
    let showsArguments: Bool

    init(handler: @escaping @Sendable (Database.TraceEvent) -> Void, showsArguments: Bool) {
        self.handler = handler
        self.showsArguments = showsArguments
    }
}
