/// Joined fetches through the default queue (``RecordStore``), and their `async` twins, which run on the
/// queue's own dispatch queue while the task waits (for `Sendable` record types, since the records cross
/// back from the queue).
extension JoinedRequest {
    /// ``fetch(_:as:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch<T: Decodable>(as type: T.Type) throws -> [T] {
        try RecordStore.defaultQueue().read { db in try fetch(db, as: type) }
    }

    /// ``fetchPairs(_:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchPairs() throws -> [(Base, Associated?)] {
        try RecordStore.defaultQueue().read { db in try fetchPairs(db) }
    }
}

extension JoinedRequest where Base: Sendable, Associated: Sendable {
    /// ``fetch(as:)``, awaiting the queue.
    /// - Throws: as ``fetch(_:as:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetch<T: Decodable & Sendable>(as type: T.Type) async throws -> [T] {
        try await fetch(RecordStore.defaultQueue(), as: type)
    }

    /// ``fetchPairs()``, awaiting the queue.
    /// - Throws: as ``fetchPairs(_:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func fetchPairs() async throws -> [(Base, Associated?)] {
        try await fetchPairs(RecordStore.defaultQueue())
    }
}
