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
    /// again after each commit that changed the record's table.
    /// - Parameter id: the primary key.
    public static func observation(id: ID) -> ValueObservation<Self?> {
        .tracking { (connection: any DatabaseConnection) in try fetchOne(connection, id: id) }
    }
}
