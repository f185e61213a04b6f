import Foundation

/// The default database that calls without a ``Database`` argument (`save()`, `fetch()`) use.
///
/// Set it once at launch with ``use(_:)``. Tests and code that manage several databases pass a `Database`
/// explicitly instead, and need no global state.
public enum RecordStore {
    /// The default queue or pool. Process-wide: it is the one default every call without a database uses,
    /// on any thread; `Locked` guards it.
    private static let current = Locked<(any DatabaseWriter)?>(nil)

    /// Makes `writer` (a ``DatabaseQueue`` or a ``DatabasePool``) the default for every call that takes no
    /// database, replacing any earlier one. Through a pool, fetches run beside the saves.
    /// - Throws: ``DatabaseError`` when the database cannot be read (its schema is checked once here, so a
    ///   broken file is reported at set-up rather than at the first save).
    public static func use(_ writer: any DatabaseWriter) throws {
        _ = try writer.read { db in try db.tableExists("sqlite_master") }
        current.withLock { $0 = writer }
    }

    /// Opens (creating when needed) the database at `path` and makes it the default.
    /// - Returns: the queue, for calls that take a `Database` (`queue.write { db in ... }`).
    /// - Throws: ``DatabaseError`` when the file cannot be opened or is not a database.
    @discardableResult
    public static func open(path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        try use(queue)
        return queue
    }

    /// Opens the database at `destination`, first copying `template` there when no file is there yet, and
    /// makes it the default: the way to ship a pre-created database with an app (a bundle resource is
    /// read-only) and write to a copy of it. An existing file at `destination` is never overwritten, so
    /// later launches keep their data.
    ///
    /// The copy goes to a temporary name beside `destination` and is then moved into place, so a crash
    /// mid-copy never leaves a half-copied database where the next launch would open it.
    /// - Returns: the queue, for calls that take a `Database`.
    /// - Throws: Foundation's file error when the template cannot be read or the folder is not writable;
    ///   ``DatabaseError`` when the file cannot be opened or is not a database.
    @discardableResult
    public static func open(copyingTemplate template: URL, to destination: URL) throws -> DatabaseQueue {
        let fileManager = FileManager.default
        if !fileManager.fileExists(atPath: destination.path) {
            let folder = destination.deletingLastPathComponent()
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            let partial = folder.appendingPathComponent(
                ".\(destination.lastPathComponent).\(UUID().uuidString).partial")
            let sidecars = ["-wal", "-shm", "-journal"]
            func removePartial() {
                for suffix in [""] + sidecars { try? fileManager.removeItem(atPath: partial.path + suffix) }
            }
            do {
                try fileManager.copyItem(at: template, to: partial)
                // A WAL-mode template keeps committed pages in its -wal file until a checkpoint: copy it too.
                if fileManager.fileExists(atPath: template.path + "-wal") {
                    try fileManager.copyItem(atPath: template.path + "-wal", toPath: partial.path + "-wal")
                }
                try checkAndCheckpoint(partial)
                for suffix in sidecars { try? fileManager.removeItem(atPath: partial.path + suffix) }
            } catch {
                // A template that is not a database never reaches the destination, so a later launch with a
                // good template still gets its copy.
                removePartial()
                throw error
            }
            do {
                try fileManager.moveItem(at: partial, to: destination)
            } catch {
                removePartial()
                // Another process may have put its copy in place first: that one is as good as ours.
                guard fileManager.fileExists(atPath: destination.path) else { throw error }
            }
        }
        return try open(path: destination.path)
    }

    /// Opens the copy at `url`, checks it (`PRAGMA quick_check`), and folds a copied -wal file into the
    /// database file, so the copy stands alone.
    /// - Throws: ``DatabaseError`` when the copy is not a sound database.
    private static func checkAndCheckpoint(_ url: URL) throws {
        let db = try Database(path: url.path, options: Database.Options(createIfMissing: false))
        let verdict = try db.scalar(String.self, sql: "PRAGMA quick_check") ?? ""
        guard verdict == "ok" else {
            throw DatabaseError(
                resultCode: .corrupt, message: "the template database fails its check: \(verdict)",
                sql: "PRAGMA quick_check")
        }
        try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The queue set by ``use(_:)``, or nil before it was called or when the default is a ``DatabasePool``.
    public static var queue: DatabaseQueue? {
        writer as? DatabaseQueue
    }

    /// The queue or pool set by ``use(_:)``, or nil before it was called.
    public static var writer: (any DatabaseWriter)? {
        current.withLock { $0 }
    }

    /// Forgets the default queue or pool; later calls without a database throw ``RecordError/noDefaultStore``.
    public static func reset() {
        current.withLock { $0 = nil }
    }

    /// The default queue or pool.
    /// - Throws: ``RecordError/noDefaultStore`` before ``use(_:)``.
    static func defaultQueue() throws -> any DatabaseWriter {
        guard let writer else { throw RecordError.noDefaultStore }
        return writer
    }
}
