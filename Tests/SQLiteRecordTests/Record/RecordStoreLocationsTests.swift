import Foundation
import SQLiteRecord
import XCTest

/// `RecordStore.applicationSupportDirectory(appending:environment:)` and `RecordStore.open(name:folder:)`.
/// The environment is passed in, so these tests never touch the user's real data folder.
final class RecordStoreLocationsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("locations-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        RecordStore.reset()
        try FileManager.default.removeItem(at: folder)
    }

    #if os(Linux)
        func testUsesXDGDataHomeAndCreatesAPrivateFolder() throws {
            let dataHome = folder.appendingPathComponent("data")
            let url = try RecordStore.applicationSupportDirectory(
                appending: "com.example.Notes", environment: ["XDG_DATA_HOME": dataHome.path, "HOME": "/nonexistent"])
            XCTAssertEqual(url.path, dataHome.appendingPathComponent("com.example.Notes").path)
            var isDirectory: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory))
            XCTAssertTrue(isDirectory.boolValue)
            let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            XCTAssertEqual(permissions, 0o700)
            // A second call finds the folder there.
            XCTAssertEqual(
                try RecordStore.applicationSupportDirectory(
                    appending: "com.example.Notes", environment: ["XDG_DATA_HOME": dataHome.path]
                ).path, url.path)
        }

        func testFallsBackToHomeLocalShareWhenXDGDataHomeIsUnsetEmptyOrRelative() throws {
            let home = folder.appendingPathComponent("home")
            let expected = home.appendingPathComponent(".local/share/App").path
            for environment in [
                ["HOME": home.path], ["HOME": home.path, "XDG_DATA_HOME": ""],
                ["HOME": home.path, "XDG_DATA_HOME": "relative/data"],
            ] {
                XCTAssertEqual(
                    try RecordStore.applicationSupportDirectory(appending: "App", environment: environment).path,
                    expected, "\(environment)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: "relative/data"))
        }

        func testOpenNameCreatesTheDatabaseThereAndMakesItTheDefault() throws {
            let environment = ["XDG_DATA_HOME": folder.path]
            let queue = try RecordStore.open(name: "app.sqlite", folder: "App", environment: environment)
            XCTAssertEqual(queue.path, folder.appendingPathComponent("App/app.sqlite").path)
            XCTAssertTrue(RecordStore.queue === queue)
            try queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
            RecordStore.reset()
            // Opening again finds the same file and its table.
            let again = try RecordStore.open(name: "app.sqlite", folder: "App", environment: environment)
            XCTAssertTrue(try again.read { db in try db.tableExists("t") })
        }
    #endif

    func testRefusesNamesThatAreNotOnePathComponent() {
        let environment = ["XDG_DATA_HOME": folder.path]
        for name in ["", ".", "..", "a/b", "../escape", "/absolute"] {
            XCTAssertThrowsError(
                try RecordStore.applicationSupportDirectory(appending: name, environment: environment), name
            ) { error in
                XCTAssertEqual((error as? CocoaError)?.code, .fileWriteInvalidFileName, "\(error)")
            }
            XCTAssertThrowsError(try RecordStore.open(name: name, folder: "App", environment: environment), name) {
                error in
                XCTAssertEqual((error as? CocoaError)?.code, .fileWriteInvalidFileName, "\(error)")
            }
        }
        XCTAssertNil(RecordStore.queue)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
