#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The pool example, the row initializer example and the COPY example of the PostgreSQL article
/// (PostgresRecord.docc/PostgreSQL.md), run as written.
final class PostgreSQLArticleTests: PostgresTestCase {
    struct Country: Record, Sendable {
        var id: Int64?
        var name: String
        var iso: String
        var population: Int64
        static let tableName = "countries"
    }

    struct City: Record, Sendable {
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

    struct Town: Record, Equatable {
        var id: Int64?
        var name: String
        var population: Int
        var foundedAt: Date?
        static let tableName = "towns"
        enum CodingKeys: String, CodingKey {
            case id, name, population
            case foundedAt = "founded_at"
        }
    }

    func testTheRowInitializerExample() throws {
        try Town.createTable(in: connection)
        var lyon = Town(id: nil, name: "Lyon", population: 522_250, foundedAt: Date(timeIntervalSince1970: -1_000))
        try lyon.insert(connection)
        var nice = Town(id: nil, name: "Nice", population: 342_669, foundedAt: nil)
        try nice.insert(connection)
        let towns = try Town.fetch(connection, sql: "SELECT id, name, population, founded_at FROM towns ORDER BY id")
        XCTAssertEqual(towns.map(\.id), [1, 2])
        XCTAssertEqual(towns.map(\.name), ["Lyon", "Nice"])
        XCTAssertEqual(towns.map(\.population), [522_250, 342_669])
        XCTAssertEqual(towns.map(\.foundedAt), [Date(timeIntervalSince1970: -1_000), nil])
        // Read by init(row:): a row whose third column is not the population says so.
        XCTAssertThrowsError(try Town.fetch(connection, sql: "SELECT id, name, founded_at, population FROM towns")) {
            guard case .typeMismatch(_, let context) = $0 as? DecodingError else { return XCTFail("\($0)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["founded_at"])
        }
        // Town: Equatable, with Lyon and Nice in its table
        XCTAssertEqual(try Town.checkRowInitializer(connection), 2)
        XCTAssertEqual(try Town.checkRowInitializer(connection, sql: "SELECT * FROM towns WHERE id < $1", arguments: [2]), 1)
    }

    /// The COPY example of "Bulk loads through COPY", as written.
    func testTheCopyInExample() async throws {
        try City.createTable(in: connection)
        func loadCities() throws -> [City] {
            (1...1_000).map { City(id: nil, countryId: nil, name: "city \($0)", population: $0) }
        }
        let pool = self.pool!
        var more = [City(id: nil, countryId: nil, name: "Lyon", population: 522_969)]

        var cities = try loadCities()                    // [City], ids nil
        try City.copyIn(connection, &cities)             // one transaction; every city has its id
        try await City.copyIn(pool, &more)               // through a pool, a transaction of its own

        XCTAssertEqual(cities.map(\.id), (1...1_000).map { Int64($0) })
        XCTAssertEqual(more.map(\.id), [1_001])
        XCTAssertEqual(
            try text("SELECT count(*)::text || ' ' || max(name) FILTER (WHERE id = 1001) FROM cities"), "1001 Lyon")
    }

    func testThePoolExample() async throws {
        try Country.createTable(in: connection)
        try City.createTable(in: connection)
        let pool = self.pool!
        try await pool.write { connection in
            var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
            try france.save(connection)  // INSERT ... RETURNING "id": france.id is set
        }
        try await pool.write { connection in
            var paris = City(id: nil, countryId: 1, name: "Paris", population: 2_138_551)
            try paris.save(connection)
        }
        let cities = try await pool.read { connection in
            try City.fetch(connection, where: ["country_id": 1], orderBy: [.descending("population")])
        }
        XCTAssertEqual(cities.map(\.name), ["Paris"])
        XCTAssertEqual(try text("SELECT id || ' ' || name FROM countries"), "1 France")
    }
}
extension PostgreSQLArticleTests.Town: FetchableRecord {  // in an extension, so the memberwise initializer stays
    init(row: borrowing FetchedRow) throws {
        id = try row["id", as: Int64?.self]
        name = try row["name", as: String.self]
        population = try row[2, as: Int.self]  // by index, counted from 0 in the SELECT's order
        foundedAt = try row["founded_at", as: Date?.self]
    }
}
#endif
