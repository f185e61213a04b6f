#if PostgreSQL
import Foundation
import SQLiteRecord

/// The calls of a record through a ``PostgresPool`` or a ``PostgresReplicaPool`` (any
/// ``PostgresDatabaseWriter``): each runs in a transaction of its own on one of the
/// pool's connections (a read-only one for reads), as the default-store calls do on SQLite. Through a replica
/// pool, writes run on the primary and reads on a replica, with no wait for the last write (for that, run
/// the connection's call in ``PostgresReplicaPool/read(after:isolation:_:)``).
extension Record where Self: Sendable {
    /// `insert(_:)` in a transaction of its own.
    /// - Throws: as `insert(_:)`.
    public mutating func insert(_ pool: some PostgresDatabaseWriter) async throws {
        let record = self
        self = try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            var copy = record
            try copy.insert(connection)
            return copy
        }
    }

    /// `save(_:)` in a transaction of its own: the record carries its new id after an
    /// insert.
    /// - Throws: as the connection's `save`.
    public mutating func save(_ pool: some PostgresDatabaseWriter) async throws {
        let record = self
        self = try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            var copy = record
            try copy.save(connection)
            return copy
        }
    }

    /// `upsert(_:)` in a transaction of its own: the record carries the id its row has afterwards.
    /// - Throws: as `upsert(_:)`.
    public mutating func upsert(_ pool: some PostgresDatabaseWriter) async throws {
        let record = self
        self = try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            var copy = record
            try copy.upsert(connection)
            return copy
        }
    }

    /// `update(_:)` in a transaction of its own.
    /// - Throws: as `update(_:)`.
    public func update(_ pool: some PostgresDatabaseWriter) async throws {
        let record = self
        try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in try record.update(connection) }
    }

    /// The connection's `delete` in a transaction of its own; false when no row had the key.
    /// - Throws: as the connection's `delete`.
    @discardableResult
    public func delete(_ pool: some PostgresDatabaseWriter) async throws -> Bool {
        let record = self
        return try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in try record.delete(connection) }
    }

    /// The record whose key is `id`, or nil, read in a read-only transaction.
    /// - Throws: as `fetchOne(_:id:)`.
    public static func fetchOne(_ pool: some PostgresDatabaseWriter, id: ID) async throws -> Self? {
        try await pool.read(isolation: nil) { connection in try fetchOne(connection, id: id) }
    }

    /// True when a row has `id` as its key, read in a read-only transaction.
    /// - Throws: as `exists(_:id:)`.
    public static func exists(_ pool: some PostgresDatabaseWriter, id: ID) async throws -> Bool {
        try await pool.read(isolation: nil) { connection in try exists(connection, id: id) }
    }

    /// The first record whose columns equal the given values, or nil, read in a read-only transaction.
    /// - Throws: as `fetch(_:where:orderBy:limit:offset:)`.
    public static func fetchOne(
        _ pool: some PostgresDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?],
        orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        try await pool.read(isolation: nil) { connection in
            try fetchOne(connection, where: conditions.mapValues { $0.map { $0 as any Encodable } }, orderBy: ordering)
        }
    }

    /// The records a query of your own returns, with `$1`, `$2`... bound to `arguments`, read in a
    /// read-only transaction.
    /// - Throws: as ``fetch(_:sql:arguments:)``.
    public static func fetch(
        _ pool: some PostgresDatabaseWriter, sql: String, arguments: [PostgresValue] = []
    ) async throws -> [Self] {
        try await pool.read(isolation: nil) { connection in try fetch(connection, sql: sql, arguments: arguments) }
    }

    /// The records whose columns equal the given values, sorted and paged as asked.
    /// - Throws: as `fetch(_:where:orderBy:limit:offset:)`.
    public static func fetch(
        _ pool: some PostgresDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?] = [:],
        orderBy ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil
    ) async throws -> [Self] {
        try await pool.read(isolation: nil) { connection in
            try fetch(
                connection, where: conditions.mapValues { $0.map { $0 as any Encodable } }, orderBy: ordering,
                limit: limit, offset: offset)
        }
    }

    /// The number of rows whose columns equal the given values.
    /// - Throws: as `count(_:where:)`.
    public static func count(
        _ pool: some PostgresDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?] = [:]
    ) async throws -> Int {
        try await pool.read(isolation: nil) { connection in
            try count(connection, where: conditions.mapValues { $0.map { $0 as any Encodable } })
        }
    }

    /// Deletes the rows whose columns equal the given values (all of them for an empty dictionary) in a
    /// transaction of its own, and returns how many.
    /// - Throws: as `deleteAll(_:where:)`; nothing is deleted then.
    @discardableResult
    public static func deleteAll(
        _ pool: some PostgresDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?] = [:]
    ) async throws -> Int {
        try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            try deleteAll(connection, where: conditions.mapValues { $0.map { $0 as any Encodable } })
        }
    }

    /// Saves every record in one transaction (see the connection's `save(_:_:)`): all or nothing, in the
    /// database and in memory; new records gain their ids.
    /// - Throws: the first error of a save; nothing stays written and the records keep the values they came
    ///   with.
    public static func save(_ pool: some PostgresDatabaseWriter, _ records: inout [Self]) async throws {
        let list = records
        records = try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            var copies = list
            try save(connection, &copies)
            return copies
        }
    }

    /// ``insertAll(_:_:)`` in a transaction of its own: one pipelined batch, all or nothing; new records gain
    /// their ids.
    /// - Throws: as ``insertAll(_:_:)``; nothing stays written and the records keep the values they came with.
    public static func insertAll(_ pool: some PostgresDatabaseWriter, _ records: inout [Self]) async throws {
        let list = records
        records = try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            var copies = list
            try insertAll(connection, &copies)
            return copies
        }
    }

    /// Saves the record and its children in one transaction (see the connection's `save(_:children:)`).
    /// - Throws: the first error of a save; nothing stays written and the values stay as they came.
    public mutating func save<Child: Record & Sendable>(_ pool: some PostgresDatabaseWriter, children: inout [Child]) async throws {
        let record = self
        let list = children
        let saved = try await pool.write(isolation: nil, retryingSerializationFailures: 0) { connection in
            var parent = record
            var copies = list
            try parent.save(connection, children: &copies)
            return (parent, copies)
        }
        self = saved.0
        children = saved.1
    }
}
#endif
