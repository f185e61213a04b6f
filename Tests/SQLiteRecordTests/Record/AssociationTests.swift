import Foundation
import SQLiteRecord
import XCTest

extension Country {
    static let cities = hasMany(City.self)
}

extension City {
    static let country = belongsTo(Country.self)
}

/// A country and its cities, as an eager load decodes them.
private struct CountryWithCities: Decodable, Equatable {
    var country: Country
    var cities: [City]
}

/// A city and its country, as a joined fetch decodes them.
private struct CityWithCountry: Decodable, Equatable {
    var city: City
    var country: Country
}

/// A city and its country or nil.
private struct CityWithOptionalCountry: Decodable, Equatable {
    var city: City
    var country: Country?
}

/// Collects the SELECT statements a connection runs; the handler runs on the connection's thread.
final class SelectLog: @unchecked Sendable {
    // `stored` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ sql: String) {
        guard sql.hasPrefix("SELECT") else { return }
        lock.lock()
        stored.append(sql)
        lock.unlock()
    }

    var statements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// What `body` returns, with the SELECT statements `db` ran meanwhile.
    static func logging<T>(_ db: Database, _ body: () throws -> T) rethrows -> (T, [String]) {
        let log = SelectLog()
        db.trace { log.append($0.sql) }
        defer { db.trace(nil) }
        let result = try body()
        return (result, log.statements)
    }
}

/// Associations: declared once, read as requests, eager loads and joins with exact SQL and values.
final class AssociationTests: XCTestCase {
    private var db: Database!
    private var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
    private var japan = Country(id: nil, name: "Japan", iso: "JP", population: 125_000_000)
    private var empty = Country(id: nil, name: "Nauru", iso: "NR", population: 12_000)

    override func setUpWithError() throws {
        db = try WorldFixtures.makeDatabase()
        try france.save(db)
        try japan.save(db)
        try empty.save(db)
        var french = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_100_000, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 520_000, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Nice", population: 340_000, foundedAt: nil),
        ]
        try france.save(db, children: &french)
        var japanese = [
            City(id: nil, countryId: nil, name: "Tokyo", population: 14_000_000, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Osaka", population: 2_700_000, foundedAt: nil),
        ]
        try japan.save(db, children: &japanese)
    }

    private func city(_ name: String) throws -> City {
        try XCTUnwrap(City.filter(Column("name") == name).fetchOne(db))
    }

