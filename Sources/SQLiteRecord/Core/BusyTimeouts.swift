import CSQLiteRecord
import Foundation

/// The busy timeout of each open connection, by handle: SQLite has no call that reads it back, and a
/// "database is locked" error should say which timeout ran out. Written when a connection is set up and
/// forgotten when it closes; read only when an error is made.
enum BusyTimeouts {
    /// Process-wide because an error is made from a bare `sqlite3 *` handle (``DatabaseError``'s
    /// initializer), where no `Database` is at hand to ask.
    private static let timeouts = Locked<[UInt: TimeInterval]>([:])

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    static func remember(_ seconds: TimeInterval, for connection: OpaquePointer) {
        timeouts.withLock { $0[key(connection)] = seconds }
    }

    static func forget(_ connection: OpaquePointer) {
        timeouts.withLock { $0[key(connection)] = nil }
    }

    /// ` (another connection holds a lock ...)`: what a `SQLITE_BUSY` message gets after SQLite's own. It
    /// claims no wait: SQLite's busy handler waits up to the timeout, but is not called where waiting could
    /// deadlock (see <https://www.sqlite.org/c3ref/busy_handler.html>), so the error alone does not say which
    /// happened. The statements of an open measure their wait (see `Database.retryingWhileLocked`).
    static func advice(for connection: OpaquePointer) -> String {
        guard let seconds = timeouts.withLock({ $0[key(connection)] }) else { return "" }
        let amount = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
        return " (another connection holds a lock on the file that this statement needs; SQLite waits for it up "
            + "to this connection's busy timeout of \(amount) second\(seconds == 1 ? "" : "s"), and fails at once "
            + "where waiting could deadlock, as when a transaction that has read asks to write; raise "
            + "Database.Options.busyTimeout, begin transactions that write IMMEDIATE, or keep other connections' "
            + "write transactions short)"
    }
}
