import Foundation
import SQLiteRecord
import XCTest

final class RecordConventionsTests: XCTestCase {
    private struct CityName: Record, Equatable {
        var id: Int64?
        var value: String
    }

    private struct Town: Record, Equatable {
        var id: Int64?
        var name: String
        static let tableName = "my towns \"old\""
        static let primaryKeyColumn = "town_id"
        enum CodingKeys: String, CodingKey {
            case id = "town_id"
            case name
        }
    }

    func testTableNameDefaultsToLowerCamelCaseTypeName() throws {
        XCTAssertEqual(CityName.tableName, "cityName")
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cityName(id INTEGER PRIMARY KEY, value TEXT)")
        var name = CityName(id: nil, value: "Zürich")
        try name.save(db)
        XCTAssertEqual(try CityName.fetchOne(db, id: 1), name)
    }

    func testPrimaryKeyColumnAndATableNameWithASpaceAndAQuote() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE \"my towns \"\"old\"\"\"(town_id INTEGER PRIMARY KEY, name TEXT)")
        var town = Town(id: nil, name: "Bern")
        try town.save(db)
        XCTAssertEqual(town.id, 1)
        town.name = "Berne"
        try town.save(db)
        XCTAssertEqual(try Town.fetchOne(db, id: 1), town)
        XCTAssertEqual(try Town.fetch(db, where: ["town_id": 1], orderBy: [.ascending("name")]), [town])
        XCTAssertTrue(try Town.exists(db, id: 1))
        XCTAssertTrue(try town.delete(db))
        XCTAssertFalse(try Town.exists(db, id: 1))
    }

    func testARenamedIDWithoutPrimaryKeyColumnIsAClearError() throws {
        struct Renamed: Record {
            var id: Int64?
            static let tableName = "renamed"
            enum CodingKeys: String, CodingKey { case id = "renamed_id" }
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE renamed(renamed_id INTEGER PRIMARY KEY)")
        var record = Renamed(id: nil)
        XCTAssertThrowsError(try record.save(db)) { error in
            XCTAssertEqual(error as? RecordError, .missingPrimaryKey(table: "renamed", column: "id"))
        }
    }
}
