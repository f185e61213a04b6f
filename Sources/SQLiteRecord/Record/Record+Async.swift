/// The `async` twins of the calls through the default queue (``RecordStore``): the same work, run on the
/// queue's own dispatch queue while the task waits, so no thread of Swift's cooperative pool is blocked.
/// Cancelling the task interrupts a running statement (the call then throws `SQLITE_INTERRUPT`).
///
/// They need `Sendable` records, since the record crosses to the queue and back. A mutating call changes
/// the record only when it succeeds.
extension Record where Self: Sendable {
    /// ``save()``, awaiting the queue.
    /// - Throws: as ``save(_:)-method``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save() async throws { try await save(RecordStore.defaultQueue()) }

    /// ``insert()``, awaiting the queue.
    /// - Throws: as ``insert(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func insert() async throws { try await insert(RecordStore.defaultQueue()) }

    /// ``update()``, awaiting the queue.
    /// - Throws: as ``update(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func update() async throws { try await update(RecordStore.defaultQueue()) }

    /// ``delete()``, awaiting the queue.
    /// - Returns: true when a row was deleted.
    /// - Throws: as ``delete(_:)-method``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func delete() async throws -> Bool { try await delete(RecordStore.defaultQueue()) }

    /// ``save(children:)``, awaiting the queue. The parent and children change only when it succeeds.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record & Sendable>(children: inout [Child]) async throws {
        try await save(RecordStore.defaultQueue(), children: &children)
    }

    /// ``save(children:for:)``, awaiting the queue. The parent and children change only when it succeeds.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record & Sendable>(
        children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) async throws {
        try await save(RecordStore.defaultQueue(), children: &children, for: association)
    }

    /// ``delete(with:)``, awaiting the queue.
    /// - Returns: true when this record's row was deleted.
    /// - Throws: as ``delete(_:with:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func delete<Child: Record & Sendable>(with children: [Child]) async throws -> Bool {
        try await delete(RecordStore.defaultQueue(), with: children)
    }

    /// ``save(_:)-7x1fl``, awaiting the queue. The records change only when it succeeds.
    /// - Throws: as ``save(_:_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func save(_ records: inout [Self]) async throws {
        try await save(RecordStore.defaultQueue(), &records)
    }

    /// ``delete(_:)-3gs8e``, awaiting the queue.
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``delete(_:_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func delete(_ records: [Self]) async throws -> Int {
        try await delete(RecordStore.defaultQueue(), records)
    }
}

/// The `async` twins of counts and deletes by condition.
extension Record where Self: Sendable {
    /// ``deleteAll(where:)``, awaiting the queue.
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``deleteAll(_:where:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func deleteAll(where conditions: [String: (any SQLiteValueConvertible)?] = [:]) async throws -> Int {
        let values = sendable(conditions)
        return try await RecordStore.defaultQueue().write { db in try deleteAll(db, where: unsendable(values)) }
    }

    /// ``deleteAll(where:arguments:)``, awaiting the queue.
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``deleteAll(_:where:arguments:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public static func deleteAll(where sql: String, arguments: StatementArguments = []) async throws -> Int {
        try await RecordStore.defaultQueue().write { db in try deleteAll(db, where: sql, arguments: arguments) }
    }

    /// ``count(where:)``, awaiting the queue.
    /// - Throws: as ``count(_:where:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func count(where conditions: [String: (any SQLiteValueConvertible)?] = [:]) async throws -> Int {
        let values = sendable(conditions)
        return try await RecordStore.defaultQueue().read { db in try count(db, where: unsendable(values)) }
    }

    /// ``count(where:arguments:)``, awaiting the queue.
    /// - Throws: as ``count(_:where:arguments:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func count(where sql: String, arguments: StatementArguments = []) async throws -> Int {
        try await RecordStore.defaultQueue().read { db in try count(db, where: sql, arguments: arguments) }
    }

