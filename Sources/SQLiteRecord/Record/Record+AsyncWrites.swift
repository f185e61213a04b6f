/// The `async` twins of upserts, inserts that ignore conflicts, writes that read back (RETURNING) and partial
/// updates: the same work on the default queue (``RecordStore``) while the task waits. A mutating call
/// changes the record only when it succeeds.
extension Record where Self: Sendable {
    /// ``insert(onConflict:)``, awaiting the queue.
    /// - Returns: true when a row was inserted, false when the insert was skipped.
    /// - Throws: as ``insert(_:onConflict:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func insert(onConflict conflict: ConflictResolution) async throws -> Bool {
        try await insert(RecordStore.defaultQueue(), onConflict: conflict)
    }

    /// ``upsert(onConflict:updating:)``, awaiting the queue.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsert(_:onConflict:updating:)-method``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func upsert(
        onConflict conflictColumns: [String]? = nil, updating columns: [String]? = nil
    ) async throws -> UpsertOutcome {
        try await upsert(RecordStore.defaultQueue(), onConflict: conflictColumns, updating: columns)
    }

    /// ``upsert(_:onConflict:updating:)-9mnyw``, awaiting the queue. The records change only when
    /// it succeeds.
    /// - Returns: each record's outcome, in order.
    /// - Throws: as ``upsert(_:_:onConflict:updating:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public static func upsert(
        _ records: inout [Self], onConflict conflictColumns: [String]? = nil, updating columns: [String]? = nil
    ) async throws -> [UpsertOutcome] {
        try await upsert(RecordStore.defaultQueue(), &records, onConflict: conflictColumns, updating: columns)
    }

    /// ``insertAndFetch(columns:)``, awaiting the queue.
    /// - Throws: as ``insertAndFetch(_:columns:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public mutating func insertAndFetch(columns: [String]? = nil) async throws {
        try await insertAndFetch(RecordStore.defaultQueue(), columns: columns)
    }

    /// ``upsertAndFetch(onConflict:updating:columns:)``, awaiting the queue.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsertAndFetch(_:onConflict:updating:columns:)``, and ``RecordError/noDefaultStore``
    ///   before ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func upsertAndFetch(
        onConflict conflictColumns: [String]? = nil, updating updatedColumns: [String]? = nil,
        columns: [String]? = nil
    ) async throws -> UpsertOutcome {
        try await upsertAndFetch(
            RecordStore.defaultQueue(), onConflict: conflictColumns, updating: updatedColumns, columns: columns)
    }

    /// ``updateAndFetch(columns:)``, awaiting the queue.
    /// - Throws: as ``updateAndFetch(_:columns:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public mutating func updateAndFetch(columns: [String]? = nil) async throws {
        try await updateAndFetch(RecordStore.defaultQueue(), columns: columns)
    }

    /// ``update(columns:)``, awaiting the queue.
    /// - Throws: as ``update(_:columns:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func update(columns: [String]) async throws {
        try await update(RecordStore.defaultQueue(), columns: columns)
    }

    /// ``updateChanges(from:)``, awaiting the queue.
    /// - Returns: true when an UPDATE ran, false when nothing changed.
    /// - Throws: as ``updateChanges(_:from:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func updateChanges(from original: Self) async throws -> Bool {
        try await updateChanges(RecordStore.defaultQueue(), from: original)
    }

    /// ``updateChanges(modify:)``, awaiting the queue: `modify` runs here, before the write is sent to the
    /// queue, so it need not be `Sendable`.
    /// - Returns: true when an UPDATE ran, false when `modify` changed no stored value.
    /// - Throws: what `modify` throws; as ``updateChanges(_:from:)``, and ``RecordError/noDefaultStore``
    ///   before ``RecordStore/use(_:)``. The record is put back when it throws.
    @discardableResult
    public mutating func updateChanges(modify: (inout Self) throws -> Void) async throws -> Bool {
        try await updateChanges(RecordStore.defaultQueue(), modify: modify)
    }
}
