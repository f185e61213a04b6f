extension Database {
    /// Traces the statements `body` runs on this connection, then switches the trace off: `handler` is
    /// called after each statement, with its SQL and how long it took, from the moment `body` starts until it
    /// returns or throws.
    ///
    /// ```swift
    /// let cities = try queue.read { db in
    ///     try db.trace({ event in print(event.duration, event.sql) }, during: { try City.fetch(db) })
    /// }
    /// ```
    ///
    /// It is ``trace(_:)`` with the handler, then `trace(nil)` once `body` is done, whatever it throws: the
    /// trace ends with the closure, and a trace set earlier with ``trace(_:)`` ends too (there is one trace
    /// per connection). The handler runs on the thread that runs each statement, inside SQLite: it must not
    /// use the connection. See <https://www.sqlite.org/c3ref/trace_v2.html>.
    /// - Parameters:
    ///   - handler: called after each statement `body` runs (statements the library runs for it included).
    ///   - body: the work to trace; it receives nothing, as the connection is this one.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, after the trace is switched off.
    public func trace<T>(_ handler: @escaping @Sendable (TraceEvent) -> Void, during body: () throws -> T) rethrows -> T
    {
        trace(handler)
        defer { trace(nil) }
        return try body()
    }
}
