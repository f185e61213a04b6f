import Foundation
import SQLiteRecord
import XCTest

/// Bad input to a request is a clear error before anything runs, naming the column and the value's type.
final class RecordRequestBadInputTests: XCTestCase {
    private var db: Database!
    private let columns = ["id", "title", "genre", "pages", "rating", "published_at", "isbn", "in_print", "price"]

    override func setUpWithError() throws {
        db = try QueryFixtures.makeDatabase()
    }

    private struct Point: Codable, Sendable {
        var x: Int
        var y: Int
    }

    /// A record type whose coding key names no column of the table.
    private struct Ghost: Record {
        var id: Int64?
        var haunts: Int
        static let tableName = "novels"
        enum CodingKeys: String, CodingKey, ColumnExpression {
            case id, haunts
        }
    }

    func testUnknownColumnsAreNamed() throws {
        let calls: [(String, () throws -> Any)] = [
            ("filter", { try Novel.filter(Column("nope") == 1).fetch(self.db) }),
            ("coding key", { try Ghost.filter(Ghost.CodingKeys.haunts > 1).fetch(self.db) }),
            ("order", { try Novel.order(Column("nope").descending).fetch(self.db) }),
            ("select", { try Novel.select(Column("nope")).fetch(self.db, as: Int.self) }),
            ("group", { try Novel.select(SQLExpression.countAll).group(Column("nope")).count(self.db) }),
            ("hasPrefix", { try Novel.filter(Column("nope").hasPrefix("a")).exists(self.db) }),
            ("empty in", { try Novel.filter(Column("nope").in([Int]())).fetch(self.db) }),
            ("updateAll", { try Novel.all().updateAll(self.db, Column("nope").set(to: 1)) }),
            ("deleteAll", { try Novel.filter(Column("nope") == nil).deleteAll(self.db) }),
        ]
        for (call, run) in calls {
            XCTAssertThrowsError(try run(), call) { error in
                let expected = call == "coding key" ? "haunts" : "nope"
                XCTAssertEqual(
                    error as? RecordError, .unknownColumn(table: "novels", column: expected, columns: columns), call)
            }
        }
        XCTAssertEqual(try Novel.all().count(db), 5, "nothing was deleted")
    }

    func testValuesNoColumnCanHold() throws {
        let calls: [(String, String?, String, () throws -> Any)] = [
            ("NaN", "rating", "Double", { try Novel.filter(Column("rating") > Double.nan).fetch(self.db) }),
            ("NaN in a list", "rating", "Double", { try Novel.filter(Column("rating").in([1, .nan])).count(self.db) }),
            ("UInt64", "pages", "UInt64", { try Novel.filter(Column("pages") == UInt64.max).count(self.db) }),
            ("no column", nil, "Double", { try Novel.select(SQLExpression.value(Double.nan)).count(self.db) }),
        ]
        for (call, column, type, run) in calls {
            XCTAssertThrowsError(try run(), call) { error in
                guard
                    case .invalidQueryValue(let table, let errorColumn, let errorType, let reason)? = error
                        as? RecordError
                else { return XCTFail("\(call): \(error)") }
                XCTAssertEqual(table, "novels", call)
                XCTAssertEqual(errorColumn, column, call)
                XCTAssertEqual(errorType, type, call)
                XCTAssertFalse(reason.isEmpty, call)
            }
        }
        XCTAssertEqual(try Novel.filter(Column("pages") == 412).count(db), 1, "nothing was updated")
    }

    /// A struct or an array is the record encoder's JSON text, the form `save()` writes such a property in,
    /// as PostgreSQL binds it as what it stores (JSONB, an array).
    func testANestedValueIsTheJSONTextSaveWrites() throws {
        XCTAssertEqual(try Novel.filter(Column("pages") == Point(x: 1, y: 2)).count(db), 0)
        XCTAssertEqual(
            try Novel.select(SQLExpression.value(Point(x: 1, y: 2))).fetchOne(db, as: String.self), #"{"x":1,"y":2}"#)
        XCTAssertEqual(try Novel.select(SQLExpression.value([1, 2])).fetchOne(db, as: String.self), "[1,2]")
        let first = try XCTUnwrap(Novel.order(Column("id")).fetchOne(db))
        XCTAssertEqual(
            try Novel.filter(Column("id") == first.id).updateAll(db, Column("genre").set(to: Point(x: 3, y: 4))), 1)
        XCTAssertEqual(
            try Novel.filter(Column("genre") == Point(x: 3, y: 4)).select(Column("id")).fetchOne(db, as: Int64.self),
            first.id)
    }

    func testTheMessagesSayWhatAndWhere() {
        XCTAssertThrowsError(try Novel.filter(Column("rating") < Double.nan).fetch(db)) { error in
            XCTAssertEqual(
                "\(error)",
                "A Double value cannot be compared with or stored in column \"rating\" of table \"novels\": Cannot "
                    + "store Double NaN in column \"rating\" of table \"novels\": NaN is refused on every engine (SQLite would store it as NULL, PostgreSQL would match it in a filter and sort it above every number)")
        }
    }

    func testGroupedRequestsDoNotDeleteOrUpdate() throws {
        let grouped = Novel.all().group(Column("genre"))
        XCTAssertThrowsError(try grouped.deleteAll(db)) { error in
            guard case .invalidQuery(let table, _)? = error as? RecordError else { return XCTFail("\(error)") }
            XCTAssertEqual(table, "novels")
        }
        XCTAssertThrowsError(try grouped.having(count(Column("id")) > 1).updateAll(db, Column("pages").set(to: 0)))
        XCTAssertEqual(try Novel.all().count(db), 5)
    }

    func testSQLOfYourOwnReportsSQLitesError() {
        XCTAssertThrowsError(try Novel.filter(sql: "no_such_column > ?", arguments: [1]).fetch(db)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .error, "\(error)")
        }
    }
}
