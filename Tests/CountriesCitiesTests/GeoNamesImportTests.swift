import Foundation
import SQLiteRecord
import XCTest

@testable import CountriesCities

final class GeoNamesImportTests: XCTestCase {
    /// The sample's own CSV files, from the package's source tree.
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/CountriesCities/Resources")
    static let countriesFile = resources.appendingPathComponent("countries.csv")
    static let citiesFile = resources.appendingPathComponent("cities15000.csv")

    private var temporaryFolder: URL!

    override func setUpWithError() throws {
        temporaryFolder = FileManager.default.temporaryDirectory.appendingPathComponent("countries-cities-\(UUID())")
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: temporaryFolder)
    }

    func testImportsEveryCountryAndCityExactly() throws {
        let queue = try DatabaseQueue()
        let summary = try queue.write { db in
            try GeoNamesImport.run(db, countriesFile: Self.countriesFile, citiesFile: Self.citiesFile)
        }
        XCTAssertEqual(summary, GeoNamesImport.Summary(countries: 252, cities: 34_006))
        try queue.read { db in
            XCTAssertEqual(try Country.count(db), 252)
            XCTAssertEqual(try City.count(db), 34_006)

            let namibia = try XCTUnwrap(Country.fetch(db, where: ["iso": "NA"]).first)
            XCTAssertEqual(namibia.name, "Namibia")
            XCTAssertEqual(namibia.continentCode, "AF")
            XCTAssertEqual(try City.count(db, where: ["country_id": namibia.id]), 19)
            XCTAssertEqual(try Country.count(db, where: ["continent_code": "NA"]), 42)

            let andorra = try XCTUnwrap(Country.fetch(db, where: ["iso": "AD"]).first)
            XCTAssertEqual(andorra.languages, "ca")
            XCTAssertEqual(andorra.neighbours, "ES,FR")
            XCTAssertEqual(andorra.areaKm2, 468)
            let emirates = try XCTUnwrap(Country.fetch(db, where: ["iso": "AE"]).first)
            XCTAssertEqual(emirates.languages, "ar-AE,fa,en,hi,ur")

            // A trailing space in a name is data, kept as is.
            XCTAssertEqual(
                try Country.fetch(db, where: ["iso": "BQ"]).first?.name, "Bonaire, Saint Eustatius and Saba ")

            let japan = try XCTUnwrap(Country.fetch(db, where: ["iso": "JP"]).first)
            let top = try City.fetch(
                db, where: ["country_id": japan.id], orderBy: [.descending("population")], limit: 3)
            XCTAssertEqual(top.map(\.name), ["Tokyo", "Yokohama", "Osaka"])
            XCTAssertEqual(top.first?.population, 9_733_276)
            XCTAssertEqual(top.first?.timezone, "Asia/Tokyo")

            // Every city points at the country whose ISO code its CSV row named.
            let mismatched = try City.fetch(
                db,
                sql: """
                    SELECT cities.* FROM cities JOIN countries ON countries.id = cities.country_id
                    WHERE countries.iso <> cities.country_code
                    """)
            XCTAssertEqual(mismatched, [])
            // Empty admin1code fields are NULL.
            XCTAssertEqual(try City.count(db, where: ["admin1_code": nil]), 25)
        }
    }

    func testRunBuildsTheDatabaseOnceAndAnswersForJapan() throws {
        let path = temporaryFolder.appendingPathComponent("world.sqlite").path
        let options = CountriesCities.Options(databasePath: path, dataDirectory: Self.resources.path, iso: "JP")
        var first: [String] = []
        try CountriesCities.run(options) { first.append($0) }
        XCTAssertTrue(first[0].hasPrefix("Importing GeoNames countries and cities"), first[0])
        XCTAssertTrue(first[1].hasPrefix("Imported 252 countries and 34,006 cities in "), first[1])
        XCTAssertEqual(first[2], "Japan (JP, JPN): population 126,529,100, capital Tokyo, continent AS")
        XCTAssertEqual(first[4], " 1. Tokyo (9,733,276)")

        var second: [String] = []
        try CountriesCities.run(options) { second.append($0) }
        XCTAssertEqual(second[0], "Database: \(path)", "the second run reuses the database")
        XCTAssertEqual(Array(second.dropFirst()), Array(first.dropFirst(2)))

        var world: [String] = []
        try CountriesCities.run(CountriesCities.Options(databasePath: path)) { world.append($0) }
        XCTAssertEqual(world[1], "252 countries, 34,006 cities")
        XCTAssertEqual(world[3], " 1. Shanghai, China (24,874,500)")

        var demo: [String] = []
        try CountriesCities.run(CountriesCities.Options(databasePath: path, demo: true)) { demo.append($0) }
        XCTAssertEqual(
            demo[2],
            "1. save(children:): Atlantis got id 253; its cities got ids 34007, 34008, 34009 and country_id 253")
        XCTAssertEqual(demo[3], "2. save() again updates: Metropolis now has 35000")
        XCTAssertTrue(demo[4].hasPrefix("3. save(children:) with a bad third child failed: SQLite error 2067"), demo[4])
        XCTAssertEqual(
            demo[5],
            "   rows left behind: 0 countries named Lemuria; Lemuria's id in memory: nil; its cities' ids: nil, nil, nil"
        )
        XCTAssertEqual(
            demo[6], "4. delete(with:): deleted Atlantis: true; 0 countries and 0 cities with code XA remain")
        XCTAssertEqual(demo[7], "The copy ends as it began: 252 countries, 34,006 cities")
        // The demo ran on a copy: the database itself is unchanged.
        let db = try Database(path: path)
        XCTAssertEqual(try Country.count(db), 252)
        XCTAssertEqual(try City.count(db), 34_006)
        XCTAssertEqual(try City.fetch(db, where: ["name": "Poseidonia"]), [])
    }

    func testUnknownISOIsAnError() throws {
        let path = temporaryFolder.appendingPathComponent("world.sqlite").path
        XCTAssertThrowsError(
            try CountriesCities.run(.init(databasePath: path, dataDirectory: Self.resources.path, iso: "ZZ")) { _ in }
        ) { error in
            XCTAssertEqual(error as? SampleError, .unknownCountry("ZZ"))
        }
    }

    func testAFailedImportLeavesNoDatabaseFileBehind() throws {
        let data = temporaryFolder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.countriesFile, to: data.appendingPathComponent("countries.csv"))
        // A valid header and rows, then a malformed line deep in the file.
        var cities = try String(contentsOf: Self.citiesFile, encoding: .utf8)
        cities += "99,\"Broken,1.0,2.0,JP,,1,Asia/Tokyo\r\n"
        try Data(cities.utf8).write(to: data.appendingPathComponent("cities15000.csv"))

        let path = temporaryFolder.appendingPathComponent("world.sqlite").path
        XCTAssertThrowsError(
            try CountriesCities.run(.init(databasePath: path, dataDirectory: data.path)) { _ in }
        ) { error in
            XCTAssertEqual(
                error as? CSVError,
                CSVError(fileName: "cities15000.csv", line: 34_008, message: "a quoted field is never closed"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testAConstraintFailureMidImportRollsBackEverything() throws {
        let data = temporaryFolder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.countriesFile, to: data.appendingPathComponent("countries.csv"))
        // The last city repeats the first city's geonameid, which is UNIQUE.
        var cities = try String(contentsOf: Self.citiesFile, encoding: .utf8)
        cities += "3040051,Duplicate,1.0,2.0,JP,,1,Asia/Tokyo\r\n"
        try Data(cities.utf8).write(to: data.appendingPathComponent("cities15000.csv"))

        // An existing database file is kept, and left without the tables.
        let path = temporaryFolder.appendingPathComponent("world.sqlite").path
        _ = try Database(path: path)
        XCTAssertThrowsError(try CountriesCities.run(.init(databasePath: path, dataDirectory: data.path)) { _ in }) {
            error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintUnique)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let db = try Database(path: path)
        XCTAssertFalse(try db.tableExists("countries"))
        XCTAssertFalse(try db.tableExists("cities"))
    }

    func testOptionsAndNumberGrouping() throws {
        XCTAssertEqual(
            try CountriesCities.parse(["--db", "/tmp/x.sqlite", "jp"]),
            CountriesCities.Options(databasePath: "/tmp/x.sqlite", iso: "JP"))
        XCTAssertEqual(try CountriesCities.parse(["--demo"]), CountriesCities.Options(demo: true))
        XCTAssertThrowsError(try CountriesCities.parse(["--db"]))
        XCTAssertThrowsError(try CountriesCities.parse(["JP", "FR"]))
        XCTAssertEqual(CountriesCities.grouped(9_733_276), "9,733,276")
        XCTAssertEqual(CountriesCities.grouped(100), "100")
        XCTAssertEqual(CountriesCities.grouped(-1_000), "-1,000")
        XCTAssertEqual(CountriesCities.grouped(0), "0")
    }

    func testMissingDataFolderIsAClearError() {
        XCTAssertThrowsError(
            try SampleFiles.dataDirectory(override: URL(fileURLWithPath: "/nonexistent"))
        ) { error in
            XCTAssertEqual(error as? SampleError, .dataNotFound(searched: ["/nonexistent"]))
        }
    }

    func testDefaultDatabaseFollowsXDGCacheHome() throws {
        let url = try SampleFiles.defaultDatabaseURL(environment: ["XDG_CACHE_HOME": temporaryFolder.path])
        #if os(Linux)
            XCTAssertEqual(
                url.path, temporaryFolder.appendingPathComponent("sqlite-record/countries-cities.sqlite").path)
        #endif
        XCTAssertEqual(url.lastPathComponent, "countries-cities.sqlite")
    }
}
