#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The pool example of the PostgreSQL article (PostgresRecord.docc/PostgreSQL.md), run as written.
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
#endif
