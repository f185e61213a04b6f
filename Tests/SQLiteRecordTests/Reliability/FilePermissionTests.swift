import Foundation
import SQLiteRecord
import XCTest

/// Files and folders a user may not read or write, met as a user without root meets them: each case opens
/// the database through the library in a child process (SQLiteRecordFileProbe) run as `nobody` when the
/// tests run as root, since root passes every permission check, or as the tests' own user otherwise. Each
/// asserts the exact error that process prints, and that every row is still there afterwards.
///
/// Modes are set on owner, group and others alike, so that they mean the same to the tests' own user and
/// to `nobody`.
final class FilePermissionTests: XCTestCase {
    private var folder: TemporaryFolder!
    /// The probe's command line up to the probe itself: `setpriv ...` or `runuser ...` as root, else empty.
    private var launcher: [String] = []
    private var probe = ""

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        XCTAssertEqual(chmod(folder.url.path, 0o755), 0)
        if getuid() == 0 {
            let group = (try? String(contentsOfFile: "/etc/group", encoding: .utf8))?.contains("\nnogroup:") == true
            if let setpriv = Self.executable("setpriv") {
                launcher = [setpriv, "--reuid=nobody", "--regid=\(group ? "nogroup" : "nobody")", "--clear-groups"]
            } else if let runuser = Self.executable("runuser") {
                launcher = [runuser, "-u", "nobody", "--"]
            } else {
                throw XCTSkip("runs as root, whom no file permission stops, and neither setpriv nor runuser exists")
            }
        }
        // A copy in the test's own folder, which `nobody` may read, whatever the build folder's modes.
        probe = folder.path("SQLiteRecordFileProbe")
        try FileManager.default.copyItem(
            atPath: try TestSupportExecutable.find(
                "SQLiteRecordFileProbe", environmentVariable: "SQLITE_RECORD_FILE_PROBE"
            )
            .path,
            toPath: probe)
        XCTAssertEqual(chmod(probe, 0o755), 0)
    }

    override func tearDown() {
        // Modes that let the folder be removed by a user who is not root.
        if let folder, let names = try? FileManager.default.subpathsOfDirectory(atPath: folder.url.path) {
            for name in names { chmod(folder.path(name), 0o777) }
        }
        folder = nil
    }

    // MARK: The database file

    func testAFileThisUserMayOnlyReadFailsItsWriteNamingTheFileAndTheReadOnlyOpen() throws {
        let path = try makeDatabase("read-only-file", journalMode: .delete)
        try setMode(0o777, of: "read-only-file")
        XCTAssertEqual(chmod(path, 0o444), 0)
        XCTAssertEqual(try runProbe(path, "read"), "rows 1")
        XCTAssertEqual(
            try runProbe(path, "write"),
            "error SQLite error 8 (attempt to write a readonly database): attempt to write a readonly database "
                + "(permission denied: this process may not write the file \(path), so SQLite opened it read-only; "
                + "change its owner or mode, or open it with Database.Options(readOnly: true) when reads are all it "
                + "needs) - while executing: INSERT INTO t (x) VALUES ('from the probe')")
        XCTAssertEqual(try runProbe(path, "read", "--read-only"), "rows 1")
        try assertRows(path, 1)
    }

    func testAFileThisUserMayNotReadSaysPermissionDeniedAndNamesTheFile() throws {
        let path = try makeDatabase("unreadable-file", journalMode: .delete)
        XCTAssertEqual(chmod(path, 0o000), 0)
        XCTAssertEqual(
            try runProbe(path, "read"),
            "error SQLite error 14 (unable to open database file): cannot open database at \(path): unable to open "
                + "database file (permission denied: this process may not read the file \(path); change its owner "
                + "or mode)")
        try assertRows(path, 1)
    }

    func testANewFileInAFolderThisUserMayNotWriteSaysPermissionDeniedAndNamesTheFolder() throws {
        _ = try makeDatabase("read-only-folder-new", journalMode: .delete)
        try setMode(0o555, of: "read-only-folder-new")
        let path = folder.path("read-only-folder-new/new.sqlite")
        let locked = folder.path("read-only-folder-new")
        XCTAssertEqual(
            try runProbe(path, "read"),
            "error SQLite error 14 (unable to open database file): cannot open database at \(path): unable to open "
                + "database file (permission denied: this process may not create files in the folder \(locked); "
                + "choose a folder it may write, such as the app's Application Support folder)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    // MARK: The folder: journal, -wal and -shm

    func testAWritableFileInAReadOnlyFolderSaysTheRollbackJournalCannotBeCreated() throws {
        let path = try makeDatabase("read-only-folder-journal", journalMode: .delete)
        XCTAssertEqual(chmod(path, 0o666), 0)
        try setMode(0o555, of: "read-only-folder-journal")
        let locked = folder.path("read-only-folder-journal")
        XCTAssertEqual(try runProbe(path, "read"), "rows 1")
        XCTAssertEqual(
            try runProbe(path, "write"),
            "error SQLite error 1544 (attempt to write a readonly database): attempt to write a readonly database "
                + "(permission denied: this process may not create files in the folder \(locked), and SQLite creates "
                + "the rollback journal \(path)-journal there to write the database; make the folder writable, move "
                + "the database to a folder this process may write, or open it with Database.Options(readOnly: true) "
                + "when reads are all it needs) - while executing: INSERT INTO t (x) VALUES ('from the probe')")
        try assertRows(path, 1)
    }

    func testAWALDatabaseInAReadOnlyFolderSaysTheWALAndSharedMemoryFilesCannotBeCreated() throws {
        let path = try makeDatabase("read-only-folder-wal", journalMode: .wal)
        XCTAssertEqual(chmod(path, 0o666), 0)
        try setMode(0o555, of: "read-only-folder-wal")
        let locked = folder.path("read-only-folder-wal")
        let expected =
            "error SQLite error 1544 (attempt to write a readonly database): cannot open database at \(path): "
            + "attempt to write a readonly database (permission denied: this process may not create files in the "
            + "folder \(locked), and the database is in WAL mode: SQLite needs to create \(path)-wal and "
            + "\(path)-shm beside it, even to read it; make the folder writable, switch the database to a rollback "
            + "journal (PRAGMA journal_mode = delete) from a process that may write the folder, or, when no process "
            + "writes it while it is open, open it with Database.Options(readOnly: true, immutable: true); see "
            + "https://www.sqlite.org/wal.html#readonly)"
        XCTAssertEqual(try runProbe(path, "write"), expected)
        XCTAssertEqual(try runProbe(path, "read"), expected)
        // SQLite needs the two files for a read-only open too: the advice holds.
        XCTAssertEqual(try runProbe(path, "read", "--read-only"), expected)
        XCTAssertEqual(try runProbe(path, "read", "--immutable"), "rows 1")
        // The same with a file this user may only read.
        XCTAssertEqual(chmod(path, 0o444), 0)
        XCTAssertEqual(try runProbe(path, "read"), expected)
        XCTAssertEqual(try runProbe(path, "read", "--immutable"), "rows 1")
        try assertRows(path, 1)
    }

    func testAWALDatabaseWhoseSharedMemoryFileCannotBeCreatedSaysSo() throws {
        let path = try makeDatabaseWithLog("no-shm", companions: ["-wal"])
        try setMode(0o555, of: "no-shm")
        let locked = folder.path("no-shm")
        let expected =
            "error SQLite error 14 (unable to open database file): cannot open database at \(path): unable to open "
            + "database file (permission denied: this process may not create files in the folder \(locked), and "
            + "the database is in WAL mode: SQLite needs to create \(path)-shm beside it, even to read it; make the "
            + "folder writable, switch the database to a rollback journal (PRAGMA journal_mode = delete) from a "
            + "process that may write the folder, or, when no process writes it while it is open, open it with "
            + "Database.Options(readOnly: true, immutable: true); see https://www.sqlite.org/wal.html#readonly)"
        XCTAssertEqual(try runProbe(path, "read"), expected)
        XCTAssertEqual(try runProbe(path, "read", "--read-only"), expected)
        // An immutable open does not read the -wal: the row only it holds is not seen.
        XCTAssertEqual(try runProbe(path, "read", "--immutable"), "rows 1")
        try assertRows(path, 2)
    }

    // MARK: Pools

    func testAPoolOnAFileThisUserMayOnlyReadReadsAndItsWriteSaysPermissionDenied() throws {
        let path = try makeDatabase("pool-read-only-file", journalMode: .delete)
        XCTAssertEqual(chmod(path, 0o444), 0)
        XCTAssertEqual(try runProbe(path, "read", "--pool"), "rows 1")
        XCTAssertEqual(
            try runProbe(path, "write", "--pool"),
            "error SQLite error 8 (attempt to write a readonly database): DatabasePool.write cannot write: the pool "
                + "on \(path) is read-only (the file, or the medium it is on, can only be read); its reads work "
                + "(permission denied: this process may not write the file \(path), so SQLite opened it read-only; "
                + "change its owner or mode, or open it with Database.Options(readOnly: true) when reads are all it "
                + "needs)")
        try assertRows(path, 1)
    }

    func testAPoolInAReadOnlyFolderSaysTheWALAndSharedMemoryFilesCannotBeCreated() throws {
        let walPath = try makeDatabase("pool-read-only-folder-wal", journalMode: .wal)
        try setMode(0o555, of: "pool-read-only-folder-wal")
        let walFolder = folder.path("pool-read-only-folder-wal")
        XCTAssertEqual(
            try runProbe(walPath, "read", "--pool"),
            "error SQLite error 1544 (attempt to write a readonly database): cannot open database at \(walPath): "
                + "attempt to write a readonly database (permission denied: this process may not create files in the "
                + "folder \(walFolder), and the database is in WAL mode: SQLite needs to create \(walPath)-wal and "
                + "\(walPath)-shm beside it, even to read it; make the folder writable, switch the database to a "
                + "rollback journal (PRAGMA journal_mode = delete) from a process that may write the folder, or, when "
                + "no process writes it while it is open, open it with Database.Options(readOnly: true, immutable: "
                + "true); see https://www.sqlite.org/wal.html#readonly)")
        XCTAssertEqual(try runProbe(walPath, "read", "--pool", "--immutable"), "rows 1")
        let rollbackPath = try makeDatabase("pool-read-only-folder-journal", journalMode: .delete)
        try setMode(0o555, of: "pool-read-only-folder-journal")
        // The pool's switch to WAL writes the header, through a rollback journal.
        let rollbackFolder = folder.path("pool-read-only-folder-journal")
        XCTAssertEqual(
            try runProbe(rollbackPath, "read", "--pool"),
            "error SQLite error 1544 (attempt to write a readonly database): cannot open a DatabasePool at "
                + "\(rollbackPath): attempt to write a readonly database (permission denied: this process may not "
                + "create files in the folder \(rollbackFolder), and SQLite creates the rollback journal "
                + "\(rollbackPath)-journal there to write the database; make the folder writable, move the database "
                + "to a folder this process may write, or open it with Database.Options(readOnly: true) when reads "
                + "are all it needs) - while executing: PRAGMA journal_mode = wal")
        XCTAssertEqual(try runProbe(rollbackPath, "read", "--pool", "--read-only"), "rows 1")
        try assertRows(walPath, 1)
        try assertRows(rollbackPath, 1)
    }

    // MARK: -wal and -shm of another user

    func testAWALFileThisUserMayNotReadSaysPermissionDeniedAndNamesIt() throws {
        let path = try makeDatabaseWithLog("unreadable-wal", companions: ["-wal", "-shm"])
        XCTAssertEqual(chmod(path + "-wal", 0o000), 0)
        XCTAssertEqual(
            try runProbe(path, "read"),
            "error SQLite error 14 (unable to open database file): cannot open database at \(path): unable to open "
                + "database file (permission denied: this process may not read the file \(path)-wal, the "
                + "write-ahead log SQLite keeps beside the database, so SQLite cannot open the database; give it "
                + "the owner and mode of the database file)")
        try assertRows(path, 2)
    }

    func testASharedMemoryFileThisUserMayNotReadSaysPermissionDeniedAndNamesIt() throws {
        let path = try makeDatabaseWithLog("unreadable-shm", companions: ["-wal", "-shm"])
        XCTAssertEqual(chmod(path + "-shm", 0o000), 0)
        XCTAssertEqual(
            try runProbe(path, "read"),
            "error SQLite error 14 (unable to open database file): cannot open database at \(path): unable to open "
                + "database file (permission denied: this process may not read the file \(path)-shm, the WAL index "
                + "(shared memory) SQLite keeps beside the database, so SQLite cannot open the database; give it "
                + "the owner and mode of the database file)")
        try assertRows(path, 2)
    }

    func testWALFilesThisUserMayOnlyReadFailTheWriteNamingThem() throws {
        let path = try makeDatabaseWithLog("read-only-wal", companions: ["-wal", "-shm"])
        for (companion, role) in [
            ("-shm", "the WAL index (shared memory) SQLite keeps"), ("-wal", "the write-ahead log SQLite keeps"),
        ] {
            XCTAssertEqual(chmod(path + "-wal", 0o666), 0)
            XCTAssertEqual(chmod(path + "-shm", 0o666), 0)
            XCTAssertEqual(chmod(path + companion, 0o444), 0)
            XCTAssertEqual(try runProbe(path, "read"), "rows 2", companion)
            XCTAssertEqual(
                try runProbe(path, "write"),
                "error SQLite error 8 (attempt to write a readonly database): attempt to write a readonly database "
                    + "(permission denied: this process may not write the file \(path)\(companion), \(role) beside "
                    + "the database, so it cannot write the database; give it the owner and mode of the database "
                    + "file, or open it with Database.Options(readOnly: true) when reads are all it needs) - while "
                    + "executing: BEGIN IMMEDIATE TRANSACTION", companion)
        }
        try assertRows(path, 2)
    }

    // MARK: Helpers

    /// A database `name/db.sqlite` in a folder of its own, in `journalMode`, whose table `t` holds one row;
    /// closed, so a WAL database has no -wal or -shm beside it.
    private func makeDatabase(_ name: String, journalMode: Database.JournalMode) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: false)
        try setMode(0o777, of: name)
        let path = folder.path(name + "/db.sqlite")
        let db = try Database(path: path, options: Database.Options(journalMode: journalMode))
        try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t (x) VALUES ('first')")
        XCTAssertEqual(chmod(path, 0o666), 0)
        return path
    }

    /// A WAL database `name/db.sqlite` whose second row is only in its -wal: the files of a connection that
    /// is still open, copied while it was (`companions` says which of -wal and -shm), as a crashed process
    /// of another user leaves them. The folder is writable; every file has mode 0666.
    private func makeDatabaseWithLog(_ name: String, companions: [String]) throws -> String {
        let source = try makeDatabase(name + "-source", journalMode: .wal)
        try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: false)
        try setMode(0o777, of: name)
        let path = folder.path(name + "/db.sqlite")
        let db = try Database(path: source)
        try db.execute(sql: "INSERT INTO t (x) VALUES ('second, in the log')")
        for suffix in [""] + companions {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix)
            XCTAssertEqual(chmod(path + suffix, 0o666), 0)
        }
        return path
    }

    private func setMode(_ mode: mode_t, of name: String) throws {
        XCTAssertEqual(chmod(folder.path(name), mode), 0, name)
    }

    /// The rows of `t`, read by the tests' own user once every file and folder is writable again.
    private func assertRows(_ path: String, _ count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let folderPath = URL(fileURLWithPath: path).deletingLastPathComponent().path
        chmod(folderPath, 0o777)
        for suffix in ["", "-wal", "-shm", "-journal"] { chmod(path + suffix, 0o666) }
        let db = try Database(path: path)
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM t"), count, file: file, line: line)
        XCTAssertEqual(try db.scalar(String.self, sql: "PRAGMA integrity_check"), "ok", file: file, line: line)
    }

    /// Runs the probe on `path` as the user the suite tests as, and returns the line it printed.
    private func runProbe(_ path: String, _ arguments: String...) throws -> String {
        let process = Process()
        let command = launcher + [probe, path] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        XCTAssertTrue(
            process.terminationStatus == 0 || process.terminationStatus == 1,
            "\(command.joined(separator: " ")) exited with \(process.terminationStatus): \(text)")
        return text
    }

    /// The path of `name` in /usr/bin, /bin, /usr/sbin or /sbin, when it is an executable there.
    private static func executable(_ name: String) -> String? {
        ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
