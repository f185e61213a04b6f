extension QueryInterfaceRequest where Base: Sendable {
    /// An observation of the records the request fetches, on any engine: they are fetched again after each
    /// commit that changed a table the request reads.
    ///
    /// ```swift
    /// for try await notes in Note.all().order(Column("title")).observation().values(in: queue) {
    ///     print(notes.count)
    /// }
    /// ```
    public func observation() -> ValueObservation<[Base]> {
        let request = self
        return .tracking { (connection: any DatabaseConnection) in try request.fetch(connection) }
    }
}

extension Record where Self: Sendable {
    /// An observation of the record whose primary key is `id`, on any engine: nil while there is none; read
    /// again after each commit that changed the record's table. On SQLite, when the key is the table's
    /// `INTEGER PRIMARY KEY` (the rowid), only after a commit that changed that row, or the table in a way
    /// SQLite does not report row by row (see the Observation article).
    /// - Parameter id: the primary key.
    public static func observation(id: ID) -> ValueObservation<Self?> {
        .tracking { (connection: any DatabaseConnection) in try fetchOne(connection, id: id) }
    }
}
