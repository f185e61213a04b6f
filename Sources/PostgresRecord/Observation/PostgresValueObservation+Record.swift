#if PostgreSQL
import SQLiteRecord

extension QueryInterfaceRequest where Base: Sendable {
    /// An observation on PostgreSQL of the records the request fetches: they are fetched again after each
    /// commit that wrote a table the request reads (SQLiteRecord's `observation()`, on a server).
    ///
    /// ```swift
    /// for try await notes in Note.all().order(Column("title")).postgresObservation().values(in: pool) {
    ///     print(notes.count)
    /// }
    /// ```
    public func postgresObservation() -> PostgresValueObservation<[Base]> {
        let request = self
        return .tracking { connection in try request.fetch(connection) }
    }
}

extension Record where Self: Sendable {
    /// An observation on PostgreSQL of the record whose primary key is `id`: nil while there is none; read
    /// again after each commit that wrote the record's table.
    /// - Parameter id: the primary key.
    public static func postgresObservation(id: ID) -> PostgresValueObservation<Self?> {
        .tracking { connection in try fetchOne(connection, id: id) }
    }
}
#endif
