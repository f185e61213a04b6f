/// Through-association loads through the default queue (``RecordStore``), and their `async` twins, which run
/// on the queue's own dispatch queue while the task waits (for `Sendable` record types, since the records
/// cross back from the queue).
extension IncludingThroughRequest {
    /// ``fetch(_:as:)`` through the default queue: the three queries in one read.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch<T: Decodable>(as type: T.Type) throws -> [T] {
        try RecordStore.defaultQueue().read { db in try fetch(db, as: type) }
    }

    /// ``fetchGroups(_:)`` through the default queue: the three queries in one read.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchGroups() throws -> [(Base, [Target])] {
        try RecordStore.defaultQueue().read { db in try fetchGroups(db) }
    }
}

extension IncludingThroughRequest where Base: Sendable, Target: Sendable {
    /// ``fetch(as:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:as:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch<T: Decodable & Sendable>(as type: T.Type) async throws -> [T] {
        try await fetch(RecordStore.defaultQueue(), as: type)
    }

    /// ``fetchGroups()``, awaiting the queue.
    /// - Throws: as ``fetchGroups(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchGroups() async throws -> [(Base, [Target])] {
        try await fetchGroups(RecordStore.defaultQueue())
    }
}
