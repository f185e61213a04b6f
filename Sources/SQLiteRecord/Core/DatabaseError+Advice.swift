import CSQLiteRecord
import Foundation

extension DatabaseError {
    /// The same error with `suffix` after its message.
    func appendingToMessage(_ suffix: String) -> DatabaseError {
        DatabaseError(
            resultCode: resultCode, message: message + suffix, sql: sql, arguments: arguments,
            includesArgumentsInDescription: includesArgumentsInDescription)
    }

    /// A failure to open `path`, with what is wrong at the path when SQLite's message does not say: a folder
    /// that is missing or is a file (SQLite's own message is only "unable to open database file"), or a file
    /// or folder this process may not read or write (``fileAccessAdvice(path:resultCode:)``).
    func explainingOpenFailure(path: String) -> DatabaseError {
        if let explained = explainingOpenedFile(path: path) { return explained }
        guard resultCode.primary == .cannotOpen || resultCode.primary == .readOnly, path != ":memory:",
            !path.isEmpty, !path.hasPrefix("file:")
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
        // A folder at `path` is explained by `explainingOpenedFile(path:)` above. An error from a statement
        // of the open already carries the advice (DatabaseError's init adds it when the connection knows
        // its file); one from sqlite3_open_v2 does not. The statement is the library's own: left out.
        guard let advice = Self.fileAccessAdvice(path: path, resultCode: resultCode) else { return self }
        return DatabaseError(
            resultCode: resultCode, message: message.hasSuffix(advice) ? message : message + advice, sql: nil,
            arguments: nil, includesArgumentsInDescription: includesArgumentsInDescription)
    }
}
