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
    // The permission cases run as a user without root: see Reliability/FilePermissionTests.
}
