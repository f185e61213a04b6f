import Foundation

extension DatabaseError {
    /// A failure to open `path` explained by what is at the path: a folder (SQLite says only "unable to
    /// open database file") or a file that is not an SQLite database (SQLite says "file is not a database",
    /// from the first statement the connection runs, whose SQL is the library's own and is left out). Nil
    /// when neither applies. See <https://www.sqlite.org/fileformat2.html#the_database_header>.
    func explainingOpenedFile(path: String) -> DatabaseError? {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        let expected: String
        if isDirectory.boolValue, resultCode.primary == .cannotOpen {
            expected =
                " (\(path) is a folder: expected the path of a database file, such as "
                + URL(fileURLWithPath: path).appendingPathComponent("db.sqlite").path
                + ", which SQLite creates when it is missing)"
        } else if resultCode.primary == .notADatabase {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            expected =
                " (the file" + (size.map { " of \($0) bytes" } ?? "")
                + " does not start with the header \"SQLite format 3\": expected an SQLite 3 database file, or a path "
                + "where none exists yet, which SQLite creates; an encrypted database needs the key its library "
                + "sets before the first statement)"
        } else {
            return nil
        }
        return DatabaseError(
            resultCode: resultCode, message: message + expected, sql: nil, arguments: nil,
            includesArgumentsInDescription: includesArgumentsInDescription)
    }

    /// What stops this process from reading or writing the database file at `path`, its folder, or the
    /// files SQLite keeps beside it (`-journal`, `-wal`, `-shm`), and what to do, as a parenthesis to
    /// append to SQLite's message; nil when the failure is not about access, or is explained elsewhere (a
    /// folder at `path`, a missing folder: see ``explainingOpenFailure(path:)``).
    ///
    /// Asked after `SQLITE_CANTOPEN` ("unable to open database file") and `SQLITE_READONLY` ("attempt to
    /// write a readonly database", with `SQLITE_READONLY_DIRECTORY` when the journal cannot be created),
    /// which name no file. SQLite opens a file it may read but not write read-only without saying so, needs
    /// to create a rollback journal beside the database for every write, and needs the `-wal` and `-shm`
    /// files of a WAL database even to read it: a read-only open of a WAL database in a folder it may not
    /// write works only when both files exist, or when the database is opened immutable. See
    /// <https://www.sqlite.org/rescode.html#readonly_directory>, <https://www.sqlite.org/wal.html#readonly>
    /// and <https://www.sqlite.org/tempfiles.html>.
    ///
    /// The checks are access(2), which answers for this process's user: root passes them all (and meets
    /// none of these failures), except on a read-only file system.
    static func fileAccessAdvice(path: String, resultCode: ResultCode) -> String? {
        guard resultCode.primary == .cannotOpen || resultCode.primary == .readOnly, path != ":memory:",
            !path.isEmpty, !path.hasPrefix("file:")
        else { return nil }
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard fileManager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            guard let denied = accessDenial(folder, W_OK | X_OK) else { return nil }
            return " (\(denied): this process may not create files in the folder \(folder); choose a folder it may "
                + "write, such as the app's Application Support folder)"
        }
        guard !isDirectory.boolValue else { return nil }
        if let denied = accessDenial(path, R_OK) {
            return " (\(denied): this process may not read the file \(path); change its owner or mode)"
        }
        let readOnlyOpen = "open it with Database.Options(readOnly: true) when reads are all it needs"
        for companion in CompanionFile.allCases where fileManager.fileExists(atPath: path + companion.suffix) {
            let companionPath = path + companion.suffix
            if let denied = accessDenial(companionPath, R_OK) {
                return " (\(denied): this process may not read the file \(companionPath), \(companion.role) "
                    + "beside the database, so SQLite cannot open the database; give it the owner and mode of "
                    + "the database file)"
            }
            if let denied = accessDenial(companionPath, W_OK) {
                return " (\(denied): this process may not write the file \(companionPath), \(companion.role) "
                    + "beside the database, so it cannot write the database; give it the owner and mode of the "
                    + "database file, or \(readOnlyOpen))"
            }
        }
        // A folder that cannot take a journal, -wal or -shm fails with SQLITE_READONLY_DIRECTORY or
        // SQLITE_CANTOPEN; a plain SQLITE_READONLY is a read-only connection or file.
        let folderDenial = resultCode == .readOnly ? nil : accessDenial(folder, W_OK | X_OK)
        // A WAL database whose -wal or -shm cannot be created fails every open, read-only ones too: that
        // comes before whether the file itself may be written.
        let missing = [CompanionFile.wal, .shm].map { path + $0.suffix }.filter { !fileManager.fileExists(atPath: $0) }
        if let denied = folderDenial, !missing.isEmpty, isInWALMode(path) {
            return " (\(denied): this process may not create files in the folder \(folder), and the database is in "
                + "WAL mode: SQLite needs to create \(missing.joined(separator: " and ")) beside it, even to read "
                + "it; make the folder writable, switch the database to a rollback journal (PRAGMA journal_mode "
                + "= delete) from a process that may write the folder, or, when no process writes it while it is "
                + "open, open it with Database.Options(readOnly: true, immutable: true); see "
                + "https://www.sqlite.org/wal.html#readonly)"
        }
        if resultCode.primary == .readOnly, let denied = accessDenial(path, W_OK) {
            return " (\(denied): this process may not write the file \(path), so SQLite opened it read-only; "
                + "change its owner or mode, or \(readOnlyOpen))"
        }
        guard let denied = folderDenial, !isInWALMode(path) else { return nil }
        return " (\(denied): this process may not create files in the folder \(folder), and SQLite creates the "
            + "rollback journal \(path)-journal there to write the database; make the folder writable, move the "
            + "database to a folder this process may write, or \(readOnlyOpen))"
    }

    /// The files SQLite keeps beside a database file, in the order they are checked.
    /// See <https://www.sqlite.org/tempfiles.html>.
    private enum CompanionFile: CaseIterable {
        case wal, shm, journal

        var suffix: String {
            switch self {
            case .wal: return "-wal"
            case .shm: return "-shm"
            case .journal: return "-journal"
            }
        }

        var role: String {
            switch self {
            case .wal: return "the write-ahead log SQLite keeps"
            case .shm: return "the WAL index (shared memory) SQLite keeps"
            case .journal: return "the rollback journal SQLite keeps"
            }
        }
    }

    /// Why access(2) refuses `mode` on `path` ("permission denied", "read-only file system"), or nil when
    /// it allows it.
    private static func accessDenial(_ path: String, _ mode: Int32) -> String? {
        guard access(path, mode) != 0 else { return nil }
        let code = errno
        switch code {
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "read-only file system"
        default: return "access refused (errno \(code))"
        }
    }

    /// True when the database header's read and write versions (bytes 18 and 19) are 2: a WAL database.
    /// See <https://www.sqlite.org/fileformat2.html#the_database_header>.
    private static func isInWALMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }
}
