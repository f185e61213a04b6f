import Foundation
import SQLiteRecord
import XCTest

final class RecordChildrenTests: XCTestCase {
    func testSaveChildrenBindsCountryIDOnEveryChild() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var cities = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_138_551, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 522_969, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Nice", population: 342_669, foundedAt: nil),
        ]
        try france.save(db, children: &cities)
        let franceID = try XCTUnwrap(france.id)
        XCTAssertEqual(cities.map(\.countryId), [franceID, franceID, franceID])
        XCTAssertEqual(cities.map(\.id), [1, 2, 3])
        XCTAssertEqual(try City.fetch(db, where: ["country_id": franceID], orderBy: [.ascending("id")]), cities)
    }

    func testAChildViolatingNotNullRollsBackTheParentAndEveryChild() throws {
        struct LooseCity: Record {
            // A child whose bind(to:) does nothing: its country_id stays nil and violates NOT NULL.
            var id: Int64?
            var countryId: Int64?
            var name: String
            var population: Int
            static let tableName = "cities"
            enum CodingKeys: String, CodingKey {
                case id, name, population
                case countryId = "country_id"
            }
        }
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var cities = [
            LooseCity(id: nil, countryId: 1, name: "Paris", population: 2_138_551),
            LooseCity(id: nil, countryId: nil, name: "Nowhere", population: 1),
        ]
        XCTAssertThrowsError(try france.save(db, children: &cities)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintNotNull)
        }
        XCTAssertEqual(try WorldFixtures.rowCount(db, "countries"), 0)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "cities"), 0)
        XCTAssertNil(france.id, "the parent's insert was rolled back, so it has no id")
        XCTAssertEqual(cities.map(\.id), [nil, nil])
        XCTAssertEqual(cities.map(\.countryId), [1, nil])
        XCTAssertFalse(db.isInsideTransaction)
    }

    func testAChildViolatingAForeignKeyRollsBackTheParentAndEveryChild() throws {
        struct WanderingCity: Record {
            // bind(to:) points the child at a country that does not exist.
            var id: Int64?
            var countryId: Int64?
            var name: String
            var population: Int
            static let tableName = "cities"
            enum CodingKeys: String, CodingKey {
                case id, name, population
                case countryId = "country_id"
            }
            mutating func bind(to parent: any Record) {
                if name == "Atlantis" {
                    countryId = 999
                } else if let country = parent as? Country {
                    countryId = country.id
                }
            }
        }
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        let before = [
            WanderingCity(id: nil, countryId: nil, name: "Paris", population: 2_138_551),
            WanderingCity(id: nil, countryId: nil, name: "Atlantis", population: 0),
        ]
        var cities = before
        XCTAssertThrowsError(try france.save(db, children: &cities)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
        }
        XCTAssertEqual(try WorldFixtures.rowCount(db, "countries"), 0)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "cities"), 0)
        XCTAssertNil(france.id)
        XCTAssertEqual(cities.map(\.id), before.map(\.id))
        XCTAssertEqual(cities.map(\.countryId), before.map(\.countryId))
    }

    func testInsideAnOuterTransactionAFailingCallRollsBackOnlyItsOwnWork() throws {
        let queue = try WorldFixtures.makeQueue()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
        var duplicate = Country(id: nil, name: "France again", iso: "FR", population: 1)
        var french = [City(id: nil, countryId: nil, name: "Paris", population: 2_138_551, foundedAt: nil)]
        var japanese = [City(id: nil, countryId: nil, name: "Tokyo", population: 9_733_276, foundedAt: nil)]
        var none: [City] = [City(id: nil, countryId: nil, name: "Ghost", population: 1, foundedAt: nil)]
        try queue.write { db in
            try france.save(db, children: &french)
            // iso is UNIQUE: this call fails, and only its own savepoint is rolled back.
            XCTAssertThrowsError(try duplicate.save(db, children: &none))
            try japan.save(db, children: &japanese)
        }
        XCTAssertNil(duplicate.id)
        XCTAssertNil(none[0].id)
        XCTAssertNil(none[0].countryId)
        try queue.read { db in
            XCTAssertEqual(try Country.fetch(db, orderBy: [.ascending("id")]).map(\.iso), ["FR", "JP"])
            XCTAssertEqual(try City.fetch(db, orderBy: [.ascending("id")]).map(\.name), ["Paris", "Tokyo"])
            XCTAssertEqual(try City.fetchOne(db, id: try XCTUnwrap(japanese[0].id))?.countryId, japan.id)
        }
    }

    func testUpdatingAParentWithNewAndExistingChildren() throws {
        let db = try WorldFixtures.makeDatabase()
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        var cities = [City(id: nil, countryId: nil, name: "Tokyo", population: 9_733_276, foundedAt: nil)]
        try japan.save(db, children: &cities)
        japan.population = 126_529_100
        cities[0].population += 1
        cities.append(City(id: nil, countryId: nil, name: "Osaka", population: 2_753_862, foundedAt: nil))
        try japan.save(db, children: &cities)
        XCTAssertEqual(try Country.fetchOne(db, id: try XCTUnwrap(japan.id))?.population, 126_529_100)
        XCTAssertEqual(try City.fetch(db, orderBy: [.ascending("id")]).map(\.population), [9_733_277, 2_753_862])
    }

    func testAFailingThirdChildLeavesZeroRowsAndTheParentIDNilAgain() throws {
        let db = try WorldFixtures.makeDatabase()
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        var first = [City(id: nil, countryId: nil, name: "Tokyo", population: 1, foundedAt: nil)]
        try japan.save(db, children: &first)
        // The third child's bind(to:) points it at a country that does not exist: its insert breaks the
        // foreign key after the parent and two children were inserted.
        struct PickyCity: Record {
            var id: Int64?
            var countryId: Int64?
            var name: String
            var population: Int
            static let tableName = "cities"
            enum CodingKeys: String, CodingKey {
                case id, name, population
                case countryId = "country_id"
            }
            mutating func bind(to parent: any Record) {
                countryId = name == "Third" ? 404 : (parent as? Country)?.id
            }
        }
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var cities = ["First", "Second", "Third", "Fourth"].map {
            PickyCity(id: nil, countryId: nil, name: $0, population: 1)
        }
        XCTAssertThrowsError(try france.save(db, children: &cities)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
        }
        XCTAssertNil(france.id)
        XCTAssertEqual(cities.map(\.id), [nil, nil, nil, nil])
        XCTAssertEqual(cities.map(\.countryId), [nil, nil, nil, nil])
        XCTAssertEqual(try Country.fetch(db).map(\.iso), ["JP"])
        XCTAssertEqual(try City.fetch(db).map(\.name), ["Tokyo"])
    }
}
