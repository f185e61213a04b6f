import Foundation
import SQLiteRecord
import XCTest

@testable import CountriesCities

/// `countries-cities --update DIR`: a re-import by upserts that reports inserted, updated and unchanged rows.
final class GeoNamesUpdateTests: XCTestCase {
    private var temporaryFolder: URL!

    override func setUpWithError() throws {
        temporaryFolder = FileManager.default.temporaryDirectory.appendingPathComponent("countries-update-\(UUID())")
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: temporaryFolder)
    }

    /// A copy of the sample's data where Atsugi and Akashi have new populations and two cities are new.
    private func makeUpdatedData() throws -> URL {
        let folder = temporaryFolder.appendingPathComponent("update")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let resources = GeoNamesImportTests.resources
        try FileManager.default.copyItem(
            at: resources.appendingPathComponent("countries.csv"), to: folder.appendingPathComponent("countries.csv"))
        var text = try String(contentsOf: resources.appendingPathComponent("cities15000.csv"), encoding: .utf8)
        for (old, new) in [
            ("1847963,Atsugi,35.44272,139.36931,JP,19,223960,", "1847963,Atsugi,35.44272,139.36931,JP,19,224000,"),
            ("1847966,Akashi,34.65524,135.00687,JP,13,303601,", "1847966,Akashi,34.65524,135.00687,JP,13,303000,"),
        ] {
            XCTAssertTrue(text.contains(old), old)
            text = text.replacingOccurrences(of: old, with: new)
        }
        // The file's own line ends (CRLF), which Swift holds as one Character.
        let end = text.contains("\r\n") ? "\r\n" : "\n"
        if !text.hasSuffix(end) { text += end }
        text += "99000001,Shin-Atsugi,35.5,139.4,JP,19,15001,Asia/Tokyo" + end
        text += "99000002,Nouvelle-Akashi,34.7,135.1,JP,13,15002,Asia/Tokyo" + end
        try text.write(to: folder.appendingPathComponent("cities15000.csv"), atomically: true, encoding: .utf8)
        return folder
    }

    func testAnUpdateInsertsNewCitiesUpdatesChangedOnesAndLeavesTheRest() throws {
        let path = temporaryFolder.appendingPathComponent("world.sqlite").path
        let resources = GeoNamesImportTests.resources.path
        try CountriesCities.run(.init(databasePath: path, dataDirectory: resources)) { _ in }
        let folder = try makeUpdatedData()

        var lines: [String] = []
        try CountriesCities.run(.init(databasePath: path, updateDirectory: folder.path)) { lines.append($0) }
        XCTAssertEqual(
            Array(lines.dropFirst()),
            [
                "Updating from \(folder.path) ...", "Countries: 0 inserted, 0 updated, 252 unchanged",
                "Cities: 2 inserted, 2 updated, 34,004 unchanged",
            ])

        let db = try Database(path: path)
        let japan = try Country.fetchOne(db, where: ["iso": "JP"])
        XCTAssertEqual(try City.fetchOne(db, where: ["geoname_id": 1_847_963])?.population, 224_000)
        XCTAssertEqual(try City.fetchOne(db, where: ["geoname_id": 1_847_966])?.population, 303_000)
        let added = try City.fetchOne(db, where: ["geoname_id": 99_000_001])
        XCTAssertEqual(added?.name, "Shin-Atsugi")
        XCTAssertEqual(added?.countryId, japan?.id)
        XCTAssertEqual(added?.id, 34_007)
        XCTAssertEqual(try City.count(db), 34_008)

        var again: [String] = []
        try CountriesCities.run(.init(databasePath: path, updateDirectory: folder.path)) { again.append($0) }
        XCTAssertEqual(again.last, "Cities: 0 inserted, 0 updated, 34,008 unchanged")
    }

    func testTheOption() throws {
        XCTAssertEqual(
            try CountriesCities.parse(["--update", "/tmp/new"]), CountriesCities.Options(updateDirectory: "/tmp/new"))
        XCTAssertThrowsError(try CountriesCities.parse(["--update"]))
    }
}
