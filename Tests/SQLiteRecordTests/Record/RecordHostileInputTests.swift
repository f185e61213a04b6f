import Foundation
import SQLiteRecord
import XCTest

final class RecordHostileInputTests: XCTestCase {
    static let hostileNames = [
        "name; DROP TABLE cities", "\"name\"", "1=1 OR name", "name --", "name/*", "name)", "(name",
        "name = name", "name' OR '1'='1", "`name`", "[name]", "name\u{0}", " name", "name ", "nаme",  // Cyrillic а
        "ｎａｍｅ", "name\u{200B}", "*", "", "rowid; DELETE FROM cities", "cities.name", "population DESC",
    ]

    func testHostileWhereKeysAndOrderColumnsThrowUnknownColumnAndTheTableIsIntact() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var cities = [City(id: nil, countryId: nil, name: "Paris", population: 1, foundedAt: nil)]
        try france.save(db, children: &cities)
        XCTAssertGreaterThanOrEqual(Self.hostileNames.count, 20)
        for name in Self.hostileNames {
            XCTAssertThrowsError(try City.fetch(db, where: [name: "Paris"]), name) { error in
                guard case .unknownColumn(let table, let column, _)? = error as? RecordError else {
                    return XCTFail("\(name): \(error)")
                }
                XCTAssertEqual(table, "cities")
                XCTAssertEqual(column, name)
            }
            XCTAssertThrowsError(try City.fetch(db, orderBy: [.descending(name)]), name) { error in
                XCTAssertNotNil(error as? RecordError, "\(name): \(error)")
            }
            XCTAssertThrowsError(try City.count(db, where: [name: nil]), name)
            XCTAssertThrowsError(try City.deleteAll(db, where: [name: 1]), name)
        }
        XCTAssertEqual(try City.fetch(db).map(\.name), ["Paris"])
        XCTAssertEqual(try Country.count(db), 1)
    }

    func testHostileValuesAreStoredAsWritten() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        for (index, name) in Self.hostileNames.enumerated() {
            var city = City(id: nil, countryId: france.id, name: name, population: index, foundedAt: nil)
            try city.save(db)
            XCTAssertEqual(try City.fetchOne(db, where: ["name": name])?.population, index, name)
        }
    }

    func testSQLFragmentsBindTheirArguments() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var list = ["Paris", "Lyon", "Nice", "Lille"].enumerated().map {
            City(id: nil, countryId: nil, name: $0.element, population: ($0.offset + 1) * 1000, foundedAt: nil)
        }
        try france.save(db, children: &list)
        XCTAssertEqual(
            try City.fetch(db, where: "population > ?", arguments: [1500], orderBy: [.descending("population")]).map(
                \.name),
            ["Lille", "Nice", "Lyon"])
        XCTAssertEqual(
            try City.fetch(db, orderBy: [.ascending("population")], limit: 2, offset: 1).map(\.name), ["Lyon", "Nice"])
        XCTAssertEqual(try City.fetch(db, orderBy: [.ascending("population")], offset: 3).map(\.name), ["Lille"])
        XCTAssertEqual(
            try City.fetchOne(db, where: "name LIKE ?", arguments: ["L%"], orderBy: [.ascending("name")])?.name, "Lille"
        )
        XCTAssertEqual(try City.count(db, where: "name LIKE ?", arguments: ["L%"]), 2)
        XCTAssertEqual(try City.fetchOne(db, where: ["name": "Nice"])?.population, 3000)
        XCTAssertThrowsError(try City.fetch(db, where: "population >")) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.sql, "SELECT * FROM \"cities\" WHERE (population >)")
        }
    }
}