    /// ``exists(id:)``, awaiting the queue.
    /// - Throws: as ``exists(_:id:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func exists(id: ID) async throws -> Bool {
        try await exists(RecordStore.defaultQueue(), id: id)
    }

    /// The conditions as values that can cross to the queue.
    static func sendable(_ conditions: [String: (any SQLiteValueConvertible)?]) -> [String: SQLiteValue] {
        conditions.mapValues { $0?.sqliteValue ?? .null }
    }

    /// Converted values back in the form the `Database` calls take.
    static func unsendable(_ values: [String: SQLiteValue]) -> [String: (any SQLiteValueConvertible)?] {
        values.mapValues { $0 }
    }
}

extension Record where Self: Sendable {
    /// ``fetch(where:orderBy:limit:offset:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:where:orderBy:limit:offset:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func fetch(
        where conditions: [String: (any SQLiteValueConvertible)?] = [:], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) async throws -> [Self] {
        let values = sendable(conditions)
        return try await RecordStore.defaultQueue().read { db in
            try fetch(db, where: unsendable(values), orderBy: ordering, limit: limit, offset: offset)
        }
    }

    /// ``fetch(where:arguments:orderBy:limit:offset:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:where:arguments:orderBy:limit:offset:)``, and ``RecordError/noDefaultStore``
    ///   before ``RecordStore/use(_:)``.
    public static func fetch(
        where sql: String, arguments: StatementArguments = [], orderBy ordering: [Ordering] = [], limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [Self] {
        try await RecordStore.defaultQueue().read { db in
            try fetch(db, where: sql, arguments: arguments, orderBy: ordering, limit: limit, offset: offset)
        }
    }

    /// ``fetchOne(where:orderBy:)``, awaiting the queue.
    /// - Throws: as ``fetchOne(_:where:orderBy:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func fetchOne(
        where conditions: [String: (any SQLiteValueConvertible)?], orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        let values = sendable(conditions)
        return try await RecordStore.defaultQueue().read { db in
            try fetchOne(db, where: unsendable(values), orderBy: ordering)
        }
    }

    /// ``fetchOne(where:arguments:orderBy:)``, awaiting the queue.
    /// - Throws: as ``fetchOne(_:where:arguments:orderBy:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func fetchOne(
        where sql: String, arguments: StatementArguments = [], orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        try await RecordStore.defaultQueue().read { db in
            try fetchOne(db, where: sql, arguments: arguments, orderBy: ordering)
        }
    }

    /// ``fetchOne(id:)``, awaiting the queue.
    /// - Throws: as ``fetchOne(_:id:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne(id: ID) async throws -> Self? {
        try await fetchOne(RecordStore.defaultQueue(), id: id)
    }

    /// ``fetch(ids:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:ids:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch(ids: [ID]) async throws -> [Self] {
        try await RecordStore.defaultQueue().read { db in try fetch(db, ids: ids) }
    }

    /// ``delete(id:)``, awaiting the queue.
    /// - Throws: as ``delete(_:id:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func delete(id: ID) async throws -> Bool {
        try await delete(RecordStore.defaultQueue(), id: id)
    }

    /// ``fetch(sql:arguments:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:sql:arguments:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func fetch(sql: String, arguments: StatementArguments = []) async throws -> [Self] {
        try await fetch(RecordStore.defaultQueue(), sql: sql, arguments: arguments)
    }

    /// ``fetch(_:sql:arguments:)`` in a read-only transaction of a SQLite queue or pool, as PostgreSQL's pools
    /// take the same call with `$1`-numbered arguments.
    /// - Throws: as ``fetch(_:sql:arguments:)``.
    public static func fetch(
        _ writer: some AsyncDatabaseWriter<Database>, sql: String, arguments: StatementArguments = []
    ) async throws -> [Self] {
        try await writer.read { db in try fetch(db, sql: sql, arguments: arguments) }
    }
}
