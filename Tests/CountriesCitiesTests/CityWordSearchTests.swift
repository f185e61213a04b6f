import Foundation
import SQLiteRecord
import XCTest

@testable import CountriesCities

/// `--search` falling back to the cities' full-text index, on the real GeoNames data (cities15000).
final class CityWordSearchTests: XCTestCase {
    private func search(_ options: CountriesCities.Options, in queue: DatabaseQueue) throws -> [String] {
        var lines: [String] = []
        try queue.read { db in try CountriesCities.printSearch(options, db) { lines.append($0) } }
        return lines
    }

    func testWordSearchFoldsAccentsAndRanksOnTheRealData() throws {
        let queue = try DatabaseQueue()
        _ = try queue.write { db in
            try GeoNamesImport.run(
                db, countriesFile: GeoNamesImportTests.countriesFile, citiesFile: GeoNamesImportTests.citiesFile)
        }
        XCTAssertEqual(
            try search(.init(search: "sao paulo"), in: queue),
            [
                "No city name holds \"sao paulo\"; cities named with its words, best match first:", "4 cities:",
                " 1. São Paulo, Brazil (12,400,232)", " 2. São Paulo de Olivença, Brazil (35,196)",
                " 3. São Paulo de Frades, Portugal (17,154)", " 4. São Paulo do Potengi, Brazil (16,786)",
            ])
        XCTAssertEqual(
            try search(.init(search: "bogota"), in: queue),
            [
                "No city name holds \"bogota\"; cities named with its words, best match first:", "1 city:",
                " 1. Bogotá, Colombia (7,674,366)",
            ])
        XCTAssertEqual(
            try search(.init(search: "cordoba"), in: queue),
            [
                "No city name holds \"cordoba\"; cities named with its words, best match first:", "4 cities:",
                " 1. Córdoba, Argentina (2,106,734)", " 2. Córdoba, Spain (325,708)", " 3. Córdoba, Mexico (204,721)",
                " 4. Priego de Córdoba, Spain (22,585)",
            ])
        XCTAssertEqual(
            try search(.init(iso: "ES", search: "cordoba"), in: queue),
            [
                "No city name holds \"cordoba\"; cities named with its words, best match first:", "2 cities:",
                " 1. Córdoba, Spain (325,708)", " 2. Priego de Córdoba, Spain (22,585)",
            ])
        // A stray quote or operator is text: never an FTS5 syntax error.
        XCTAssertEqual(try search(.init(search: "BOGOTA \""), in: queue).last, " 1. Bogotá, Colombia (7,674,366)")
        XCTAssertEqual(try search(.init(search: "Sao Paulo NEAR -"), in: queue).last, "0 cities")
        XCTAssertEqual(try search(.init(search: "*"), in: queue), ["0 cities"])
        // The import filled the index through its triggers.
        try queue.write { db in try City.checkFullTextIndex(db) }
    }
}
