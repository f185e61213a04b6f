import Foundation
import SQLiteRecord
import XCTest

/// The async twins give the same results as the synchronous calls.
final class RecordAsyncTests: XCTestCase {
    override func tearDown() {
        RecordStore.reset()
    }

    func testAsyncTwinsMatchTheSynchronousCalls() async throws {
        try RecordStore.use(try WorldFixtures.makeQueue())
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try await france.save()
        XCTAssertEqual(france.id, 1)
        france.population += 1
        try await france.update()
        var cities = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_138_551, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 522_969, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Nice", population: 342_669, foundedAt: nil),
        ]
        try await france.save(children: &cities)
        XCTAssertEqual(cities.map(\.countryId), [1, 1, 1])

        let asyncFetch = try await City.fetch(where: ["country_id": france.id], orderBy: [.descending("population")])
        let countryID = france.id
        func fetchSynchronously() throws -> [City] {
            try City.fetch(where: ["country_id": countryID], orderBy: [.descending("population")])
        }
        let syncFetch = try fetchSynchronously()
        XCTAssertEqual(asyncFetch, syncFetch)
        XCTAssertEqual(asyncFetch.map(\.name), ["Paris", "Lyon", "Nice"])
        let fetchedFrance = try await Country.fetchOne(id: 1)
        XCTAssertEqual(fetchedFrance?.population, 66_000_001)
        let byName = try await City.fetchOne(where: ["name": "Lyon"])
        XCTAssertEqual(byName?.id, 2)
        let big = try await City.fetch(where: "population > ?", arguments: [500_000], orderBy: [.ascending("name")])
        XCTAssertEqual(big.map(\.name), ["Lyon", "Paris"])
        let counted = try await City.count(where: ["country_id": france.id])
        XCTAssertEqual(counted, 3)
        let exists = try await City.exists(id: 3)
        XCTAssertTrue(exists)
        let joined = try await City.fetch(
            sql: "SELECT cities.* FROM cities JOIN countries ON countries.id = cities.country_id WHERE iso = ?",
            arguments: ["FR"])
        XCTAssertEqual(joined.count, 3)

        let deleted = try await cities[2].delete()
        XCTAssertTrue(deleted)
        var more = [City(id: nil, countryId: 1, name: "Lille", population: 234_475, foundedAt: nil)]
        try await City.save(&more)
        XCTAssertEqual(more[0].id, 3, "without AUTOINCREMENT SQLite reuses the highest rowid + 1")
        let removed = try await City.deleteAll(where: "population < ?", arguments: [300_000])
        XCTAssertEqual(removed, 1)
        let remaining = try await City.count()
        XCTAssertEqual(remaining, 2)
        let parentDeleted = try await france.delete(with: Array(cities[0..<2]))
        XCTAssertTrue(parentDeleted)
        let countries = try await Country.count()
        XCTAssertEqual(countries, 0)
    }

    func testAFailedAsyncSaveLeavesTheRecordsAsTheyWere() async throws {
        try RecordStore.use(try WorldFixtures.makeQueue())
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var cities = [
            City(id: nil, countryId: nil, name: "Paris", population: 1, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Nowhere", population: 1, foundedAt: nil),
        ]
        try await france.save()
        var duplicate = Country(id: nil, name: "Also France", iso: "FR", population: 1)
        do {
            try await duplicate.save(children: &cities)
            XCTFail("the UNIQUE iso should fail")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .constraintUnique)
        }
        XCTAssertNil(duplicate.id)
        XCTAssertEqual(cities.map(\.id), [nil, nil])
        let count = try await City.count()
        XCTAssertEqual(count, 0)
    }
}
