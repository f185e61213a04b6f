import Foundation
import SQLiteRecord
import XCTest

@testable import CountriesCities

/// `--continent`: countries with their cities by one eager load, on the real GeoNames data.
final class ContinentReportTests: XCTestCase {
    private static func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        _ = try queue.write { db in
            try GeoNamesImport.run(
                db, countriesFile: GeoNamesImportTests.countriesFile, citiesFile: GeoNamesImportTests.citiesFile)
        }
        return queue
    }

    private func report(_ continent: String?, in queue: DatabaseQueue) throws -> [String] {
        var lines: [String] = []
        try queue.read { db in try ContinentReport.print(continent, db) { lines.append($0) } }
        return lines
    }

    func testEachCountryWithItsMostPopulousCitiesInTwoQueries() throws {
        let queue = try Self.makeQueue()
        let africa = try report("AF", in: queue)
        XCTAssertEqual(africa.first, "Africa: 58 countries, 4,032 cities")
        XCTAssertTrue(
            africa.contains("Namibia (NA), 19 cities: Windhoek (386,219), Rundu (75,180), Walvis Bay (73,598)"),
            africa.joined(separator: "\n"))
        XCTAssertEqual(africa.last, "2 queries (one eager load: countries, then all their cities)")
        let all = try report(nil, in: queue)
        XCTAssertEqual(all.first, "All countries: 252 countries, 34,006 cities")
        XCTAssertEqual(all.count, 254)
        XCTAssertEqual(all.last, africa.last, "the number of queries does not grow with the number of countries")
        XCTAssertTrue(
            all.contains("Japan (JP), 1,300 cities: Tokyo (9,733,276), Yokohama (3,777,491), Osaka (2,753,862)"),
            all.filter { $0.hasPrefix("Japan") }.joined())
    }

    func testEagerLoadGivesEveryCityOfACountry() throws {
        let queue = try Self.makeQueue()
        try queue.read { db in
            let countries = try ContinentReport.countries(nil, db)
            let namibia = try XCTUnwrap(countries.first { $0.country.iso == "NA" })
            XCTAssertEqual(namibia.cities.count, 19)
            XCTAssertEqual(namibia.cities.count, try namibia.country.request(for: Country.cities).count(db))
            XCTAssertTrue(namibia.cities.allSatisfy { $0.countryId == namibia.country.id })
            let japan = try XCTUnwrap(countries.first { $0.country.iso == "JP" })
            XCTAssertEqual(japan.cities.prefix(3).map(\.name), ["Tokyo", "Yokohama", "Osaka"])
            XCTAssertEqual(countries.reduce(0) { $0 + $1.cities.count }, try City.all().count(db))
        }
    }

    func testUnknownContinentIsNamed() throws {
        let queue = try Self.makeQueue()
        XCTAssertThrowsError(try report("XX", in: queue)) {
            XCTAssertEqual($0 as? SampleError, .unknownContinent("XX"))
        }
        XCTAssertEqual(try CountriesCities.parse(["--continent", "af"]).continent, "AF")
    }
}
