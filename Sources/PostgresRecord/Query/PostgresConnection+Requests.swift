#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// PostgreSQL's side of the engine-neutral request calls (`request.fetch(connection)`, `count`, `deleteAll`,
/// `updateAll`...): the request compiled in PostgreSQL's dialect and run on this connection.
extension PostgresConnection {
    @_spi(RecordEngine)
    public func fetchRecords<Base: Record>(_ request: QueryInterfaceRequest<Base>) throws -> [Base] {
        try request.fetch(self)
    }

    @_spi(RecordEngine)
    public func fetchValues<Base: Record, T: Decodable>(
        _ request: QueryInterfaceRequest<Base>, as type: T.Type, first: Bool
    ) throws -> [T] {
        guard first else { return try request.fetch(self, as: T.self) }
        return try request.fetchOne(self, as: T.self).map { [$0] } ?? []
    }

    @_spi(RecordEngine)
    public func countRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, exists: Bool) throws -> Int {
        exists ? (try request.exists(self) ? 1 : 0) : try request.count(self)
    }

    @_spi(RecordEngine)
    public func writeRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, assignments: [ColumnAssignment]?)
        throws -> Int
    {
        guard let assignments else { return try request.deleteAll(self) }
        return try request.updateAll(self, assignments)
    }
}
#endif
