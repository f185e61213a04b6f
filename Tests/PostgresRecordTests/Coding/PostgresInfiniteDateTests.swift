#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// PostgreSQL's `'infinity'` and `'-infinity'` timestamps and dates have no `Date`: reading one throws
/// `dataCorrupted` naming the column and the value, on every read path, rather than making up a finite date
/// that would save back as another value.
final class PostgresInfiniteDateTests: PostgresTestCase {
    struct Event: Record, Equatable {
        var id: Int64?
        var at: Date
        static let tableName = "events"
    }

    struct Row: Decodable { var at: Date }

    func testInfinityIsDataCorruptedOnEveryReadPath() throws {
        try Event.createTable(in: connection)
        try connection.execute("INSERT INTO events (id, at) VALUES (1, 'infinity'), (2, '-infinity'), (3, now())")
        for id in [Int64(1), 2] {
            XCTAssertThrowsError(try Event.fetchOne(connection, id: id)) { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
                let sign = id == 1 ? "" : "-"
                XCTAssertTrue(
                    context.debugDescription.contains("column \"at\""), context.debugDescription)
                XCTAssertTrue(
                    context.debugDescription.contains("PostgreSQL's '\(sign)infinity', which no Date holds"),
                    context.debugDescription)
            }
        }
        XCTAssertNotNil(try Event.fetchOne(connection, id: 3))
        XCTAssertThrowsError(try connection.query("SELECT 'infinity'::date AS at").decode(Row.self)) { error in
            guard case DecodingError.dataCorrupted = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try connection.query("SELECT 'infinity'::timestamp AS at").decode(Row.self))
    }
}
#endif
