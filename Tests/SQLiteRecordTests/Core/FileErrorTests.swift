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
    /// Options.immutable opens the path as the URI `file:PATH?immutable=1`: characters that mean something in
    /// a URI are encoded, no -wal or -shm is created, and writes fail.
    func testAnImmutableOpenReadsAPathHoldingURICharactersAndCreatesNoWALFiles() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a?b#c%20d.sqlite")
        do {
            let db = try Database(path: path, options: Database.Options(journalMode: .wal))
            try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t (x) VALUES ('kept')")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        let db = try Database(path: path, options: Database.Options(immutable: true))
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT x FROM t"), "kept")
        XCTAssertTrue(db.isReadOnly)
        XCTAssertEqual(db.path, path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"))
        XCTAssertThrowsError(try db.execute(sql: "DELETE FROM t")) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), ["a?b#c%20d.sqlite"])
    }

    // The permission cases run as a user without root: see Reliability/FilePermissionTests.
}
