#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A column name longer than PostgreSQL's 63-byte identifiers: the server cuts it, in `CREATE TABLE` and in
/// every statement alike, so the library's column checks compare it cut the same way.
final class PostgresLongIdentifierTests: PostgresTestCase {
    /// The value's column name is 65 bytes in UTF-8: the server keeps 62 of them, since the two-byte `é` that
    /// follows would end past the 63rd.
    struct Reading: Record, Equatable {
        var id: Int64?
        var value: Int64
        static let tableName = "readings"
        enum CodingKeys: String, CodingKey {
            case id
            case value = "ünïcödé_measurement_taken_at_the_northern_station_every_hxés"
        }
    }

    func testAWhereFilterAndARequestOnAColumnNameTheServerCutsFindTheColumn() throws {
        XCTAssertGreaterThan(Reading.CodingKeys.value.rawValue.utf8.count, 63)
        try Reading.createTable(in: connection)
        var reading = Reading(id: nil, value: 42)
        try reading.save(connection)
        XCTAssertEqual(
            try Reading.fetch(connection, where: [Reading.CodingKeys.value.rawValue: 42]), [reading])
        XCTAssertEqual(
            try Reading.filter(Column(Reading.CodingKeys.value.rawValue) == 42).fetchOne(connection), reading)
        let stored = try connection.columns(of: "readings")
        XCTAssertEqual(stored.last?.utf8.count, 62)
    }
}
#endif
