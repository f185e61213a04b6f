import Foundation
import XCTest

@testable import SQLiteRecord

/// The row decoder reads columns through ``StatementColumn`` (`sqlite3_column_value`); ``StatementRow``
/// reads them with `sqlite3_column_*`. Both must read every stored value the same way.
final class StatementColumnTests: XCTestCase {
    func testReadsEveryStorageClassAsTheRowDoes() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        let values: [SQLiteValue] = [
            .null, .integer(Int64.min), .integer(Int64.max), .integer(0), .real(-0.5), .real(1e308), .text(""),
            .text("é\u{0}x"), .text("12"), .text("2.5"), .blob(Data()), .blob(Data([0, 1, 255])),
            .blob(Data("東京".utf8)),
        ]
        for value in values {
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: StatementArguments([value]))
        }
        // Text that is not UTF-8, as SQLite stores what it is given.
        try db.execute(sql: "INSERT INTO t VALUES (CAST(x'61FF62' AS TEXT))")

        let statement = try db.makeStatement(sql: "SELECT v FROM t ORDER BY rowid")
        var rows = 0
        while try statement.step() {
            rows += 1
            // Each pair reads the same SQLite value one after the other: a text read of a number adds the
            // text to that value in place, for both sides alike.
            let row = statement.row
            XCTAssertEqual(StatementColumn(row, at: 0).storageClass, row.columnType(at: 0))
            XCTAssertEqual(StatementColumn(row, at: 0).int64, row.int64(at: 0))
            XCTAssertEqual(StatementColumn(row, at: 0).double.bitPattern, row.double(at: 0).bitPattern)
            XCTAssertEqual(StatementColumn(row, at: 0).data, row.data(at: 0))
            XCTAssertEqual(StatementColumn(row, at: 0).validatedString, row.validatedString(at: 0))
            XCTAssertEqual(
                StatementColumn(row, at: 0).withUTF8 { Array($0) }, row.withUTF8(at: 0) { Array($0) })
        }
        XCTAssertEqual(rows, values.count + 1)
    }

    func testTextThatIsNotUTF8IsRefused() throws {
        let db = try Database()
        // The third holds a NUL before its invalid byte: the text up to the NUL is valid on its own.
        let statement = try db.makeStatement(
            sql: "SELECT CAST(x'61FF62' AS TEXT), 'a\u{FFFD}b', CAST(x'6100FF' AS TEXT), CAST(x'610062' AS TEXT)")
        XCTAssertTrue(try statement.step())
        XCTAssertNil(StatementColumn(statement.row, at: 0).validatedString)
        XCTAssertEqual(StatementColumn(statement.row, at: 1).validatedString, "a\u{FFFD}b")
        XCTAssertNil(StatementColumn(statement.row, at: 2).validatedString)
        XCTAssertEqual(StatementColumn(statement.row, at: 3).validatedString, "a\u{0}b")
    }
}
