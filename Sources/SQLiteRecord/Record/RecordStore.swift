import Foundation

/// The default database that calls without a ``Database`` argument (`save()`, `fetch()`) use.
///
/// Set it once at launch with ``use(_:)``. Tests and code that manage several databases pass a `Database`
/// explicitly instead, and need no global state.
public enum RecordStore {
    // `current` is read and written only while `lock` is held.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: DatabaseQueue?

    /// Makes `queue` the default for every call that takes no database, replacing any earlier one.
    /// - Throws: ``DatabaseError`` when the database cannot be read (its schema is checked once here, so a
    ///   broken file is reported at set-up rather than at the first save).
    public static func use(_ queue: DatabaseQueue) throws {
        _ = try queue.read { db in try db.tableExists("sqlite_master") }
        lock.lock()
        current = queue
        lock.unlock()
    }

    /// The queue set by ``use(_:)``, or nil before it was called.
    public static var queue: DatabaseQueue? {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Forgets the default queue; later calls without a database throw ``RecordError/noDefaultStore``.
    public static func reset() {
        lock.lock()
        current = nil
        lock.unlock()
    }

    static func defaultQueue() throws -> DatabaseQueue {
        guard let queue else { throw RecordError.noDefaultStore }
        return queue
    }
}
