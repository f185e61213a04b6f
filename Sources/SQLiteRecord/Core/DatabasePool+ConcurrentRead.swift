import Dispatch

extension DatabasePool {
    /// Starts a read of the state the writer has left, and returns without waiting for it: the read's
    /// snapshot is taken now, on the writer connection's turn, so it sees exactly what the writes committed
    /// so far and nothing the writer does next, while it runs on a reader beside the writes that follow.
    /// GRDB's `concurrentRead`.
    ///
    /// Call it from inside ``writeWithoutTransaction(_:)-1915u``, after the body's own transaction has
    /// committed: then no other write can come between the commit and the snapshot.
    ///
    /// ```swift
    /// let future = try pool.writeWithoutTransaction { db in
    ///     try db.transaction(.immediate) { try importBatch(db) }
    ///     return try pool.concurrentRead { db in try City.count(db) }   // sees the batch, and only it
    /// }
    /// let count = try future.wait()
    /// ```
    ///
    /// Waits for a free reader when every one is busy. The body runs on a dispatch queue of the pool's, in a
    /// read-only snapshot, as ``read(_:)-v95d`` does. See <https://www.sqlite.org/wal.html#concurrency>.
    /// - Returns: the read's result, to wait for or await.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE` when not called from inside a
    ///   `writeWithoutTransaction` of this pool, or from inside a transaction there (the snapshot would not
    ///   see it), or after ``close()``; ``DatabaseError`` from opening a reader or beginning its snapshot.
    ///   What `body` throws comes out of the future.
    public func concurrentRead<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) throws -> DatabaseFuture<T> {
        guard let writer = currentWriter, writer.isCurrentThreadInside, !writer.database.isInsideTransaction else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "DatabasePool.concurrentRead must be called from inside writeWithoutTransaction of the "
                    + "same pool, outside a transaction (after the body's own transaction has committed): only "
                    + "there does its snapshot hold exactly what the writes committed")
        }
        try enter()
        let db: Database
        do {
            db = try readers.take()
        } catch {
            leave()
            throw error
        }
        do {
            try db.beginReadSnapshot(startingNow: true)
        } catch {
            readers.give(back: db)
            leave()
            throw error
        }
        let future = DatabaseFuture<T>()
        let handoff = ReaderConnections.Grant.connection(db)
        readQueue.async {
            defer { self.leave() }
            guard case .connection(let db) = handoff else { return }
            let result = Result {
                try self.readers.runBody {
                    do {
                        let value = try body(db)
                        try db.endReadSnapshot()
                        return value
                    } catch {
                        db.abandonReadSnapshot()
                        throw error
                    }
                }
            }
            self.readers.give(back: db)
            future.fulfill(result)
        }
        return future
    }
}
