import Foundation
import SQLiteRecord
import XCTest

final class StatementTests: XCTestCase {
    func testBindsAndReadsEveryStorageClassExactly() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        let values: [SQLiteValue] = [
            .null, .integer(Int64.min), .integer(Int64.max), .real(-0.5), .real(1e308), .text(""), .text("é\u{0}x"),
            .blob(Data()), .blob(Data([0, 1, 255])),
        ]
        for value in values {
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: StatementArguments([value]))
        }
        let statement = try db.makeStatement(sql: "SELECT v, typeof(v) FROM t ORDER BY rowid")
        var read: [SQLiteValue] = []
        var types: [String] = []
        while try statement.step() {
            read.append(statement.value(at: 0))
            types.append(statement.string(at: 1))
        }
        XCTAssertEqual(read, values)
        // An empty string stays TEXT and an empty blob stays BLOB: neither becomes NULL.
        XCTAssertEqual(types, ["null", "integer", "integer", "real", "real", "text", "text", "blob", "blob"])
    }

    func testArgumentsFromSwiftValues() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let arguments: StatementArguments = [
            1, Int8(-2), UInt32(3), 1.5, Float(0.5), true, "x", Data([7]), date, uuid, nil,
        ]
        XCTAssertEqual(
            arguments.values,
            [
                .integer(1), .integer(-2), .integer(3), .real(1.5), .real(0.5), .integer(1), .text("x"),
                .blob(Data([7])), .text("2023-11-14 22:13:20.250"), .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
                .null,
            ])
    }

    func testMakeStatementRefusesTwoStatementsButAllowsATrailingComment() throws {
        let db = try Database()
        XCTAssertNoThrow(try db.makeStatement(sql: "SELECT 1; -- done"))
        XCTAssertThrowsError(try db.makeStatement(sql: "SELECT 1; SELECT 2")) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
        }
        XCTAssertThrowsError(try db.makeStatement(sql: "  -- nothing")) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
        }
    }

    func testAStatementThatFailedCanRunAgain() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v NOT NULL)")
        let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
        try insert.bind([nil])
        XCTAssertThrowsError(try insert.step())
        try insert.bind([1])
        XCTAssertFalse(try insert.step())
        XCTAssertEqual(try WorldFixtures.rowCount(db, "t"), 1)
    }

    func testColumnNames() throws {
        let db = try Database()
        let statement = try db.makeStatement(sql: "SELECT 1 AS \"order\", 2 AS \"group\"")
        XCTAssertEqual(statement.columnNames, ["order", "group"])
    }
}
