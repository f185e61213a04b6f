/// The Record calls through a database writer of any engine (``AsyncDatabaseWriter``: SQLite's
/// ``DatabaseQueue`` and ``DatabasePool``, PostgreSQL's pools): each runs in a transaction of its own, a
/// read-only one for reads, while the task waits; cancelling the task rolls it back. A mutating call changes
/// the record only when its transaction committed. Each throws what the connection's call of the same name
/// throws, and the writer's errors for BEGIN and COMMIT.
extension Record where Self: Sendable {
    /// ``insert(_:)`` in a transaction of its own: the record carries its new id after it.
    public mutating func insert(_ writer: some AsyncDatabaseWriter) async throws {
        let record = self
        self = try await writer.write { db in
            var copy = record
            try copy.insert(db)
            return copy
        }
    }

    /// ``insert(_:onConflict:)`` in a transaction of its own.
    /// - Returns: true when a row was inserted, false when `.ignore` skipped it.
    @discardableResult
    public mutating func insert(_ writer: some AsyncDatabaseWriter, onConflict conflict: ConflictResolution) async throws
        -> Bool
    {
        let record = self
        let (copy, inserted) = try await writer.write { db in
            var copy = record
            let inserted = try copy.insert(db, onConflict: conflict)
            return (copy, inserted)
        }
        self = copy
        return inserted
    }

    /// ``save(_:)`` in a transaction of its own: the record carries its new id after an insert.
    public mutating func save(_ writer: some AsyncDatabaseWriter) async throws {
        let record = self
        self = try await writer.write { db in
            var copy = record
            try copy.save(db)
            return copy
        }
    }

    /// ``upsert(_:onConflict:updating:)-method`` in a transaction of its own: the record carries the id its
    /// row has afterwards.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    @discardableResult
    public mutating func upsert(
        _ writer: some AsyncDatabaseWriter, onConflict conflictColumns: [String]? = nil,
        updating columns: [String]? = nil
    ) async throws -> UpsertOutcome {
        let record = self
        let (copy, outcome) = try await writer.write { db in
            var copy = record
            let outcome = try copy.upsert(db, onConflict: conflictColumns, updating: columns)
            return (copy, outcome)
        }
        self = copy
        return outcome
    }

    /// ``upsert(_:_:onConflict:updating:)`` in a transaction of its own: all or nothing.
    /// - Returns: each record's outcome, in order.
    @discardableResult
    public static func upsert(
        _ writer: some AsyncDatabaseWriter, _ records: inout [Self], onConflict conflictColumns: [String]? = nil,
        updating columns: [String]? = nil
    ) async throws -> [UpsertOutcome] {
        let original = records
        let (copies, outcomes) = try await writer.write { db in
            var copies = original
            let outcomes = try upsert(db, &copies, onConflict: conflictColumns, updating: columns)
            return (copies, outcomes)
        }
        records = copies
        return outcomes
    }

    /// ``insertAndFetch(_:columns:)`` in a transaction of its own: the record takes its id and the values the
    /// database set (`columns`, or every column for nil).
    public mutating func insertAndFetch(_ writer: some AsyncDatabaseWriter, columns: [String]? = nil) async throws {
        let record = self
        self = try await writer.write { db in
            var copy = record
            try copy.insertAndFetch(db, columns: columns)
            return copy
        }
    }

    /// ``upsertAndFetch(_:onConflict:updating:columns:)`` in a transaction of its own.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    @discardableResult
    public mutating func upsertAndFetch(
        _ writer: some AsyncDatabaseWriter, onConflict conflictColumns: [String]? = nil,
        updating updatedColumns: [String]? = nil, columns: [String]? = nil
    ) async throws -> UpsertOutcome {
        let record = self
        let (copy, outcome) = try await writer.write { db in
            var copy = record
            let outcome = try copy.upsertAndFetch(
                db, onConflict: conflictColumns, updating: updatedColumns, columns: columns)
            return (copy, outcome)
        }
        self = copy
        return outcome
    }

    /// ``updateAndFetch(_:columns:)`` in a transaction of its own.
    public mutating func updateAndFetch(_ writer: some AsyncDatabaseWriter, columns: [String]? = nil) async throws {
        let record = self
        self = try await writer.write { db in
            var copy = record
            try copy.updateAndFetch(db, columns: columns)
            return copy
        }
    }

    /// ``update(_:)`` in a transaction of its own.
    public func update(_ writer: some AsyncDatabaseWriter) async throws {
        let record = self
        try await writer.write { db in try record.update(db) }
    }

    /// ``update(_:columns:)`` in a transaction of its own.
    public func update(_ writer: some AsyncDatabaseWriter, columns: [String]) async throws {
        let record = self
        try await writer.write { db in try record.update(db, columns: columns) }
    }

    /// ``updateChanges(_:from:)`` in a transaction of its own.
    /// - Returns: true when an UPDATE ran, false when no stored value changed.
    @discardableResult
    public func updateChanges(_ writer: some AsyncDatabaseWriter, from original: Self) async throws -> Bool {
        let record = self
        return try await writer.write { db in try record.updateChanges(db, from: original) }
    }

    /// ``updateChanges(_:modify:)`` in a transaction of its own: `modify` runs here, before the write is
    /// sent to the writer, so it need not be `Sendable`.
    /// - Returns: true when an UPDATE ran, false when `modify` changed no stored value.
    /// - Throws: what `modify` throws, or as ``updateChanges(_:from:)``; the record is put back then.
    @discardableResult
    public mutating func updateChanges(
        _ writer: some AsyncDatabaseWriter, modify: (inout Self) throws -> Void
    ) async throws -> Bool {
        let original = self
        do {
            try modify(&self)
            return try await updateChanges(writer, from: original)
        } catch {
            self = original
            throw error
        }
    }

