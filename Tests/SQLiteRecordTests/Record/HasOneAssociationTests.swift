import Foundation
import SQLiteRecord
import XCTest

/// A country's anthem: at most one per country (a UNIQUE foreign key), with an `id` and a `name` of its own.
private struct Anthem: Record, Equatable {
    var id: Int64?
    var countryId: Int64?
    var name: String
    static let tableName = "anthems"
    enum CodingKeys: String, CodingKey {
        case id, name
        case countryId = "country_id"
    }
}

extension Country {
    fileprivate static let anthem = hasOne(Anthem.self)
}

/// A country and its anthem or nil, as an eager load of a has-one association decodes them.
private struct CountryWithAnthem: Decodable, Equatable {
    var country: Country
    var anthem: Anthem?
}

/// A country and its anthem, for a required join.
private struct CountryWithRequiredAnthem: Decodable, Equatable {
    var country: Country
    var anthem: Anthem
}

/// Has-one associations: the child of one record as a request, joined fetches both ways, EXISTS.
final class HasOneAssociationTests: XCTestCase {
    private var db: Database!
    private var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
    private var japan = Country(id: nil, name: "Japan", iso: "JP", population: 125_000_000)
    private var nauru = Country(id: nil, name: "Nauru", iso: "NR", population: 12_000)
    private var marseillaise = Anthem(id: nil, countryId: nil, name: "La Marseillaise")
    private var kimigayo = Anthem(id: nil, countryId: nil, name: "Kimigayo")

    override func setUpWithError() throws {
        db = try WorldFixtures.makeDatabase()
        try db.execute(
            sql: """
                CREATE TABLE anthems (
                    id INTEGER PRIMARY KEY,
                    country_id INTEGER UNIQUE REFERENCES countries(id),
                    name TEXT NOT NULL
                )
                """)
        try japan.save(db)
        try france.save(db)
        try nauru.save(db)
        // Ids that differ from the countries' (the anthems' ids are 1 and 2, France is 2 and Japan 1), so
        // that a join which mixed the two tables' "id" columns would show.
        kimigayo.countryId = japan.id
        marseillaise.countryId = france.id
        try marseillaise.save(db)
        try kimigayo.save(db)
    }

    private func logging<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        try SelectLog.logging(db, body)
    }

    func testDeclarationDefaultsItsKeyAndForeignKey() {
        XCTAssertEqual(Country.anthem.key, "anthem")
        XCTAssertEqual(Country.anthem.foreignKey, "country_id")
        XCTAssertEqual(Country.hasOne(Anthem.self, key: "song", using: "nation_id").foreignKey, "nation_id")
        XCTAssertEqual(Country.hasOne(Anthem.self, key: "song").key, "song")
    }

    func testChildOfAParentAsARequest() throws {
        let (anthem, statements) = try logging { try france.request(for: Country.anthem).fetchOne(db) }
        XCTAssertEqual(anthem, marseillaise)
        XCTAssertEqual(statements, [#"SELECT * FROM "anthems" WHERE "country_id" = ? LIMIT ?"#])
        XCTAssertNil(try nauru.request(for: Country.anthem).fetchOne(db))
    }

    func testOptionalJoinGivesNilForAParentWithoutChild() throws {
        let request = Country.order(Column("name").ascending).including(optional: Country.anthem)
        let (rows, statements) = try logging { try request.fetch(db, as: CountryWithAnthem.self) }
        XCTAssertEqual(
            rows,
            [
                CountryWithAnthem(country: france, anthem: marseillaise),
                CountryWithAnthem(country: japan, anthem: kimigayo),
                CountryWithAnthem(country: nauru, anthem: nil),
            ])
        XCTAssertEqual(rows.map(\.country.id), [2, 1, 3])
        XCTAssertEqual(rows.map(\.anthem?.id), [1, 2, nil])
        XCTAssertEqual(
            statements,
            [
                ##"SELECT "countries".*, "anthems"."country_id" AS "#anthem", "anthems".* FROM "countries" "##
                    + #"LEFT JOIN "anthems" ON "anthems"."country_id" = "countries"."id" "#
                    + #"ORDER BY "countries"."name" ASC"#
            ])
    }

    func testRequiredJoinLeavesOutParentsWithoutAMatchingChild() throws {
        let request = Country.order(Column("name").descending)
            .including(required: Country.anthem.filter(Column("name").hasPrefix("K")))
        let (rows, statements) = try logging { try request.fetch(db, as: CountryWithRequiredAnthem.self) }
        XCTAssertEqual(rows, [CountryWithRequiredAnthem(country: japan, anthem: kimigayo)])
        XCTAssertEqual(
            statements,
            [
                ##"SELECT "countries".*, "anthems"."country_id" AS "#anthem", "anthems".* FROM "countries" "##
                    + #"JOIN "anthems" ON "anthems"."country_id" = "countries"."id" "#
                    + #"AND ("anthems"."name" LIKE ? ESCAPE '\') ORDER BY "countries"."name" DESC"#
            ])
        let all = try Country.including(required: Country.anthem).fetchPairs(db)
        XCTAssertEqual(all.map(\.0.name).sorted(), ["France", "Japan"])
    }

    func testFilteredOptionalChildIsNilForTheOthers() throws {
        let rows = try Country.order(Column("name").ascending)
            .including(optional: Country.anthem.filter(Column("name") == "Kimigayo"))
            .fetch(db, as: CountryWithAnthem.self)
        XCTAssertEqual(rows.map(\.country.name), ["France", "Japan", "Nauru"])
        XCTAssertEqual(rows.map(\.anthem?.name), [nil, "Kimigayo", nil])
    }

    func testParentsFilteredByWhetherTheyHaveAChild() throws {
        let (names, statements) = try logging {
            try Country.filter(Country.anthem.exists).order(Column("name").ascending).fetch(db).map(\.name)
        }
        XCTAssertEqual(names, ["France", "Japan"])
        XCTAssertEqual(
            statements,
            [
                #"SELECT * FROM "countries" WHERE EXISTS (SELECT 1 FROM "anthems" WHERE "anthems"."country_id" = "#
                    + #""countries"."id") ORDER BY "name" ASC"#
            ])
        XCTAssertEqual(try Country.filter(!Country.anthem.exists).fetch(db).map(\.name), ["Nauru"])
    }

    func testForeignKeyTheChildTableLacksIsAnErrorNamingIt() throws {
        let wrong = Country.hasOne(Anthem.self, using: "nation_id")
        XCTAssertThrowsError(try Country.including(optional: wrong).fetch(db, as: CountryWithAnthem.self)) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasOne(Anthem) "anthem": "anthems"."nation_id" -> "countries"."id": "#
                    + #"table "anthems" has no column "nation_id"; its columns are: "id", "country_id", "name" "#
                    + #"(name the foreign key with `using:`)"#)
        }
    }

    func testNestedResultWithANonOptionalChildForAnOptionalJoinIsAnError() throws {
        XCTAssertThrowsError(
            try Country.including(optional: Country.anthem).fetch(db, as: CountryWithRequiredAnthem.self)
        ) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasOne(Anthem) "anthem": "anthems"."country_id" -> "countries"."id": the "#
                    + #"nested result type CountryWithRequiredAnthem asks for key "anthem" as Anthem; it must be a "#
                    + #"struct whose keys are "country" (Country) and "anthem" (Optional<Anthem>)"#)
        }
    }
}
