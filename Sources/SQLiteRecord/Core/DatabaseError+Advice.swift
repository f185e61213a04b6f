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

    /// ` (the busy timeout of 5 seconds ran out ...)`: what a `SQLITE_BUSY` message gets after SQLite's own.
    static func advice(for connection: OpaquePointer) -> String {
        lock.lock()
        let seconds = timeouts[key(connection)]
        lock.unlock()
        guard let seconds else { return "" }
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
        var pathIsDirectory: ObjCBool = false
        let fileExists = FileManager.default.fileExists(atPath: path, isDirectory: &pathIsDirectory)
        if fileExists && pathIsDirectory.boolValue {
            return appendingToMessage(
                " (\(path) is a folder, not a database file: give the path of a file inside it, such as "
                    + "\(URL(fileURLWithPath: path).appendingPathComponent("db.sqlite").path))")
        }
        // FileManager's checks are access(2): they answer for this process's user, so root passes them all.
        if fileExists && !FileManager.default.isReadableFile(atPath: path) {
            return appendingToMessage(
                " (permission denied: this process may not read the file \(path); change its owner or mode)")
        }
        if !fileExists && !FileManager.default.isWritableFile(atPath: folder) {
            return appendingToMessage(
                " (permission denied: this process may not create files in the folder \(folder); choose a folder "
                    + "it may write, such as the app's Application Support folder)")
        }
        return self
    }
}
