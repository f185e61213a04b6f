import Foundation
import SQLiteRecord
import XCTest

/// `orderBy:` of `fetch(where:orderBy:)` and `fetchOne(where:orderBy:)` takes strings, the record's coding
/// keys and `Column`s, ascending or descending, and sorts the fetched rows by them in order of precedence.
final class RecordOrderingTests: XCTestCase {
    private struct Town: Record, Equatable {
        var id: Int64?
        var name: String
        var countryCode: String
        var population: Int?
        static let tableName = "towns"
        enum CodingKeys: String, CodingKey {
            case id, name, population
            case countryCode = "country_code"
        }
    }

    /// The record's columns are snake case through its key strategy: `countryCode` is stored in `country_code`.
    private struct Village: Record, Equatable {
        var id: Int64?
        var villageName: String
        var headCount: Int
        static let tableName = "villages"
        static let recordEncoder: RecordEncoder = {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }()
        static let rowDecoder: RowDecoder = {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }()
    }

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT NOT NULL,
                  population INTEGER);
                INSERT INTO towns (id, name, country_code, population) VALUES
                  (1, 'Lyon', 'FR', 522000), (2, 'Bern', 'CH', 134000), (3, 'Nice', 'FR', 342000),
                  (4, 'Basel', 'CH', 177000), (5, 'Albi', 'FR', NULL);
                CREATE TABLE villages (id INTEGER PRIMARY KEY, village_name TEXT NOT NULL, head_count INTEGER NOT NULL);
                INSERT INTO villages VALUES (1, 'Gruyères', 2200), (2, 'Èze', 2300), (3, 'Riquewihr', 1100);
                """)
        return db
    }

    private func names(_ towns: [Town]) -> [String] { towns.map(\.name) }

    func testStringsCodingKeysAndColumnsSortAlike() throws {
        let db = try makeDatabase()
        let byPopulation = ["Lyon", "Nice", "Basel", "Bern", "Albi"]  // descending: NULL last
        XCTAssertEqual(names(try Town.fetch(db, orderBy: [.descending("population")])), byPopulation)
        XCTAssertEqual(names(try Town.fetch(db, orderBy: [.descending(Town.CodingKeys.population)])), byPopulation)
        XCTAssertEqual(names(try Town.fetch(db, orderBy: [.descending(Column("population"))])), byPopulation)
        XCTAssertEqual(
            names(try Town.fetch(db, orderBy: [.ascending(Town.CodingKeys.population)])),
            ["Albi", "Bern", "Basel", "Nice", "Lyon"], "ascending: NULL first")
    }

    func testSeveralTermsSortInOrderOfPrecedence() throws {
        let db = try makeDatabase()
        XCTAssertEqual(
            names(
                try Town.fetch(
                    db, orderBy: [.ascending(Town.CodingKeys.countryCode), .descending(Town.CodingKeys.name)])),
            ["Bern", "Basel", "Nice", "Lyon", "Albi"])
        // Mixed forms in one list.
        XCTAssertEqual(
            names(try Town.fetch(db, orderBy: [.descending("country_code"), .ascending(Column("name"))])),
            ["Albi", "Lyon", "Nice", "Basel", "Bern"])
        XCTAssertEqual(
            names(
                try Town.fetch(db, where: ["country_code": "FR"], orderBy: [.ascending(Town.CodingKeys.name)], limit: 2)
            ),
            ["Albi", "Lyon"])
        XCTAssertEqual(
            try Town.fetchOne(db, where: ["country_code": "CH"], orderBy: [.descending(Town.CodingKeys.population)])?
                .name,
            "Basel")
        XCTAssertEqual(
            names(
                try Town.fetch(
                    db, where: "population > ?", arguments: [200_000], orderBy: [.ascending(Town.CodingKeys.population)]
                )),
            ["Nice", "Lyon"])
    }

    func testACodingKeyNamesTheColumnOfTheKeyStrategy() throws {
        let db = try makeDatabase()
        enum Key: String, CodingKey { case villageName, headCount }
        XCTAssertEqual(
            try Village.fetch(db, orderBy: [.descending(Key.headCount)]).map(\.villageName),
            ["Èze", "Gruyères", "Riquewihr"])
        XCTAssertEqual(
            try Village.fetch(db, orderBy: [.ascending(Key.villageName)]).map(\.villageName),
            ["Gruyères", "Riquewihr", "Èze"], "BINARY order: 'È' (UTF-8 C3 88) after the ASCII letters")
        // A string is the column's own name: no key strategy applies.
        XCTAssertThrowsError(try Village.fetch(db, orderBy: [.ascending("headCount")])) { error in
            guard case RecordError.unknownColumn(let table, let column, _)? = error as? RecordError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "villages")
            XCTAssertEqual(column, "headCount")
        }
    }

    func testAnUnknownColumnIsAThrownErrorWhateverTheForm() throws {
        let db = try makeDatabase()
        for ordering in [Ordering.ascending("nope"), .descending(Column("nope"))] {
            XCTAssertThrowsError(try Town.fetch(db, orderBy: [ordering])) { error in
                guard case RecordError.unknownColumn(let table, let column, _)? = error as? RecordError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(table, "towns")
                XCTAssertEqual(column, "nope")
            }
        }
    }

    func testAnOrderingSaysItsColumnAndDirection() {
        XCTAssertEqual(Ordering.descending(Town.CodingKeys.countryCode).column, "country_code")
        XCTAssertTrue(Ordering.descending("population").isDescending)
        XCTAssertFalse(Ordering.ascending(Column("name")).isDescending)
        XCTAssertEqual(Ordering.ascending("name"), .ascending(Column("name")), "a string and a Column name alike")
        XCTAssertNotEqual(Ordering.ascending("name"), .descending("name"))
    }
}
