import Foundation
import SQLiteRecord
import XCTest

@testable import CountriesCities

/// `--search` and `--min-population` on the real GeoNames data.
final class CitySearchTests: XCTestCase {
    private func search(_ options: CountriesCities.Options, in queue: DatabaseQueue) throws -> [String] {
        var lines: [String] = []
        try queue.read { db in try CountriesCities.printSearch(options, db) { lines.append($0) } }
        return lines
    }

    func testSearchAndMinimumPopulationOnTheRealData() throws {
        let queue = try DatabaseQueue()
        _ = try queue.write { db in
            try GeoNamesImport.run(
                db, countriesFile: GeoNamesImportTests.countriesFile, citiesFile: GeoNamesImportTests.citiesFile)
        }
        XCTAssertEqual(
            try search(.init(search: "York"), in: queue),
            [
                "9 cities:",
                " 1. New York City, United States (8,804,190)",
                " 2. East New York, United States (173,198)",
                " 3. York, United Kingdom (156,135)",
                " 4. West New York, United States (53,366)",
                " 5. York, United States (43,992)",
                " 6. York University Heights, Canada (27,593)",
                " 7. Yorkville, United States (18,451)",
                " 8. Danforth East York, Canada (17,180)",
                " 9. Yorkton, Canada (16,343)",
            ])
        let saoPaulo = try search(.init(search: "São"), in: queue)
        XCTAssertEqual(saoPaulo[1], " 1. São Paulo, Brazil (12,400,232)")
        XCTAssertTrue(saoPaulo[0].hasSuffix("cities; the ten most populous:"), saoPaulo[0])
        // No city name in the data holds % or _: search text is never a wildcard.
        XCTAssertEqual(try search(.init(search: "%"), in: queue), ["0 cities"])
        XCTAssertEqual(try search(.init(search: "_"), in: queue), ["0 cities"])
        // Text with words that no name holds falls back to the words (CityWordSearchTests): % is no wildcard
        // there either, only a separator, so "York%" finds the cities with the word York, not Yorkton.
        let yorkPercent = try search(.init(search: "York%"), in: queue)
        XCTAssertEqual(
            yorkPercent.first, "No city name holds \"York%\"; cities named with its words, best match first:")
        XCTAssertFalse(yorkPercent.contains { $0.contains("Yorkton") }, "\(yorkPercent)")
        // Any case of A-Z, as LIKE compares.
        XCTAssertEqual(try search(.init(search: "yORK"), in: queue).first, "9 cities:")
        XCTAssertEqual(
            try search(.init(search: "York", minimumPopulation: 100_000), in: queue),
            [
                "3 cities:", " 1. New York City, United States (8,804,190)",
                " 2. East New York, United States (173,198)", " 3. York, United Kingdom (156,135)",
            ])
        XCTAssertEqual(
            try search(.init(iso: "GB", search: "York"), in: queue), ["1 city:", " 1. York, United Kingdom (156,135)"])
        let big = try search(.init(minimumPopulation: 10_000_000), in: queue)
        XCTAssertEqual(big[1], " 1. Shanghai, China (24,874,500)")
        try queue.read { db in
            XCTAssertEqual(
                try City.filter(City.CodingKeys.population >= 10_000_000).count(db), Int(big[0].prefix(2)) ?? -1)
        }
        XCTAssertThrowsError(try search(.init(iso: "ZZ", search: "York"), in: queue)) { error in
            XCTAssertEqual(error as? SampleError, .unknownCountry("ZZ"))
        }
    }

    func testParsingTheSearchOptions() throws {
        XCTAssertEqual(
            try CountriesCities.parse(["--search", "São", "--min-population", "100000", "br"]),
            CountriesCities.Options(iso: "BR", search: "São", minimumPopulation: 100_000))
        XCTAssertThrowsError(try CountriesCities.parse(["--search"]))
        XCTAssertThrowsError(try CountriesCities.parse(["--min-population", "many"]))
        XCTAssertThrowsError(try CountriesCities.parse(["--min-population", "-5"]))
    }
}
