extension Record {
    /// Saves this record, then each child after calling its ``Record/bind(to:)`` with this record (which
    /// has its id by then), all in one transaction.
    ///
    /// All or nothing, in the database and in memory: when any save fails, every row is rolled back and
    /// this record and `children` are put back exactly as they were before the call (no id is left on a
    /// record whose row was rolled back). Called inside a transaction of the caller's (in
    /// ``DatabaseQueue/write(_:)-3p679``), the call runs in a savepoint and that guarantee covers the savepoint: a
    /// caller who later rolls back its own transaction owns the records it passed in, whose ids then name
    /// rows that no longer exist.
    /// - Throws: the first error a save throws (``DatabaseError`` for a violated constraint,
    ///   ``RecordError/recordNotFound(table:id:)`` for an update whose row is gone), after the rollback.
    public mutating func save<Child: Record>(_ db: Database, children: inout [Child]) throws {
        let original = self
        let originalChildren = children
        do {
            try db.transaction(.immediate) {
                try save(db)
                for index in children.indices {
                    children[index].bind(to: self)
                    try children[index].save(db)
                }
            }
        } catch {
            self = original
            children = originalChildren
            throw error
        }
    }

    /// ``save(_:children:)`` through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record>(children: inout [Child]) throws {
        let queue = try RecordStore.defaultQueue()
        // save(_:children:) restores the records when it throws; this restores them when the COMMIT after it
        // fails.
        let original = self
        let originalChildren = children
        do {
            try queue.write { db in try save(db, children: &children) }
        } catch {
            self = original
            children = originalChildren
            throw error
        }
    }

    /// Deletes each child's row, then this record's, in one transaction: all or nothing. Children go first
    /// so that their foreign keys never point at a deleted parent.
    /// - Returns: true when this record's row was deleted.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` for a record with no id, what a ``willDelete(_:)``
    ///   throws, or ``DatabaseError`` (another row still references one of them); nothing is deleted then.
    @discardableResult
    public func delete<Child: Record>(_ db: Database, with children: [Child]) throws -> Bool {
        try db.transaction(.immediate) {
            for child in children { try child.delete(db) }
            return try delete(db)
        }
    }

    /// ``delete(_:with:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``delete(_:with:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func delete<Child: Record>(with children: [Child]) throws -> Bool {
        try RecordStore.defaultQueue().write { db in try delete(db, with: children) }
    }
}
