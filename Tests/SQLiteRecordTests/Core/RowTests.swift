import Foundation
import SQLiteRecord
import XCTest

final class RowTests: XCTestCase {
    private func makeRow(_ sql: String) throws -> Row {
        try XCTUnwrap(try Database().fetchOne(sql: sql))
    }

    func testNamesValuesAndSubscripts() throws {
        let row = try makeRow("SELECT 1 AS id, 'Paris' AS Name, NULL AS founded_at, 2.5 AS score, x'00ff' AS raw")
        XCTAssertEqual(row.columnNames, ["id", "Name", "founded_at", "score", "raw"])
        XCTAssertEqual(row.values, [1, "Paris", nil, 2.5, .blob(Data([0, 255]))])
        XCTAssertEqual(row.count, 5)
        XCTAssertEqual(row[1], "Paris")
        XCTAssertEqual(row["Name"], "Paris")
        XCTAssertEqual(row["name"], "Paris", "names match ASCII case-insensitively, as in SQLite")
        XCTAssertEqual(row["NAME"], "Paris")
        XCTAssertEqual(row["founded_at"], .null, "NULL is a value, not a missing column")
        XCTAssertNil(row["population"])
        XCTAssertTrue(row.hasColumn("ID"))
        XCTAssertFalse(row.hasColumn("population"))
        XCTAssertEqual(row.description, "[id: 1, Name: 'Paris', founded_at: NULL, score: 2.5, raw: <2 bytes>]")
    }

    func testTheLeftmostOfTwoColumnsWithTheSameNameWins() throws {
        let row = try makeRow("SELECT 1 AS id, 2 AS ID, 3 AS id")
        XCTAssertEqual(row["id"], 1)
        XCTAssertEqual(row["Id"], 1)
        XCTAssertEqual(try row["ID", as: Int.self], 1)
        XCTAssertEqual(try row[2, as: Int.self], 3)
    }

    func testTypedReads() throws {
        let row = try makeRow(
            """
            SELECT 9733276 AS population, 'Tokyo' AS name, NULL AS founded_at, 35.6895 AS latitude, 1 AS capital,
                   '2021-03-14 15:09:26.535' AS updated_at, 175.0 AS height
            """)
        XCTAssertEqual(try row["population", as: Int.self], 9_733_276)
        XCTAssertEqual(try row["population", as: Int64.self], 9_733_276)
        XCTAssertEqual(try row["population", as: UInt32.self], 9_733_276)
        XCTAssertEqual(try row["population", as: Double.self], 9_733_276)
        XCTAssertEqual(try row["population", as: String.self], "9733276")
        XCTAssertEqual(try row["name", as: String.self], "Tokyo")
        XCTAssertEqual(try row["founded_at", as: Date?.self], nil)
        XCTAssertEqual(try row["founded_at", as: SQLiteValue.self], .null)
        XCTAssertEqual(try row["latitude", as: Double.self], 35.6895)
        XCTAssertEqual(try row["capital", as: Bool.self], true)
        XCTAssertEqual(try row["updated_at", as: Date.self], Date(timeIntervalSince1970: 1_615_734_566.535))
        XCTAssertEqual(try row["height", as: Int16.self], 175)
        XCTAssertEqual(try row[0, as: Int?.self], 9_733_276)
    }

    func testTypedReadErrorsNameTheColumnTheValueAndTheType() throws {
        let sql = "SELECT 70000 AS age, NULL AS born, 'abc' AS code, 1.5 AS half, 2 AS flag"
        let row = try makeRow(sql)
        let cases: [(() throws -> Any, ResultCode, String)] = [
            (
                { try row["age", as: Int16.self] }, .mismatch,
                "column \"age\" holds INTEGER 70000, which does not convert exactly to Int16"
            ),
            (
                { try row["born", as: Date.self] }, .mismatch,
                "column \"born\" is NULL, which Date cannot hold; read it as Date? to accept NULL"
            ),
            (
                { try row["code", as: Int.self] }, .mismatch,
                "column \"code\" holds TEXT 'abc', which does not convert exactly to Int"
            ),
            (
                { try row["half", as: Int.self] }, .mismatch,
                "column \"half\" holds REAL 1.5, which does not convert exactly to Int"
            ),
            (
                { try row["flag", as: Bool.self] }, .mismatch,
                "column \"flag\" holds INTEGER 2, which does not convert exactly to Bool"
            ),
            (
                { try row["code", as: Int?.self] as Any }, .mismatch,
                "column \"code\" holds TEXT 'abc', which does not convert exactly to Optional<Int>"
            ),
            (
                { try row["agee", as: Int.self] }, .range,
                "no column named \"agee\" in the row; it has columns \"age\", \"born\", \"code\", \"half\", \"flag\""
            ),
            (
                { try row[5, as: Int.self] }, .range,
                "no column 5 in a row of 5 column(s): columns \"age\", \"born\", \"code\", \"half\", \"flag\""
            ),
            (
                { try row[-1, as: Int.self] }, .range,
                "no column -1 in a row of 5 column(s): columns \"age\", \"born\", \"code\", \"half\", \"flag\""
            ),
        ]
        for (read, code, message) in cases {
            XCTAssertThrowsError(try read()) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, code)
                XCTAssertEqual(error.message, message)
                XCTAssertEqual(error.sql, sql)
            }
        }
    }

    func testARowOutlivesItsStatementAndIsSendable() async throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1), (2)")
        let rows = try db.fetchAll(sql: "SELECT v FROM t ORDER BY v")
        try db.execute(sql: "DELETE FROM t")
        let sum = await Task.detached { rows.reduce(0) { $0 + ((try? $1[0, as: Int.self]) ?? 0) } }.value
        XCTAssertEqual(sum, 3)
    }

    func testEqualityHashingAndLiterals() throws {
        let built: Row = ["id": 1, "name": "Paris"]
        let fetched = try makeRow("SELECT 1 AS id, 'Paris' AS name")
        XCTAssertEqual(built, fetched)
        XCTAssertEqual(built.hashValue, fetched.hashValue)
        XCTAssertNotEqual(built, ["id": 1, "label": "Paris"] as Row)
        XCTAssertNotEqual(built, ["id": 2, "name": "Paris"] as Row)
        XCTAssertEqual(Set([built, fetched]).count, 1)
        XCTAssertEqual(try built["name", as: String.self], "Paris")
    }
}
