import Foundation
import SQLiteRecord
import XCTest

/// Every Record call works through a DatabasePool as through a DatabaseQueue: the default store, the
/// explicit `Database` forms, the async twins, and functions written against DatabaseWriter.
final class RecordPoolTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        RecordStore.reset()
        folder = nil
    }

    private func makePool() throws -> DatabasePool {
        let pool = try DatabasePool(path: folder.path("world.sqlite"))
        try pool.write { db in try db.execute(sql: WorldFixtures.schema) }
        return pool
    }

    func testTheDefaultStoreCallsWorkThroughAPool() throws {
        let pool = try makePool()
        try RecordStore.use(pool)
        XCTAssertTrue(RecordStore.writer === pool)
        XCTAssertNil(RecordStore.queue, "the default is a pool, not a queue")
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try france.save()
        XCTAssertEqual(france.id, 1)
        france.population += 1
        try france.save()
        var cities = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_138_551, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 522_969, foundedAt: nil),
        ]
        try france.save(children: &cities)
        XCTAssertEqual(cities.map(\.countryId), [1, 1])
        XCTAssertEqual(try Country.fetchOne(id: 1)?.population, 66_000_001)
        XCTAssertEqual(
            try City.fetch(where: ["country_id": france.id], orderBy: [.descending("population")]).map(\.name),
            ["Paris", "Lyon"])
        XCTAssertEqual(try City.count(where: ["country_id": france.id]), 2)
        XCTAssertTrue(try City.exists(id: 2))
        XCTAssertTrue(try cities[1].delete())
        XCTAssertEqual(try City.count(), 1)
        XCTAssertEqual(try france.delete(with: [cities[0]]), true)
        XCTAssertEqual(try Country.count(), 0)
        var orphan = City(id: nil, countryId: 12, name: "Nowhere", population: 1, foundedAt: nil)
        XCTAssertThrowsError(try orphan.save(), "foreign keys are enforced on the pool's writer")
        XCTAssertNil(orphan.id)
    }

    func testTheAsyncTwinsWorkThroughAPool() async throws {
        let pool = try makePool()
        try RecordStore.use(pool)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 125_000_000)
        try await japan.save()
        var cities = [City(id: nil, countryId: nil, name: "Tokyo", population: 13_960_000, foundedAt: nil)]
        try await japan.save(children: &cities)
        let fetched = try await City.fetch(where: ["country_id": japan.id])
        XCTAssertEqual(fetched.map(\.name), ["Tokyo"])
        let count = try await Country.count()
        XCTAssertEqual(count, 1)
    }

    func testTheExplicitDatabaseFormsWorkThroughAPool() throws {
        let pool = try makePool()
        var spain = Country(id: nil, name: "Spain", iso: "ES", population: 47_000_000)
        try pool.write { db in try spain.save(db) }
        XCTAssertEqual(spain.id, 1)
        XCTAssertEqual(try pool.read { db in try Country.fetch(db) }, [spain])
        XCTAssertThrowsError(try pool.read { db in try spain.delete(db) }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode.primary, .readOnly)
        }
    }

    /// A user's own functions take either a queue or a pool.
    private func importCountries(_ countries: [Country], into writer: some DatabaseWriter) throws -> [Int64?] {
        try writer.write { db in
            var countries = countries
            try Country.save(db, &countries)
            return countries.map(\.id)
        }
    }

    private func countryNames(in reader: any DatabaseReader) throws -> [String] {
        try reader.read { db in try Country.fetch(db, orderBy: [.ascending("name")]).map(\.name) }
    }

    func testFunctionsWrittenAgainstDatabaseWriterTakeAQueueOrAPool() throws {
        let countries = [
            Country(id: nil, name: "Peru", iso: "PE", population: 34_000_000),
            Country(id: nil, name: "Chile", iso: "CL", population: 19_000_000),
        ]
        let writers: [any DatabaseWriter] = [try WorldFixtures.makeQueue(), try makePool()]
        for writer in writers {
            XCTAssertEqual(try importCountries(countries, into: writer), [1, 2])
            XCTAssertEqual(try countryNames(in: writer), ["Chile", "Peru"])
        }
    }
}
