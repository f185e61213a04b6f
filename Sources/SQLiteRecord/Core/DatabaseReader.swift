/// Thread-safe access to a database for reading: what ``DatabaseQueue`` and ``DatabasePool`` have in common,
/// so that a function can take either.
///
/// ```swift
/// func cityCount(in reader: some DatabaseReader) throws -> Int {
///     try reader.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? 0 }
/// }
/// ```
///
/// A `read` reads one snapshot: every statement in its closure sees the same committed state of the
/// database, and a statement that would write fails with `SQLITE_READONLY`. On a queue, reads and writes
/// take turns on one connection; on a pool, reads run beside each other and beside the write, each on a
/// connection of its own. The names are GRDB's. See <https://www.sqlite.org/isolation.html>.
public protocol DatabaseReader: AnyObject, Sendable {
    /// The database file's path (`":memory:"` for a queue's in-memory database).
    var path: String { get }

    /// Runs `body` with a connection in one read-only snapshot, blocking the calling thread until it is
    /// done, and returns its result.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` for a write inside it, from
    ///   BEGIN or COMMIT, or with `SQLITE_MISUSE` when called from inside another `read` or `write` of the
    ///   same queue or pool (use the `Database` the outer closure has instead).
    func read<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` with a connection in one read-only snapshot, suspending the calling task (not a thread)
    /// until it is done; cancelling the task interrupts the statement running for it.
    /// - Throws: what `body` throws; ``DatabaseError`` with `SQLITE_READONLY` for a write inside it, or
    ///   `SQLITE_INTERRUPT` when the task was cancelled while a statement ran; `CancellationError` when it was
    ///   cancelled before `body` started.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Interrupts the statements running now on the reader's connections: they fail with `SQLITE_INTERRUPT`,
    /// and a write they belong to rolls back. Safe from any thread. The corresponding SQLite call is
    /// `sqlite3_interrupt`; see <https://www.sqlite.org/c3ref/interrupt.html>.
    func interrupt()
}
