#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// The query interface on PostgreSQL: the SQL the shared compiler writes in PostgreSQL's dialect, and the
/// rows it finds, read back with plain SQL.
final class PostgresQueryInterfaceRequestTests: PostgresTestCase {
    struct City: Record, Equatable, Sendable {
        var id: Int64?
        var countryCode: String
        var name: String
        var population: Int64
        var token: UUID?
        static let tableName = "cities"
        enum CodingKeys: String, CodingKey {
            case id, name, population, token
            case countryCode = "country_code"
        }
    }

    struct CountryTotal: Decodable, Equatable {
        var countryCode: String
        var cities: Int
        var people: Int64
    }

    let tokens = [UUID(), UUID(), UUID()]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try City.createTable(in: connection)
        var cities = [
            City(id: nil, countryCode: "FR", name: "Paris", population: 2_138_551, token: tokens[0]),
            City(id: nil, countryCode: "FR", name: "Lyon", population: 522_969, token: tokens[1]),
            City(id: nil, countryCode: "DE", name: "Berlin", population: 3_644_826, token: tokens[2]),
            City(id: nil, countryCode: "DE", name: "Ärzteheim 50%_off", population: 12, token: nil),
        ]
        try City.save(connection, &cities)
    }

    func sql(_ request: QueryInterfaceRequest<City>, _ statement: RequestStatement = .select) throws -> String {
        try request.postgresSQL(connection, statement).sql
    }

    func testFilterOrderLimitWritesDollarParametersAndFetchesTheRows() throws {
        let request = City.filter(Column("population") > 500_000).order(Column("name").ascending).limit(2, offset: 1)
        XCTAssertEqual(
            try sql(request),
            #"SELECT * FROM "cities" WHERE "population" > $1 ORDER BY "name" ASC NULLS FIRST LIMIT $2 OFFSET $3"#)
        XCTAssertEqual(try request.fetch(connection).map(\.name), ["Lyon", "Paris"])
        XCTAssertEqual(try City.order(Column("population").descending).fetchOne(connection)?.name, "Berlin")
        XCTAssertEqual(try City.filter(Column("population") > 10_000_000).fetchOne(connection), nil)
    }

    func testOffsetWithoutLimitBindsLimitNullWhichIsLimitAll() throws {
        let request = City.order(Column("id").ascending).limit(-1, offset: 3)
        XCTAssertEqual(try sql(request), #"SELECT * FROM "cities" ORDER BY "id" ASC NULLS FIRST LIMIT $1 OFFSET $2"#)
        XCTAssertEqual(try request.fetch(connection).map(\.name), ["Ärzteheim 50%_off"])
    }

    func testCountExistsAndAggregatesIntoATypeOfYourOwn() throws {
        XCTAssertEqual(try City.filter(Column("country_code") == "FR").count(connection), 2)
        XCTAssertEqual(
            try sql(City.filter(Column("country_code") == "FR").limit(1), .count),
            #"SELECT count(*) FROM (SELECT * FROM "cities" WHERE "country_code" = $1 LIMIT $2) AS "counted""#)
        XCTAssertEqual(try City.filter(Column("country_code") == "FR").limit(1).count(connection), 1)
        XCTAssertTrue(try City.filter(Column("name") == "Berlin").exists(connection))
        XCTAssertFalse(try City.filter(Column("name") == "Rome").exists(connection))
        let totals = City.select(
            Column("country_code").forKey("countryCode"), SQLExpression.countAll.forKey("cities"),
            sum(Column("population")).forKey("people")
        ).group(Column("country_code")).having(SQLExpression.countAll > 1).order(Column("countryCode").ascending)
        XCTAssertEqual(
            try sql(totals),
            #"SELECT "country_code" AS "countryCode", count(*) AS "cities", sum("population") AS "people" FROM "cities" GROUP BY "country_code" HAVING count(*) > $1 ORDER BY "countryCode" ASC NULLS FIRST"#
        )
        XCTAssertEqual(
            try totals.fetch(connection, as: CountryTotal.self),
            [CountryTotal(countryCode: "DE", cities: 2, people: 3_644_838),
             CountryTotal(countryCode: "FR", cities: 2, people: 2_661_520)])
        XCTAssertEqual(try City.select(max(Column("population"))).fetchOne(connection, as: Int64.self), 3_644_826)
        XCTAssertNil(
            try City.filter(Column("name") == "Rome").select(max(Column("population"))).fetchOne(connection, as: Int64.self))
        XCTAssertEqual(
            try sql(City.select(total(Column("population")))), #"SELECT coalesce(sum(CAST("population" AS DOUBLE PRECISION)), 0) FROM "cities""#)
        XCTAssertEqual(
            try sql(City.select(average(Column("population")))),
            #"SELECT avg(CAST("population" AS DOUBLE PRECISION)) FROM "cities""#)
    }

    func testDeleteAllAndUpdateAllChangeExactlyTheRowsTheRequestSelects() throws {
        let updated = try City.filter(Column("country_code") == "FR")
            .updateAll(connection, Column("population").set(to: Column("population") + 1))
        XCTAssertEqual(updated, 2)
        XCTAssertEqual(
            try sql(City.filter(Column("country_code") == "DE").order(Column("population").ascending).limit(1), .delete),
            #"DELETE FROM "cities" WHERE "id" IN (SELECT "id" FROM "cities" WHERE "country_code" = $1 ORDER BY "population" ASC NULLS FIRST LIMIT $2)"#
        )
        let deleted = try City.filter(Column("country_code") == "DE").order(Column("population").ascending).limit(1)
            .deleteAll(connection)
        XCTAssertEqual(deleted, 1)
        XCTAssertEqual(
            try text("SELECT string_agg(name || ':' || population, ',' ORDER BY id) FROM cities"),
            "Paris:2138552,Lyon:522970,Berlin:3644826")
        XCTAssertEqual(try City.all().updateAll(connection, []), 0)
    }

    func testTextMatchersAreILikeWithTheSearchTextTakenLiterally() throws {
        XCTAssertEqual(
            try sql(City.filter(Column("name").contains("50%_"))),
            #"SELECT * FROM "cities" WHERE "name" ILIKE $1 ESCAPE '\'"#)
        XCTAssertEqual(try City.filter(Column("name").contains("50%_")).fetch(connection).map(\.name), ["Ärzteheim 50%_off"])
        XCTAssertEqual(try City.filter(Column("name").contains("0%x")).fetch(connection), [])
        XCTAssertEqual(try City.filter(Column("name").hasPrefix("par")).fetch(connection).map(\.name), ["Paris"])
        XCTAssertEqual(try City.filter(Column("name").hasSuffix("LIN")).fetch(connection).map(\.name), ["Berlin"])
        XCTAssertEqual(try City.filter(Column("name").like("L_on")).fetch(connection).map(\.name), ["Lyon"])
        XCTAssertEqual(
            try sql(City.filter(Column("name").caseInsensitiveContains("ärzte"))),
            #"SELECT * FROM "cities" WHERE "name" ILIKE $1 ESCAPE '\'"#)
        // The test server's database has LC_CTYPE C: ILIKE folds ASCII letters only, so "ä" and "Ä" differ.
        XCTAssertEqual(
            try City.filter(Column("name").caseInsensitiveHasPrefix("ÄRZTEHEIM")).fetch(connection).map(\.name),
            ["Ärzteheim 50%_off"])
        XCTAssertEqual(try City.filter(Column("name").caseInsensitiveHasPrefix("ärzteheim")).fetch(connection), [])
        XCTAssertEqual(
            try sql(City.order(Column("name").caseFolded().ascending)),
            #"SELECT * FROM "cities" ORDER BY lower("name") ASC NULLS FIRST"#)
    }

    func testTextHoldingNULIsAnErrorNamingTheColumnAndNothingRuns() throws {
        for request in [
            City.filter(Column("name").contains("Par\u{0}is")), City.filter(Column("name") == "Par\u{0}is"),
            City.filter(Column("name").caseInsensitiveHasSuffix("\u{0}")),
            // The forms that SQLite compares past U+0000 (a NOCASE IN list, like and notLike): PostgreSQL
            // refuses them before anything runs, so a delete through them deletes nothing.
            City.filter(Column("name").in(["Paris", "Par\u{0}is"])), City.filter(Column("name").like("Par\u{0}%")),
            City.filter(Column("name").notLike("x\u{0}y")),
        ] {
            let count = try City.all().count(connection)
            XCTAssertThrowsError(try request.deleteAll(connection))
            XCTAssertEqual(try City.all().count(connection), count)
            XCTAssertThrowsError(try request.fetch(connection)) { error in
                guard case RecordError.invalidQueryValue(let table, let column, _, let reason) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(table, "cities")
                XCTAssertEqual(column, "name")
                XCTAssertTrue(reason.contains("U+0000"), reason)
            }
        }
    }

    func testPatternsPastSQLitesLikeLimitRunOnPostgreSQLAndMatchAsSwiftDoes() throws {
        // 60,000 bytes, past the 50,000 that SQLite's LIKE takes (like(_:) is refused there): PostgreSQL's
        // LIKE and ILIKE have no such limit.
        let long = String(repeating: "a", count: 60_000)
        var upper = City(id: nil, countryCode: "XX", name: long.uppercased() + "ville", population: 1, token: nil)
        var lower = City(id: nil, countryCode: "XX", name: "x" + long, population: 2, token: nil)
        try upper.insert(connection)
        try lower.insert(connection)
        let names = try text("SELECT string_agg(name, ',' ORDER BY id) FROM cities")
        XCTAssertEqual(try City.filter(Column("name").like(long + "%")).fetch(connection).map(\.id), [upper.id])
        XCTAssertEqual(try City.filter(Column("name").like("%x" + long)).count(connection), 1)
        XCTAssertEqual(
            try City.filter(Column("name").contains(long)).order(Column("id").ascending).fetch(connection).map(\.id),
            [upper.id, lower.id])
        XCTAssertEqual(try City.filter(Column("name").hasPrefix(long + "VILLE")).count(connection), 1)
        XCTAssertEqual(try City.filter(Column("name").caseInsensitiveHasSuffix("x" + long)).count(connection), 1)
        // Many wildcards: PostgreSQL gives up at the first `%` that cannot match, with no deep recursion.
        let wild = String(repeating: "%a", count: 30_000) + "b"
        XCTAssertEqual(try City.filter(Column("name").like(wild)).count(connection), 0)
        XCTAssertEqual(try City.filter(Column("name").like(wild)).deleteAll(connection), 0)
        XCTAssertEqual(try text("SELECT string_agg(name, ',' ORDER BY id) FROM cities"), names)
        XCTAssertEqual(try City.filter(Column("name").notLike(long + "%")).deleteAll(connection), 5)
        XCTAssertEqual(try text("SELECT string_agg(name, ',' ORDER BY id) FROM cities"), upper.name)
    }

    func testShortListsAreInAndLongListsOneArrayWithAny() throws {
        XCTAssertEqual(
            try sql(City.filter(Column("name").in(["Paris", "Lyon"]))),
            #"SELECT * FROM "cities" WHERE "name" IN ($1, $2)"#)
        let ids = Array(Int64(1)...700)
        let long = City.filter(Column("id").in(ids)).order(Column("id").ascending)
        XCTAssertEqual(try sql(long), #"SELECT * FROM "cities" WHERE "id" = ANY($1) ORDER BY "id" ASC NULLS FIRST"#)
        XCTAssertEqual(try long.fetch(connection).count, 4)
        XCTAssertEqual(
            try sql(City.filter(Column("id").notIn(Array(Int64(2)...700)))),
            #"SELECT * FROM "cities" WHERE NOT ("id" = ANY($1))"#)
        XCTAssertEqual(try City.filter(Column("id").notIn(Array(Int64(2)...700))).fetch(connection).map(\.name), ["Paris"])
        let names = ["Lyon", "Berlin"] + (0..<600).map { "n\($0)" }
        XCTAssertEqual(
            try City.filter(Column("name").in(names)).order(Column("name").ascending).fetch(connection).map(\.name),
            ["Berlin", "Lyon"])
        let tokens = [self.tokens[1]] + (0..<600).map { _ in UUID() }
        XCTAssertEqual(try City.filter(Column("token").in(tokens)).fetch(connection).map(\.name), ["Lyon"])
        XCTAssertEqual(try City.filter(Column("token") == self.tokens[2]).fetch(connection).map(\.name), ["Berlin"])
        XCTAssertEqual(try City.filter(Column("id").in([Int64]())).count(connection), 0)
    }

    func testUnknownColumnIsAThrownErrorBeforeAnythingRuns() throws {
        XCTAssertThrowsError(try City.filter(Column("populaton") > 1).fetch(connection)) { error in
            guard case RecordError.unknownColumn(let table, let column, let columns) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "cities")
            XCTAssertEqual(column, "populaton")
            XCTAssertEqual(columns, ["id", "name", "population", "token", "country_code"])
        }
    }

    func testSQLOfYourOwnNumbersItsParametersFromOne() throws {
        let request = City.filter(Column("country_code") == "DE").filter(sql: "length(name) > $1", arguments: [6])
        XCTAssertEqual(try sql(request), #"SELECT * FROM "cities" WHERE "country_code" = $1 AND (length(name) > $2)"#)
        XCTAssertEqual(try request.fetch(connection).map(\.name), ["Ärzteheim 50%_off"])
    }

    func testPoolRunsRequestsInTransactionsOfTheirOwn() async throws {
        let count = try await City.filter(Column("country_code") == "FR").count(pool)
        XCTAssertEqual(count, 2)
        let largest = try await City.order(Column("population").descending).fetchOne(pool)
        XCTAssertEqual(largest?.name, "Berlin")
        let deleted = try await City.filter(Column("country_code") == "FR").deleteAll(pool)
        XCTAssertEqual(deleted, 2)
        XCTAssertEqual(try text("SELECT count(*)::text FROM cities"), "2")
    }
}
#endif
