import Foundation
import SQLiteRecord
import XCTest

final class RecordFetchTests: XCTestCase {
    private var db: Database!
    private var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
    private var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)

    override func setUpWithError() throws {
        db = try WorldFixtures.makeDatabase()
        try france.save(db)
        try japan.save(db)
        let cities: [(Country, String, Int)] = [
            (france, "Paris", 2_138_551), (france, "Marseille", 870_731), (france, "Lyon", 522_969),
            (france, "Nice", 342_669), (japan, "Tokyo", 9_733_276), (japan, "Osaka", 2_753_862),
        ]
        for (country, name, population) in cities {
            var city = City(id: nil, countryId: country.id, name: name, population: population, foundedAt: nil)
            try city.save(db)
        }
    }

    override func tearDown() {
        db = nil
    }

    func testFetchWhereOrderByReturnsExactlyTheMatchingRowsInOrder() throws {
        let cities = try City.fetch(db, where: ["country_id": france.id], orderBy: [.descending("population")])
        XCTAssertEqual(cities.map(\.name), ["Paris", "Marseille", "Lyon", "Nice"])
        XCTAssertEqual(cities.map(\.population), [2_138_551, 870_731, 522_969, 342_669])
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": france.id], orderBy: [.ascending("name")]).map(\.name),
            ["Lyon", "Marseille", "Nice", "Paris"])
    }

    func testLimitAndSeveralConditions() throws {
        XCTAssertEqual(
            try City.fetch(db, orderBy: [.descending("population")], limit: 2).map(\.name), ["Tokyo", "Osaka"])
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": japan.id, "name": "Osaka"]).map(\.population), [2_753_862])
        XCTAssertEqual(try City.fetch(db, where: ["country_id": japan.id, "name": "Paris"]), [])
    }

    func testNilConditionMatchesNull() throws {
        XCTAssertEqual(try City.count(db, where: ["founded_at": nil]), 6)
        var paris = try XCTUnwrap(City.fetch(db, where: ["name": "Paris"]).first)
        paris.foundedAt = Date(timeIntervalSince1970: 0)
        try paris.save(db)
        XCTAssertEqual(try City.count(db, where: ["founded_at": nil]), 5)
        XCTAssertEqual(try City.fetch(db, where: ["founded_at": Date(timeIntervalSince1970: 0)]).map(\.name), ["Paris"])
    }

    func testCountAndFetchOne() throws {
        XCTAssertEqual(try City.count(db), 6)
        XCTAssertEqual(try City.count(db, where: ["country_id": japan.id]), 2)
        XCTAssertNil(try City.fetchOne(db, id: 999))
        XCTAssertEqual(try City.fetchOne(db, id: 5)?.name, "Tokyo")
    }

    func testUnknownWhereOrOrderByColumnIsAThrownErrorNotSQL() throws {
        XCTAssertThrowsError(try City.fetch(db, where: ["population; DROP TABLE cities; --": 1])) { error in
            guard case .unknownColumn(let table, let column, let columns)? = error as? RecordError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "cities")
            XCTAssertEqual(column, "population; DROP TABLE cities; --")
            XCTAssertEqual(columns, ["id", "country_id", "name", "population", "founded_at"])
        }
        XCTAssertThrowsError(try City.fetch(db, orderBy: [.descending("popularity")])) { error in
            XCTAssertEqual(
                (error as? RecordError)?.description,
                "Table \"cities\" has no column \"popularity\"; its columns are: \"id\", \"country_id\", \"name\", "
                    + "\"population\", \"founded_at\"")
        }
        XCTAssertEqual(try City.count(db), 6, "nothing ran")
    }

    func testSameKeysWithNullThenValueThenWithoutLimitGiveTheirOwnRows() throws {
        let founded = Date(timeIntervalSince1970: 0)
        var paris = try XCTUnwrap(City.fetchOne(db, where: ["name": "Paris"]))
        paris.foundedAt = founded
        try paris.save(db)
        let byName: [Ordering] = [.ascending("name")]
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": france.id, "founded_at": nil], orderBy: byName, limit: 2)
                .map(\.name),
            ["Lyon", "Marseille"])
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": france.id, "founded_at": founded], orderBy: byName, limit: 2)
                .map(\.name),
            ["Paris"])
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": france.id, "founded_at": nil], orderBy: byName).map(\.name),
            ["Lyon", "Marseille", "Nice"])
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": france.id, "founded_at": nil], orderBy: byName, offset: 1)
                .map(\.name),
            ["Marseille", "Nice"])
        XCTAssertEqual(
            try City.fetchOne(db, where: ["country_id": japan.id, "founded_at": nil], orderBy: byName)?.name, "Osaka")
        XCTAssertEqual(
            try City.fetch(db, where: ["country_id": japan.id, "founded_at": founded], orderBy: byName), [])
    }

    func testWhereColumnIsCheckedAgainstEachConnectionsTable() throws {
        XCTAssertEqual(try City.fetch(db, where: ["founded_at": nil as Date?], orderBy: [.ascending("id")]).count, 6)
        let other = try Database()
        try other.execute(sql: "CREATE TABLE cities (id INTEGER PRIMARY KEY, country_id INTEGER, name TEXT, population INTEGER)")
        XCTAssertThrowsError(try City.fetch(other, where: ["founded_at": nil as Date?], orderBy: [.ascending("id")])) {
            error in
            guard case .unknownColumn(let table, let column, let columns)? = error as? RecordError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "cities")
            XCTAssertEqual(column, "founded_at")
            XCTAssertEqual(columns, ["id", "country_id", "name", "population"])
        }
    }

    func testValuesAreBoundNeverSpliced() throws {
        let hostile = "x' OR '1'='1"
        XCTAssertEqual(try City.fetch(db, where: ["name": hostile]), [])
        var city = City(id: nil, countryId: france.id, name: hostile, population: 1, foundedAt: nil)
        try city.save(db)
        XCTAssertEqual(try City.fetch(db, where: ["name": hostile]).map(\.id), [city.id])
    }

    func testRawSQLFetchForJoins() throws {
        let sql = """
            SELECT cities.* FROM cities JOIN countries ON countries.id = cities.country_id
            WHERE countries.iso = ? ORDER BY cities.population DESC
            """
        XCTAssertEqual(try City.fetch(db, sql: sql, arguments: ["JP"]).map(\.name), ["Tokyo", "Osaka"])
    }

    func testRawSQLPartialSelectDecodesMissingOptionalsAsNil() throws {
        // founded_at is not selected: the Optional decodes as nil in a raw-SQL fetch.
        let cities = try City.fetch(db, sql: "SELECT id, country_id, name, population FROM cities WHERE name = 'Lyon'")
        XCTAssertEqual(cities.first?.name, "Lyon")
        XCTAssertNil(cities.first?.foundedAt)
        // A non-optional with no column is an error naming it.
        XCTAssertThrowsError(try City.fetch(db, sql: "SELECT id, name FROM cities")) { error in
            guard case .keyNotFound(let key, _)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "population")
        }
    }

    func testTableFetchReportsAMisspelledOptionalKey() throws {
        struct Misspelled: Record {
            var id: Int64?
            var name: String
            var foundedOn: Date?  // the column is founded_at
            static let tableName = "cities"
        }
        XCTAssertThrowsError(try Misspelled.fetch(db)) { error in
            guard case .keyNotFound(let key, let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "foundedOn")
            XCTAssertTrue(context.debugDescription.contains("table \"cities\""), context.debugDescription)
        }
    }

    func testStoredValueOfTheWrongTypeNamesTableColumnAndTypes() throws {
        try db.execute(sql: "UPDATE cities SET population = 'many' WHERE name = 'Nice'")
        XCTAssertThrowsError(try City.fetch(db, where: ["name": "Nice"])) { error in
            guard case .typeMismatch(_, let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["population"])
            XCTAssertEqual(
                context.debugDescription,
                "Expected Int but column \"population\" of table \"cities\" holds TEXT 'many' (row id 4)")
        }
    }

    /// Enough rows that the fetch grows its buffer of decoded records twice, in order.
    func testFetchOfManyRowsKeepsEveryRowInOrder() throws {
        for number in 1...40 {
            var city = City(id: nil, countryId: japan.id, name: "Town \(number)", population: number, foundedAt: nil)
            try city.save(db)
        }
        let towns = try City.fetch(db, where: "name LIKE 'Town %'", orderBy: [.ascending("population")])
        XCTAssertEqual(towns.map(\.name), (1...40).map { "Town \($0)" })
        XCTAssertEqual(towns.map(\.population), Array(1...40))
    }

    /// A row that does not decode after many that did: the error is thrown and the records decoded so far
    /// are released.
    func testDecodingErrorAfterManyRowsIsThrown() throws {
        for number in 1...40 {
            var city = City(id: nil, countryId: japan.id, name: "Town \(number)", population: number, foundedAt: nil)
            try city.save(db)
        }
        try db.execute(sql: "UPDATE cities SET population = 'many' WHERE name = 'Town 35'")
        XCTAssertThrowsError(try City.fetch(db, where: "name LIKE 'Town %'", orderBy: [.ascending("id")])) { error in
            guard case .typeMismatch(_, let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                context.debugDescription,
                "Expected Int but column \"population\" of table \"cities\" holds TEXT 'many' (row id 41)")
        }
        XCTAssertEqual(try City.fetch(db, where: "name LIKE 'Town %' AND name <> 'Town 35'").count, 39)
    }
}
