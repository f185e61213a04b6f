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

    /// ` (the busy timeout of 5 seconds ran out ...)`: what a `SQLITE_BUSY` message gets after SQLite's own.
    static func advice(for connection: OpaquePointer) -> String {
        guard let seconds = timeouts.withLock({ $0[key(connection)] }) else { return "" }
        let amount = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
        return " (another connection held the lock longer than this connection's busy timeout of \(amount) "
            + "second\(seconds == 1 ? "" : "s"); raise Database.Options.busyTimeout, or keep other connections' "
            + "write transactions short)"
    }
}
