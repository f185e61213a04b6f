import CSQLiteRecord
import Foundation

/// The busy timeout of each open connection, by handle: SQLite has no call that reads it back, and a
/// "database is locked" error should say which timeout ran out. Written when a connection is set up and
/// forgotten when it closes; read only when an error is made.
enum BusyTimeouts {
    // `timeouts` is read and written only while `lock` is held.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var timeouts: [UInt: TimeInterval] = [:]

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    static func remember(_ seconds: TimeInterval, for connection: OpaquePointer) {
        lock.lock()
        timeouts[key(connection)] = seconds
        lock.unlock()
    }

    static func forget(_ connection: OpaquePointer) {
        lock.lock()
        timeouts[key(connection)] = nil
        lock.unlock()
    }

    /// ` (another connection holds a lock ...)`: what a `SQLITE_BUSY` message gets after SQLite's own. It
    /// claims no wait: SQLite's busy handler waits up to the timeout, but is not called where waiting could
    /// deadlock (see <https://www.sqlite.org/c3ref/busy_handler.html>), so the error alone does not say which
    /// happened. The statements of an open measure their wait (see `Database.retryingWhileLocked`).
    static func advice(for connection: OpaquePointer) -> String {
        lock.lock()
        let seconds = timeouts[key(connection)]
        lock.unlock()
        guard let seconds else { return "" }
        let amount = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
        return " (another connection holds a lock on the file that this statement needs; SQLite waits for it up "
            + "to this connection's busy timeout of \(amount) second\(seconds == 1 ? "" : "s"), and fails at once "
            + "where waiting could deadlock, as when a transaction that has read asks to write; raise "
            + "Database.Options.busyTimeout, begin transactions that write IMMEDIATE, or keep other connections' "
            + "write transactions short)"
    }
}

extension DatabaseError {
    /// The same error with `suffix` after its message.
    func appendingToMessage(_ suffix: String) -> DatabaseError {
        DatabaseError(
            resultCode: resultCode, message: message + suffix, sql: sql, arguments: arguments,
            includesArgumentsInDescription: includesArgumentsInDescription)
    }

    /// A failure to open `path`, with the folder named when it is what is missing: SQLite's own message is
    /// only "unable to open database file".
    func explainingOpenFailure(path: String) -> DatabaseError {
        if let explained = explainingOpenedFile(path: path) { return explained }
        guard resultCode.primary == .cannotOpen, path != ":memory:", !path.isEmpty, !path.hasPrefix("file:")
        else { return self }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
        if !exists {
            return appendingToMessage(
                " (the folder \(folder) does not exist: SQLite creates the file, not its folder; create it first, "
                    + "with FileManager.createDirectory(atPath:withIntermediateDirectories:), or open the database "
                    + "with RecordStore.open(name:folder:), which does)")
        }
        if !isDirectory.boolValue { return appendingToMessage(" (\(folder) is a file, not a folder)") }
        return self
    }
}
