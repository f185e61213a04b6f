/// The `async` twins of the default-queue calls: the same work, run on the queue's own dispatch queue while
/// the task waits, so no thread of Swift's cooperative pool is blocked. Cancelling the task interrupts a
/// running statement (the call then throws `SQLITE_INTERRUPT`). They need a `Sendable` record type, since
/// the records cross back from the queue.
extension QueryInterfaceRequest where Base: Sendable {
    /// ``fetch()``, awaiting the queue.
    /// - Throws: as ``fetch(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch() async throws -> [Base] {
        try await fetch(RecordStore.defaultQueue())
    }

    /// ``fetchOne()``, awaiting the queue.
    /// - Throws: as ``fetchOne(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchOne() async throws -> Base? {
        try await fetchOne(RecordStore.defaultQueue())
    }

    /// ``fetch(as:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:as:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch<T: Decodable & Sendable>(as type: T.Type) async throws -> [T] {
        try await fetch(RecordStore.defaultQueue(), as: type)
    }

    /// ``fetchOne(as:)``, awaiting the queue.
    /// - Throws: as ``fetchOne(_:as:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchOne<T: Decodable & Sendable>(as type: T.Type) async throws -> T? {
        try await fetchOne(RecordStore.defaultQueue(), as: type)
    }

    /// ``count()``, awaiting the queue.
    /// - Throws: as ``count(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func count() async throws -> Int {
        try await count(RecordStore.defaultQueue())
    }

    /// ``exists()``, awaiting the queue.
    /// - Throws: as ``exists(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func exists() async throws -> Bool {
        try await exists(RecordStore.defaultQueue())
    }

    /// ``deleteAll()``, awaiting the queue.
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``deleteAll(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func deleteAll() async throws -> Int {
        try await deleteAll(RecordStore.defaultQueue())
    }

    /// ``updateAll(_:)``, awaiting the queue.
    /// - Returns: how many rows were updated.
    /// - Throws: as ``updateAll(_:_:)-(DatabaseConnection,[ColumnAssignment])``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public func updateAll(_ assignments: ColumnAssignment...) async throws -> Int {
        try await updateAll(RecordStore.defaultQueue(), assignments)
    }
}
