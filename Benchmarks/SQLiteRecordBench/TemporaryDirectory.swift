import Foundation

/// A fresh directory under the system's temporary directory, for one side's database in one repetition,
/// so no run reads pages another left in a file.
struct TemporaryDirectory {
    let url: URL

    /// Creates the directory.
    /// - Throws: Foundation's error when it cannot be created.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sqlite-record-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of the database file inside the directory.
    var databasePath: String { url.appendingPathComponent("cities.sqlite").path }

    /// Deletes the directory and everything in it; a failure only leaves files in the temporary directory.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
