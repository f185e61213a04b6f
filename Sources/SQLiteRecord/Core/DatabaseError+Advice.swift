import CSQLiteRecord
import Foundation

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
