import Foundation
import SQLiteRecord
import XCTest

final class RecordBatchTests: XCTestCase {
    private func cities(_ names: [String], countryId: Int64?) -> [City] {
        names.map { City(id: nil, countryId: countryId, name: $0, population: $0.count, foundedAt: nil) }
    }

    func testSaveManyInsertsAndUpdatesInOneTransaction() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        var list = cities(["Paris", "Lyon", "Nice"], countryId: france.id)
        try City.save(db, &list)
        XCTAssertEqual(list.map(\.id), [1, 2, 3])
        list[0].population = 2_138_551
        list.append(contentsOf: cities(["Lille"], countryId: france.id))
        try City.save(db, &list)
        XCTAssertEqual(list.map(\.id), [1, 2, 3, 4])
        XCTAssertEqual(try City.fetch(db, orderBy: [.ascending("id")]), list)
    }

    func testAFailingThirdRecordLeavesNothingAndNoIDs() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        var list = cities(["Paris", "Lyon"], countryId: france.id) + cities(["Nowhere"], countryId: 99)
        let before = list
        XCTAssertThrowsError(try City.save(db, &list)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
        }
        XCTAssertEqual(list, before)
        XCTAssertEqual(try City.count(db), 0)
    }

    func testDeleteManyAndDeleteAll() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        var list = cities(["Paris", "Lyon", "Nice", "Lille", "Bordeaux"], countryId: france.id)
        try City.save(db, &list)
        XCTAssertEqual(try City.delete(db, Array(list[0..<2])), 2)
        XCTAssertEqual(try City.delete(db, Array(list[0..<2])), 0, "already gone")
        XCTAssertEqual(try City.deleteAll(db, where: ["name": "Nice"]), 1)
        XCTAssertEqual(try City.deleteAll(db, where: "population > ?", arguments: [6]), 1)  // Bordeaux (8), not Lille (5)
        XCTAssertEqual(try City.fetch(db).map(\.name), ["Lille"])
        XCTAssertThrowsError(try City.deleteAll(db, where: ["nam": "Lille"]))
        XCTAssertEqual(try City.deleteAll(db), 1)
        XCTAssertEqual(try City.count(db), 0)
    }

    func testDeleteWithChildrenRemovesExactlyThoseRows() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        var french = cities(["Paris", "Lyon"], countryId: nil)
        var japanese = cities(["Tokyo"], countryId: nil)
        try france.save(db, children: &french)
        try japan.save(db, children: &japanese)
        XCTAssertTrue(try france.delete(db, with: french))
        XCTAssertEqual(try Country.fetch(db).map(\.iso), ["JP"])
        XCTAssertEqual(try City.fetch(db).map(\.name), ["Tokyo"])
    }

    func testDeleteWithChildrenIsAllOrNothing() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var french = cities(["Paris", "Lyon"], countryId: nil)
        try france.save(db, children: &french)
        // Lyon is left out: deleting France would orphan it, so the foreign key fails and Paris comes back.
        XCTAssertThrowsError(try france.delete(db, with: [french[0]])) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
        }
        XCTAssertEqual(try City.count(db), 2)
        XCTAssertEqual(try Country.count(db), 1)
        XCTAssertThrowsError(
            try france.delete(db, with: [City(id: nil, countryId: nil, name: "x", population: 1, foundedAt: nil)])
        ) {
            error in XCTAssertEqual(error as? RecordError, .recordNotSaved(table: "cities"))
        }
    }
}
