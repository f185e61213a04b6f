/// What a ``ChangeTracker`` tells of commits.
protocol DatabaseChangeObserver: AnyObject, Sendable {
    /// Called on the writer connection's thread, in the queue block of a write that committed `change`,
    /// once that write has ended: `db` is the writer connection, outside any transaction the write opened.
    /// An observer that reads this connection (one of a ``DatabaseQueue``) may read it here, in a read
    /// snapshot of its own; any other must return quickly without touching it.
    func databaseDidCommit(_ change: DatabaseChange, in db: Database)
}
