import Foundation
import XCTest

@testable import SQLiteRecord

/// Errors that say what to do: a missing folder, a busy timeout that ran out.
final class ErrorAdviceTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("error-advice-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testOpeningInAMissingFolderNamesTheFolder() throws {
        let missing = folder.appendingPathComponent("not-yet")
        let path = missing.appendingPathComponent("app.sqlite").path
        XCTAssertThrowsError(try Database(path: path)) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.resultCode.primary, .cannotOpen)
            XCTAssertEqual(
                error?.message,
                "cannot open database at \(path): unable to open database file (the folder \(missing.path) does "
                    + "not exist: SQLite creates the file, not its folder; create it first, with "
                    + "FileManager.createDirectory(atPath:withIntermediateDirectories:), or open the database with "
                    + "RecordStore.open(name:folder:), which does)")
        }
    }

    func testDatabaseIsLockedNamesTheBusyTimeout() throws {
        let path = folder.appendingPathComponent("busy.sqlite").path
        let holder = try Database(path: path)
        try holder.execute(sql: "CREATE TABLE t(a)")
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let waiter = try Database(path: path, options: .init(busyTimeout: 0.05))
        XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.isBusy, true)
            let message = error?.message ?? ""
            let seconds = message.split(separator: " ").dropFirst(4).first.flatMap { Double($0) } ?? -1
            XCTAssertEqual(
                message,
                "database is locked: waited \(String(format: "%.2f", seconds)) s, this connection's busy timeout is "
                    + "0.05 s (another connection held a lock on the file that this statement needs all that time; "
                    + "raise Database.Options.busyTimeout, or keep other connections' write transactions short)")
            XCTAssertGreaterThanOrEqual(seconds, 0.05)
        }
        try holder.execute(sql: "ROLLBACK")
    }
}
