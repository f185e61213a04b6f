import Foundation
import SQLiteRecord

/// A test-support process for FilePermissionTests, which runs it as a user other than root (root passes
/// every permission check): opens a database through the library as a user would, and prints what happened.
///
/// ```
/// SQLiteRecordFileProbe DB_PATH read|write [--read-only] [--immutable] [--pool]
/// ```
///
/// `read` opens a DatabaseQueue (a DatabasePool with `--pool`) and counts the rows of table `t`; `write` also inserts one row in a write
/// first. It prints `rows N` (exit status 0), or `error ` and the thrown error's description (exit status 1);
/// 2 for bad arguments.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let action = arguments.dropFirst().first, action == "read" || action == "write",
    let path = arguments.first
else {
    FileHandle.standardError.write(
        Data("usage: SQLiteRecordFileProbe DB_PATH read|write [--read-only] [--immutable] [--pool]\n".utf8))
    exit(2)
}
let options = Database.Options(
    readOnly: arguments.contains("--read-only"), immutable: arguments.contains("--immutable"))
do {
    let queue: any DatabaseWriter =
        arguments.contains("--pool")
        ? try DatabasePool(path: path, options: options) : try DatabaseQueue(path: path, options: options)
    if action == "write" {
        try queue.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES ('from the probe')") }
    }
    let rows = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }
    print("rows \(rows ?? 0)")
} catch {
    print("error \(error)")
    exit(1)
}
