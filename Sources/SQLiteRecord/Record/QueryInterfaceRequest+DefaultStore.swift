/// Running a request through the default queue (``RecordStore``): each call reads with
/// ``DatabaseQueue/read(_:)-7l4om`` or writes with ``DatabaseQueue/write(_:)-3p679`` and its `Database` form.
extension QueryInterfaceRequest {
    /// ``fetch(_:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch() throws -> [Base] {
        try RecordStore.defaultQueue().read { db in try fetch(db) }
    }

    /// ``fetchOne(_:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchOne() throws -> Base? {
        try RecordStore.defaultQueue().read { db in try fetchOne(db) }
    }

    /// ``fetch(_:as:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch<T: Decodable>(as type: T.Type) throws -> [T] {
        try RecordStore.defaultQueue().read { db in try fetch(db, as: type) }
    }

    /// ``fetchOne(_:as:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchOne<T: Decodable>(as type: T.Type) throws -> T? {
        try RecordStore.defaultQueue().read { db in try fetchOne(db, as: type) }
    }

    /// ``count(_:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func count() throws -> Int {
        try RecordStore.defaultQueue().read { db in try count(db) }
    }

    /// ``exists(_:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func exists() throws -> Bool {
        try RecordStore.defaultQueue().read { db in try exists(db) }
    }

    /// ``deleteAll(_:)`` through the default queue, in a transaction of its own.
    /// - Returns: how many rows were deleted.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func deleteAll() throws -> Int {
        try RecordStore.defaultQueue().write { db in try deleteAll(db) }
    }

    /// ``updateAll(_:_:)-(DatabaseConnection,[ColumnAssignment])`` through the default queue, in a transaction of its own.
    /// - Returns: how many rows were updated.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func updateAll(_ assignments: ColumnAssignment...) throws -> Int {
        try RecordStore.defaultQueue().write { db in try updateAll(db, assignments) }
    }
}
