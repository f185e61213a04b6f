import Foundation

/// Where an app keeps its database when the user does not choose a file: the platform's
/// application-support directory.
extension RecordStore {
    /// The folder `folderName` inside the user's application-support directory, created (with any missing
    /// parents) when it does not exist yet: the place for an app's own data files, such as its database.
    ///
    /// The application-support directory is `~/Library/Application Support` on macOS (inside the app's
    /// container when it is sandboxed) and the app's `Library/Application Support` on iOS, as
    /// `FileManager` gives it; on Linux and other Unix systems it is `$XDG_DATA_HOME`, or
    /// `$HOME/.local/share` when that variable is unset, empty or not an absolute path (the XDG Base
    /// Directory Specification ignores relative paths). Folders created on Linux are private to the user
    /// (mode 0700), as that specification asks. See
    /// <https://specifications.freedesktop.org/basedir-spec/latest/>.
    ///
    /// ```swift
    /// let folder = try RecordStore.applicationSupportDirectory(appending: "com.example.Notes")
    /// // Linux: ~/.local/share/com.example.Notes; macOS: ~/Library/Application Support/com.example.Notes
    /// ```
    /// - Parameters:
    ///   - folderName: the app's own folder: one path component such as its name or bundle identifier
    ///     (macOS shares Application Support between every app of a non-sandboxed user).
    ///   - environment: the variables to read `XDG_DATA_HOME` and `HOME` from; the process's by default.
    ///     Apple platforms ignore it.
    /// - Returns: the folder's file URL.
    /// - Throws: `CocoaError(.fileWriteInvalidFileName)` when `folderName` is empty, `.` or `..`, or holds a
    ///   `/`; Foundation's file error when the folder cannot be created.
    public static func applicationSupportDirectory(
        appending folderName: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL {
        try checkPathComponent(folderName)
        let folder = try applicationSupportBase(environment: environment)
            .appendingPathComponent(folderName, isDirectory: true)
        #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #else
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #endif
        return folder
    }

    /// Opens (creating when needed) the database file `name` in the app's folder `folderName` of the
    /// application-support directory, and makes it the default store: the one call an app needs when it
    /// keeps a single database of its own.
    ///
    /// ```swift
    /// try RecordStore.open(name: "notes.sqlite", folder: "com.example.Notes")
    /// var note = Note(id: nil, date: Date(), content: "Hello")
    /// try note.save()
    /// ```
    /// - Parameters:
    ///   - name: the database's file name, one path component (`notes.sqlite`).
    ///   - folderName: the app's folder, as in ``applicationSupportDirectory(appending:environment:)``.
    ///   - environment: as in ``applicationSupportDirectory(appending:environment:)``.
    /// - Returns: the queue, for calls that take a `Database` (`queue.write { db in ... }`); its
    ///   ``DatabaseQueue/path`` says where the file is.
    /// - Throws: `CocoaError(.fileWriteInvalidFileName)` for a `name` or `folderName` that is not one path
    ///   component; Foundation's file error when the folder cannot be created; ``DatabaseError`` when the
    ///   file cannot be opened or is not a database.
    @discardableResult
    public static func open(
        name: String, folder folderName: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> DatabaseQueue {
        try checkPathComponent(name)
        let folder = try applicationSupportDirectory(appending: folderName, environment: environment)
        return try open(path: folder.appendingPathComponent(name, isDirectory: false).path)
    }

    /// The platform's application-support directory itself, not created here.
    private static func applicationSupportBase(environment: [String: String]) throws -> URL {
        #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
            if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
                return URL(fileURLWithPath: dataHome, isDirectory: true)
            }
            let home: URL
            if let value = environment["HOME"], value.hasPrefix("/") {
                home = URL(fileURLWithPath: value, isDirectory: true)
            } else {
                home = FileManager.default.homeDirectoryForCurrentUser
            }
            return home.appendingPathComponent(".local", isDirectory: true)
                .appendingPathComponent("share", isDirectory: true)
        #else
            return try FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        #endif
    }

    /// Refuses a name that would leave the folder it is meant for, or name the folder itself.
    private static func checkPathComponent(_ name: String) throws {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw CocoaError(
                .fileWriteInvalidFileName,
                userInfo: [
                    NSFilePathErrorKey: name,
                    NSLocalizedDescriptionKey:
                        "\"\(name)\" is not a file or folder name: it must be one path component, without \"/\"",
                ])
        }
    }
}