    /// ``delete(_:)`` in a transaction of its own.
    /// - Returns: true when a row was deleted, false when none had the key.
    @discardableResult
    public func delete(_ writer: some AsyncDatabaseWriter) async throws -> Bool {
        let record = self
        return try await writer.write { db in try record.delete(db) }
    }

    /// ``delete(_:id:)`` in a transaction of its own.
    /// - Returns: true when a row was deleted, false when none had the key.
    @discardableResult
    public static func delete(_ writer: some AsyncDatabaseWriter, id: ID) async throws -> Bool {
        try await writer.write { db in try delete(db, id: id) }
    }

    /// ``save(_:_:)`` in a transaction of its own: all or nothing, in the database and in memory; new
    /// records gain their ids.
    public static func save(_ writer: some AsyncDatabaseWriter, _ records: inout [Self]) async throws {
        let original = records
        records = try await writer.write { db in
            var copies = original
            try save(db, &copies)
            return copies
        }
    }

    /// ``insertAll(_:_:)`` in a transaction of its own: the engine's batch, all or nothing; new records gain
    /// their ids.
    public static func insertAll(_ writer: some AsyncDatabaseWriter, _ records: inout [Self]) async throws {
        let original = records
        records = try await writer.write { db in
            var copies = original
            try insertAll(db, &copies)
            return copies
        }
    }

    /// ``delete(_:_:)`` in a transaction of its own: all or nothing.
    /// - Returns: how many rows were deleted.
    @discardableResult
    public static func delete(_ writer: some AsyncDatabaseWriter, _ records: [Self]) async throws -> Int {
        try await writer.write { db in try delete(db, records) }
    }

    /// ``save(_:children:)`` in a transaction of its own: all or nothing, in the database and in memory.
    public mutating func save<Child: Record & Sendable>(
        _ writer: some AsyncDatabaseWriter, children: inout [Child]
    ) async throws {
        try await save(writer, children: &children, link: Self.declaredLink(to: Child.self))
    }

    /// ``save(_:children:for:)`` in a transaction of its own: all or nothing, in the database and in memory.
    public mutating func save<Child: Record & Sendable>(
        _ writer: some AsyncDatabaseWriter, children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) async throws {
        try await save(writer, children: &children, link: association.link)
    }

    /// The save of the two above: the writer's transaction is the call's own, so the save needs no savepoint.
    private mutating func save<Child: Record & Sendable>(
        _ writer: some AsyncDatabaseWriter, children: inout [Child], link: AssociationLink?
    ) async throws {
        let (parent, list) = (self, children)
        let saved = try await writer.write { db in
            var copy = parent
            var copies = list
            try copy.save(db, children: &copies, link: link, ownTransaction: true)
            return (copy, copies)
        }
        self = saved.0
        children = saved.1
    }

    /// ``delete(_:with:)`` in a transaction of its own: all or nothing.
    /// - Returns: true when this record's row was deleted.
    @discardableResult
    public func delete<Child: Record & Sendable>(_ writer: some AsyncDatabaseWriter, with children: [Child])
        async throws -> Bool
    {
        let record = self
        return try await writer.write { db in try record.delete(db, with: children) }
    }

    /// ``deleteAll(_:where:)`` in a transaction of its own (every row for no conditions).
    /// - Returns: how many rows were deleted.
    @discardableResult
    public static func deleteAll(
        _ writer: some AsyncDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?] = [:]
    ) async throws -> Int {
        try await writer.write { db in try deleteAll(db, where: conditions.mapValues { $0.map { $0 as any Encodable } }) }
    }

    /// ``fetchOne(_:id:)`` in a read-only transaction.
    public static func fetchOne(_ writer: some AsyncDatabaseWriter, id: ID) async throws -> Self? {
        try await writer.read { db in try fetchOne(db, id: id) }
    }

    /// ``exists(_:id:)`` in a read-only transaction.
    public static func exists(_ writer: some AsyncDatabaseWriter, id: ID) async throws -> Bool {
        try await writer.read { db in try exists(db, id: id) }
    }

    /// ``fetch(_:where:orderBy:limit:offset:)`` in a read-only transaction: the records whose columns equal
    /// the given values (nil matches NULL), sorted and paged as asked.
    public static func fetch(
        _ writer: some AsyncDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?] = [:],
        orderBy ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil
    ) async throws -> [Self] {
        try await writer.read { db in
            try fetch(
                db, where: conditions.mapValues { $0.map { $0 as any Encodable } }, orderBy: ordering, limit: limit,
                offset: offset)
        }
    }

    /// ``fetchOne(_:where:orderBy:)`` in a read-only transaction: the first record whose columns equal the
    /// given values, or nil.
    public static func fetchOne(
        _ writer: some AsyncDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?],
        orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        try await writer.read { db in
            try fetchOne(db, where: conditions.mapValues { $0.map { $0 as any Encodable } }, orderBy: ordering)
        }
    }

    /// ``count(_:where:)`` in a read-only transaction: the number of rows whose columns equal the given values.
    public static func count(
        _ writer: some AsyncDatabaseWriter, where conditions: [String: (any Encodable & Sendable)?] = [:]
    ) async throws -> Int {
        try await writer.read { db in try count(db, where: conditions.mapValues { $0.map { $0 as any Encodable } }) }
    }
}
