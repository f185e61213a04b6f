extension Database {
    /// Throws `CancellationError` when the task of the async call running on this connection was cancelled
    /// (the async `read`, `write` and `writeWithoutTransaction` of ``DatabaseQueue`` and ``DatabasePool``), or
    /// when the calling task is cancelled; returns otherwise.
    ///
    /// SQLite's interrupt (`sqlite3_interrupt`, which cancelling an async call sends) stops only a statement
    /// that is running: a cancel that lands between two statements finds nothing to stop. The library's own
    /// loops over records (`Record.save(_:_:)`, `Record.delete(_:_:)`, `Record.upsert(_:_:onConflict:updating:)`,
    /// the parent-child saves and deletes) call this before each record, so a cancelled batch throws, rolls
    /// back whole, and leaves no id on a record. Call it between the statements of a long write body of your
    /// own to stop it the same way. See <https://www.sqlite.org/c3ref/interrupt.html>.
    /// - Throws: `CancellationError`.
    public func checkCancellation() throws {
        if cancellation?.isCancelled == true || Task.isCancelled { throw CancellationError() }
    }
}