    private func logging<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        try SelectLog.logging(db, body)
    }

    func testDeclarationsDefaultTheirKeysAndForeignKeys() {
        XCTAssertEqual(Country.cities.key, "cities")
        XCTAssertEqual(Country.cities.foreignKey, "country_id")
        XCTAssertEqual(City.country.key, "country")
        XCTAssertEqual(City.country.foreignKey, "country_id")
        XCTAssertEqual(City.belongsTo(Country.self, key: "nation", using: "nation_code").foreignKey, "nation_code")
    }

    func testChildrenOfAParentAsARequest() throws {
        let request = france.request(for: Country.cities).order(Column("population").descending).limit(2)
        let (names, statements) = try logging { try request.fetch(db).map(\.name) }
        XCTAssertEqual(names, ["Paris", "Lyon"])
        XCTAssertEqual(
            statements, [#"SELECT * FROM "cities" WHERE "country_id" = ? ORDER BY "population" DESC LIMIT ?"#])
        XCTAssertEqual(try empty.request(for: Country.cities).count(db), 0)
    }

    func testParentOfAChildAsARequest() throws {
        let tokyo = try city("Tokyo")
        let (parent, statements) = try logging { try tokyo.request(for: City.country).fetchOne(db) }
        XCTAssertEqual(parent, japan)
        XCTAssertEqual(statements, [#"SELECT * FROM "countries" WHERE "id" = ? LIMIT ?"#])
    }

    func testEagerLoadRunsTwoQueriesForAnyNumberOfParents() throws {
        let request = Country.order(Column("name").ascending)
            .including(all: Country.cities.order(Column("population").descending))
        let (result, statements) = try logging { try request.fetch(db, as: CountryWithCities.self) }
        XCTAssertEqual(result.map(\.country.name), ["France", "Japan", "Nauru"])
        XCTAssertEqual(result.map { $0.cities.map(\.name) }, [["Paris", "Lyon", "Nice"], ["Tokyo", "Osaka"], []])
        XCTAssertEqual(
            statements,
            [
                #"SELECT * FROM "countries" ORDER BY "name" ASC"#,
                #"SELECT * FROM "cities" WHERE "country_id" IN (?, ?, ?) ORDER BY "population" DESC"#,
            ])
    }

    func testEagerLoadLimitIsPerParent() throws {
        let result = try Country.including(all: Country.cities.order(Column("population").descending).limit(1))
            .fetch(db, as: CountryWithCities.self)
        XCTAssertEqual(result.map { $0.cities.map(\.name) }, [["Paris"], ["Tokyo"], []])
    }

    func testEagerLoadWithAFilteredBaseAndChildren() throws {
        let groups = try Country.filter(Column("iso") == "FR")
            .including(all: Country.cities.filter(Column("population") > 400_000).order(Column("name").ascending))
            .fetchGroups(db)
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(groups.first?.0, france)
        XCTAssertEqual(groups.first?.1.map(\.name), ["Lyon", "Paris"])
    }

    func testEagerLoadOfTwoAssociationsRunsOneQueryMoreForTheSecond() throws {
        struct CountryWithCitiesBySize: Decodable, Equatable {
            var country: Country
            var bigCities: [City]
            var smallCities: [City]
        }
        let big = Country.hasMany(City.self, key: "bigCities").filter(Column("population") >= 1_000_000)
            .order(Column("name").ascending)
        let small = Country.hasMany(City.self, key: "smallCities").filter(Column("population") < 1_000_000)
            .order(Column("name").ascending)
        let request = Country.order(Column("name").ascending).including(all: big).including(all: small)
        let (rows, statements) = try logging { try request.fetch(db, as: CountryWithCitiesBySize.self) }
        XCTAssertEqual(rows.map(\.country.name), ["France", "Japan", "Nauru"])
        XCTAssertEqual(rows.map { $0.bigCities.map(\.name) }, [["Paris"], ["Osaka", "Tokyo"], []])
        XCTAssertEqual(rows.map { $0.smallCities.map(\.name) }, [["Lyon", "Nice"], [], []])
        XCTAssertEqual(statements.count, 3)
        XCTAssertEqual(statements.first, #"SELECT * FROM "countries" ORDER BY "name" ASC"#)
        XCTAssertEqual(
            statements.last,
            #"SELECT * FROM "cities" WHERE "population" < ? AND "country_id" IN (?, ?, ?) ORDER BY "name" ASC"#)
        // fetchGroups gives the children of the first association.
        XCTAssertEqual(try request.fetchGroups(db).map { $0.1.count }, [1, 2, 0])
    }

    func testTwoAssociationsOfOneEagerLoadWithOneKeyAreAnError() throws {
        struct Whatever: Decodable {}
        let request = Country.including(all: Country.cities).including(all: Country.cities.limit(1))
        XCTAssertThrowsError(try request.fetch(db, as: Whatever.self)) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasMany(City) "cities": "cities"."country_id" -> "countries"."id": another "#
                    + #"association of the same eager load has the key "cities": give one another name with `key:`"#)
        }
    }

    func testASecondAssociationWhoseForeignKeyTheTableLacksIsAnErrorNamingIt() throws {
        struct Whatever: Decodable {}
        let wrong = Country.hasMany(City.self, key: "towns", using: "nation_id")
        let request = Country.including(all: Country.cities).including(all: wrong)
        let (result, statements) = logging { Result { try request.fetch(db, as: Whatever.self) } }
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasMany(City) "towns": "cities"."nation_id" -> "countries"."id": "#
                    + #"table "cities" has no column "nation_id"; its columns are: "id", "country_id", "name", "#
                    + #""population", "founded_at" (name the foreign key with `using:`)"#)
        }
        XCTAssertEqual(statements, [], "nothing runs before the associations are checked")
    }

    func testJoinedFetchKeepsTheTablesColumnsApart() throws {
        let request = City.filter(Column("population") > 1_000_000).order(Column("name").ascending)
            .including(required: City.country)
        let (rows, statements) = try logging { try request.fetch(db, as: CityWithCountry.self) }
        XCTAssertEqual(rows.map(\.city.name), ["Osaka", "Paris", "Tokyo"])
        XCTAssertEqual(rows.map(\.country), [japan, france, japan])
        XCTAssertEqual(rows.map(\.city.id), try ["Osaka", "Paris", "Tokyo"].map { try city($0).id })
        XCTAssertEqual(
            statements,
            [
                ##"SELECT "cities".*, "countries"."id" AS "#country", "countries".* FROM "cities" LEFT JOIN "countries" "##
                    + #"ON "countries"."id" = "cities"."country_id" WHERE "cities"."population" > ? "#
                    + #"ORDER BY "cities"."name" ASC"#
            ])
    }

    func testJoinedFetchFiltersByTheParent() throws {
        let request = City.order(Column("name").ascending)
            .including(required: City.country.filter(Column("iso") == "JP"))
        let (rows, statements) = try logging { try request.fetch(db, as: CityWithCountry.self) }
        XCTAssertEqual(rows.map(\.city.name), ["Osaka", "Tokyo"])
        XCTAssertEqual(
            statements,
            [
                ##"SELECT "cities".*, "countries"."id" AS "#country", "countries".* FROM "cities" LEFT JOIN "countries" "##
                    + #"ON "countries"."id" = "cities"."country_id" WHERE ("countries"."iso" = ?) "#
                    + #"ORDER BY "cities"."name" ASC"#
            ])
        let optional = try City.order(Column("name").ascending)
            .including(optional: City.country.filter(Column("iso") == "JP"))
            .fetch(db, as: CityWithOptionalCountry.self)
        XCTAssertEqual(optional.map(\.city.name), ["Lyon", "Nice", "Osaka", "Paris", "Tokyo"])
        XCTAssertEqual(optional.map(\.country?.iso), [nil, nil, "JP", nil, "JP"])
    }

    func testMissingParentIsAnErrorNamingTheTables() throws {
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try db.execute(sql: "INSERT INTO cities (country_id, name, population) VALUES (99, 'Atlantis', 1)")
        XCTAssertThrowsError(try City.including(required: City.country).fetch(db, as: CityWithCountry.self)) {
            XCTAssertEqual(
                $0 as? RecordError,
                .missingParent(table: "cities", column: "country_id", value: "INTEGER 99", parentTable: "countries"))
        }
        let rows = try City.filter(Column("name") == "Atlantis").including(optional: City.country)
            .fetch(db, as: CityWithOptionalCountry.self)
        XCTAssertEqual(rows.map(\.country), [nil])
    }

    func testForeignKeyTheTableLacksIsAnErrorNamingIt() throws {
        let wrong = Country.hasMany(City.self, using: "nation_id")
        XCTAssertThrowsError(try Country.including(all: wrong).fetchGroups(db)) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasMany(City) "cities": "cities"."nation_id" -> "countries"."id": "#
                    + #"table "cities" has no column "nation_id"; its columns are: "id", "country_id", "name", "#
                    + #""population", "founded_at" (name the foreign key with `using:`)"#)
        }
    }

    func testNestedResultWhoseKeysDoNotMatchIsAnErrorNamingThem() throws {
        struct Wrong: Decodable {
            var country: Country
            var towns: [City]
        }
        XCTAssertThrowsError(try Country.including(all: Country.cities).fetch(db, as: Wrong.self)) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasMany(City) "cities": "cities"."country_id" -> "countries"."id": the "#
                    + #"nested result type Wrong asks for key "towns"; it must be a struct whose keys are "#
                    + #""country" (Country) and "cities" (Array<City>)"#)
        }
    }
}

/// Parents filtered and counted by their children, as correlated subqueries.
final class AssociationAggregateTests: XCTestCase {
    private struct CountryCount: Decodable, Equatable {
        var name: String
        var cityCount: Int
    }

    private var db: Database!

    override func setUpWithError() throws {
        db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 125_000_000)
        var nauru = Country(id: nil, name: "Nauru", iso: "NR", population: 12_000)
        try nauru.save(db)
        var french = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_100_000, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 520_000, foundedAt: nil),
        ]
        try france.save(db, children: &french)
        var japanese = [City(id: nil, countryId: nil, name: "Tokyo", population: 14_000_000, foundedAt: nil)]
        try japan.save(db, children: &japanese)
    }

    func testParentsFilteredByTheirChildren() throws {
        let request = Country.filter(Country.cities.filter(Column("population") > 10_000_000).exists)
        let log = SelectLog()
        db.trace { log.append($0.sql) }
        XCTAssertEqual(try request.fetch(db).map(\.name), ["Japan"])
        db.trace(nil)
        XCTAssertEqual(
            log.statements,
            [
                #"SELECT * FROM "countries" WHERE EXISTS (SELECT 1 FROM "cities" WHERE "cities"."country_id" = "#
                    + #""countries"."id" AND ("cities"."population" > ?))"#
            ])
        XCTAssertEqual(try Country.filter(!Country.cities.exists).fetch(db).map(\.name), ["Nauru"])
    }

    func testChildrenCountedPerParent() throws {
        let counts = try Country.select(Column("name"), Country.cities.count.forKey("cityCount"))
            .order(Country.cities.count.descending, Column("name").ascending)
            .fetch(db, as: CountryCount.self)
        XCTAssertEqual(
            counts,
            [
                CountryCount(name: "France", cityCount: 2), CountryCount(name: "Japan", cityCount: 1),
                CountryCount(name: "Nauru", cityCount: 0),
            ])
        XCTAssertEqual(try Country.filter(Country.cities.count >= 2).fetch(db).map(\.iso), ["FR"])
    }
}
