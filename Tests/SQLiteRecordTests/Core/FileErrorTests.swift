import Foundation
import SQLiteRecord
import XCTest

/// Open failures that say what is wrong with the path and what to do.
final class FileErrorTests: XCTestCase {
    func testADirectoryPathSaysItIsAFolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        XCTAssertThrowsError(try Database(path: path)) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "cannot open database at \(path): unable to open database file (\(path) is a folder: expected the "
                    + "path of a database file, such as \(path)/db.sqlite, which SQLite creates when it is missing)")
        }
        XCTAssertThrowsError(try DatabaseQueue(path: path)) { error in
            XCTAssertTrue("\(error)".contains("is a folder: expected the path of a database file"), "\(error)")
        }
    }

    func testAFileOrFolderThisUserMayNotUseSaysPermissionDenied() throws {
        // access(2), which the check uses, lets root read and write everything: this test needs another user.
        try XCTSkipIf(getuid() == 0, "runs as root, whom no file permission stops; run the tests as another user")
        let folder = try TemporaryFolder()
        let locked = folder.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(locked, 0o500), 0)
        defer { chmod(locked, 0o700) }
        XCTAssertThrowsError(try Database(path: locked + "/new.sqlite")) { error in
            XCTAssertTrue(
                "\(error)".contains("permission denied: this process may not create files in the folder \(locked)"),
                "\(error)")
        }
        let unreadable = folder.path("unreadable.sqlite")
        try Database(path: unreadable).execute(sql: "CREATE TABLE t (x)")
        XCTAssertEqual(chmod(unreadable, 0o000), 0)
        XCTAssertThrowsError(try Database(path: unreadable)) { error in
            XCTAssertTrue("\(error)".contains("permission denied: this process may not read the file"), "\(error)")
        }
    }
}
