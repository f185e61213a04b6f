import Foundation
import SQLiteRecord
import XCTest

final class RecordPersistenceTests: XCTestCase {
    func testSaveInsertsAndSetsTheIDFromTheRowid() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try france.save(db)
        XCTAssertEqual(france.id, 1)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
        try japan.save(db)
        XCTAssertEqual(japan.id, 2)
        XCTAssertEqual(try Country.fetchOne(db, id: 2), japan)
    }

    func testSaveAgainUpdatesTheSameRow() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try france.save(db)
        france.population += 1
        france.name = "République française"
        try france.save(db)
        XCTAssertEqual(france.id, 1)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "countries"), 1)
        let stored = try XCTUnwrap(Country.fetchOne(db, id: 1))
        XCTAssertEqual(stored.population, 66_000_001)
        XCTAssertEqual(stored.name, "République française")
    }

    func testUpdateOfAMissingRowThrowsRecordNotFoundAndInsertsNothing() throws {
        let db = try WorldFixtures.makeDatabase()
        var ghost = Country(id: 42, name: "Atlantis", iso: "AT", population: 0)
        XCTAssertThrowsError(try ghost.save(db)) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "countries", id: "42"))
        }
        XCTAssertEqual(ghost.id, 42)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "countries"), 0)
    }

    func testInsertKeepsAnIDTheRecordArrivesWith() throws {
        let db = try WorldFixtures.makeDatabase()
        var japan = Country(id: 1_861_060, name: "Japan", iso: "JP", population: 126_529_100)
        try japan.insert(db)
        XCTAssertEqual(japan.id, 1_861_060)
        XCTAssertEqual(try Country.fetchOne(db, id: 1_861_060)?.name, "Japan")
        XCTAssertThrowsError(try japan.insert(db)) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .constraintPrimaryKey)
        }
    }

    func testDeleteRemovesTheRow() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
        try france.save(db)
        try japan.save(db)
        XCTAssertTrue(try france.delete(db))
        XCTAssertNil(try Country.fetchOne(db, id: try XCTUnwrap(france.id)))
        XCTAssertEqual(try Country.fetch(db).map(\.name), ["Japan"])
        XCTAssertFalse(try france.delete(db), "a second delete finds no row")
    }

    func testDeleteOfAnUnsavedRecordThrows() throws {
        let db = try WorldFixtures.makeDatabase()
        let unsaved = Country(id: nil, name: "France", iso: "FR", population: 1)
        XCTAssertThrowsError(try unsaved.delete(db)) { error in
            XCTAssertEqual(error as? RecordError, .recordNotSaved(table: "countries"))
        }
    }

    func testRenamedColumnsRoundTrip() throws {
        let db = try WorldFixtures.makeDatabase()
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
        try japan.save(db)
        let founded = Date(timeIntervalSince1970: -3_124_137_600)  // 1871-01-01 00:00:00 UTC
        var tokyo = City(id: nil, countryId: japan.id, name: "Tokyo", population: 9_733_276, foundedAt: founded)
        try tokyo.save(db)

        // The columns are the CodingKeys' raw values, holding what a user would read with sqlite3.
        let statement = try db.makeStatement(sql: "SELECT country_id, founded_at, typeof(founded_at) FROM cities")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.int64(at: 0), japan.id)
        XCTAssertEqual(statement.string(at: 1), "1871-01-01 00:00:00.000")
        XCTAssertEqual(statement.string(at: 2), "text")

        XCTAssertEqual(try City.fetchOne(db, id: try XCTUnwrap(tokyo.id)), tokyo)
    }

    func testNilOptionalIsWrittenAsNullOnUpdate() throws {
        let db = try WorldFixtures.makeDatabase()
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        try japan.save(db)
        var tokyo = City(
            id: nil, countryId: japan.id, name: "Tokyo", population: 1, foundedAt: Date(timeIntervalSince1970: 0))
        try tokyo.save(db)
        tokyo.foundedAt = nil
        try tokyo.save(db)
        XCTAssertNil(try City.fetchOne(db, id: try XCTUnwrap(tokyo.id))?.foundedAt)
    }

    func testUnicodeNamesRoundTrip() throws {
        let db = try WorldFixtures.makeDatabase()
        let names = [
            "Côte d'Ivoire", "東京都", "Zürich", "São Tomé", "Ελλάδα", "👩‍👩‍👧 family", "Bonaire, Saint Eustatius and Saba ",
        ]
        for (index, name) in names.enumerated() {
            var country = Country(id: nil, name: name, iso: "X\(index)", population: Int64(index))
            try country.save(db)
        }
        XCTAssertEqual(try Country.fetch(db, orderBy: [.ascending("id")]).map(\.name), names)
        XCTAssertEqual(try Country.fetch(db, where: ["name": "東京都"]).map(\.iso), ["X1"])
    }

    func testANotNullViolationIsADatabaseErrorAndTheRecordKeepsNoID() throws {
        let db = try WorldFixtures.makeDatabase()
        // country_id is NOT NULL in the schema.
        var orphan = City(id: nil, countryId: nil, name: "Nowhere", population: 1, foundedAt: nil)
        XCTAssertThrowsError(try orphan.save(db)) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .constraintNotNull)
            XCTAssertEqual(error.message, "NOT NULL constraint failed: cities.country_id")
        }
        XCTAssertNil(orphan.id)
    }

    func testUpdateOfADeletedRowThrowsAndInsertsNothing() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        XCTAssertTrue(try france.delete(db))
        france.population = 2
        XCTAssertThrowsError(try france.save(db)) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "countries", id: "1"))
        }
        XCTAssertThrowsError(try france.update(db))
        XCTAssertEqual(try Country.count(db), 0)
    }
}
