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
