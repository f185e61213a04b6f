import Foundation
import SQLiteRecord
import XCTest

/// The calls without a database argument, through the default store. The store is global state, so these
/// tests set it up and reset it themselves.
final class RecordStoreTests: XCTestCase {
    override func tearDown() {
        RecordStore.reset()
    }

    func testDefaultStoreCallsSaveFetchCountAndDelete() throws {
        let queue = try WorldFixtures.makeQueue()
        try RecordStore.use(queue)
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
        XCTAssertEqual(try Country.fetchOne(id: 1)?.population, 66_000_001)
        XCTAssertEqual(
            try City.fetch(where: ["country_id": france.id], orderBy: [.descending("population")]).map(\.name),
            ["Paris", "Lyon"])
        XCTAssertEqual(try City.count(where: ["country_id": france.id]), 2)
        XCTAssertEqual(
            try City.fetch(sql: "SELECT * FROM cities WHERE population > ?", arguments: [1_000_000]).count, 1)
        XCTAssertTrue(try cities[1].delete())
        XCTAssertEqual(try City.count(), 1)
    }

    func testFailedDefaultSaveLeavesTheRecordAsItWas() throws {
        try RecordStore.use(try WorldFixtures.makeQueue())
        var orphan = City(id: nil, countryId: 12, name: "Nowhere", population: 1, foundedAt: nil)
        XCTAssertThrowsError(try orphan.save())  // no country 12: foreign key violation
        XCTAssertNil(orphan.id)
    }

    func testCallsWithoutAStoreThrowNoDefaultStore() {
        RecordStore.reset()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        XCTAssertThrowsError(try france.save()) { error in
            XCTAssertEqual(error as? RecordError, .noDefaultStore)
        }
        XCTAssertThrowsError(try Country.fetch()) { error in
            XCTAssertEqual(error as? RecordError, .noDefaultStore)
        }
    }

    func testOpenCopyingTemplateCopiesOnceAndNeverOverwrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("template-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let template = folder.appendingPathComponent("template.sqlite")
        do {
            let db = try Database(path: template.path)
            try db.execute(sql: WorldFixtures.schema)
            var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
            try japan.save(db)
        }
        let templateBytes = try Data(contentsOf: template)
        let destination = folder.appendingPathComponent("Library/world.sqlite")

        let first = try RecordStore.open(copyingTemplate: template, to: destination)
        XCTAssertTrue(RecordStore.queue === first)
        XCTAssertEqual(try Country.fetch().map(\.iso), ["JP"])
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try france.save()
        RecordStore.reset()

        try RecordStore.open(copyingTemplate: template, to: destination)
        XCTAssertEqual(try Country.fetch(orderBy: [.ascending("iso")]).map(\.iso), ["FR", "JP"], "not overwritten")
        XCTAssertEqual(try Data(contentsOf: template), templateBytes, "the template is never written")
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: destination.deletingLastPathComponent().path)
        XCTAssertFalse(leftovers.contains { $0.hasSuffix(".partial") })
    }

    func testOpenPathMakesTheDefault() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try RecordStore.open(path: path)
        try queue.write { db in try db.execute(sql: WorldFixtures.schema) }
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        try japan.insert()
        XCTAssertTrue(try Country.exists(id: 1))
        XCTAssertEqual(try Country.fetchOne(where: ["iso": "JP"])?.name, "Japan")
        XCTAssertEqual(try Country.deleteAll(where: "population < ?", arguments: [2]), 1)
    }
}
