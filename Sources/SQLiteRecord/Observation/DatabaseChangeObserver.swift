/// What a ``ChangeTracker`` tells of commits.
protocol DatabaseChangeObserver: AnyObject, Sendable {
    /// Called on the writer connection's thread after a write ended that committed `change`: must return
    /// quickly, without touching the database.
    func databaseDidCommit(_ change: DatabaseChange)
}
