import Foundation
import SQLiteRecord
import XCTest

final class StatementArgumentsTests: XCTestCase {
    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a, b, c)")
        return db
    }

    private func rows(_ db: Database) throws -> [[SQLiteValue]] {
        try db.fetchAll(sql: "SELECT a, b, c FROM t ORDER BY rowid").map(\.values)
    }

    private func rangeError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            try body()
            XCTFail("expected an error", file: file, line: line)
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .range, file: file, line: line)
            return error.message
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testNamedParametersWithEachPrefix() throws {
        let db = try makeDatabase()
        try db.execute(
            sql: "INSERT INTO t VALUES (:name, @population, $founded)",
            arguments: ["name": "Tokyo", "population": 9_733_276, "founded": nil])
        try db.execute(sql: "INSERT INTO t VALUES (:x, :x, :y)", arguments: [":x": 1, "y": 2.5])
        let fetched = try db.fetchOne(sql: "SELECT a FROM t WHERE b = @p", arguments: ["p": 9_733_276])
        XCTAssertEqual(fetched?.values, [.text("Tokyo")])
        XCTAssertEqual(try rows(db), [[.text("Tokyo"), .integer(9_733_276), .null], [1, 1, 2.5]])
    }

    func testNamedAndPositionalTogether() throws {
        let db = try makeDatabase()
        let arguments = StatementArguments([.text("x"), .text("z")], named: ["middle": .integer(2)])
        try db.execute(sql: "INSERT INTO t VALUES (?, :middle, ?)", arguments: arguments)
        XCTAssertEqual(try rows(db), [[.text("x"), .integer(2), .text("z")]])
    }

    func testAnArrayBindsNamedParametersInOrder() throws {
        let db = try makeDatabase()
        try db.execute(sql: "INSERT INTO t VALUES (:a, :b, ?3)", arguments: [1, 2, 3])
        XCTAssertEqual(try rows(db), [[1, 2, 3]])
    }

    func testAMissingNamedArgumentIsAnErrorBeforeAnythingRuns() throws {
        let db = try makeDatabase()
        let sql = "INSERT INTO t VALUES (:a, :b, :c)"
        for run in [
            { try db.execute(sql: sql, arguments: ["a": 1, "c": 3]) },
            { _ = try db.fetchAll(sql: sql, arguments: ["a": 1, "c": 3]) },
        ] {
            XCTAssertEqual(rangeError(run), "no value for the named parameter b; the named arguments are: a, c")
        }
        XCTAssertEqual(try rows(db), [])
    }

    func testAnUnusedNamedArgumentIsAnErrorBeforeAnythingRuns() throws {
        let db = try makeDatabase()
        XCTAssertEqual(
            rangeError { try db.execute(sql: "INSERT INTO t(a) VALUES (:a)", arguments: ["a": 1, "colour": "red"]) },
            "the named argument(s) colour match no parameter; the SQL's named parameters are: a")
        XCTAssertEqual(
            rangeError { try db.execute(sql: "INSERT INTO t(a) VALUES (1)", arguments: ["a": 1]) },
            "the named argument(s) a match no parameter; the SQL's named parameters are: none")
        XCTAssertEqual(try rows(db), [])
    }

    func testAKeyGivenTwiceIsAnError() throws {
        let db = try makeDatabase()
        XCTAssertEqual(
            rangeError { try db.execute(sql: "INSERT INTO t(a) VALUES (:a)", arguments: ["a": 1, ":a": 2]) },
            "the named argument a is given twice")
        XCTAssertEqual(try rows(db), [])
    }

    func testWrongPositionalCountIsAnErrorBeforeAnythingRuns() throws {
        let db = try makeDatabase()
        let sql = "INSERT INTO t VALUES (?, ?, ?)"
        XCTAssertEqual(
            rangeError { try db.execute(sql: sql, arguments: [1, 2]) },
            "the SQL has 3 parameter(s) but 2 argument(s) were given")
        XCTAssertEqual(
            rangeError { try db.execute(sql: sql, arguments: [1, 2, 3, 4]) },
            "4 positional argument(s) were given but the SQL has 3 positional parameter(s)")
        XCTAssertEqual(
            rangeError { _ = try db.fetchAll(sql: sql, arguments: [1]) },
            "the SQL has 3 parameter(s) but 1 argument(s) were given")
        XCTAssertEqual(
            rangeError { _ = try db.scalar(Int.self, sql: "SELECT ?", arguments: []) },
            "the SQL has 1 parameter(s) but 0 argument(s) were given")
        XCTAssertEqual(
            rangeError { try db.execute(sql: "  -- nothing", arguments: [1]) },
            "1 argument(s) were given but the SQL holds no statement")
        XCTAssertEqual(try rows(db), [])
    }

    func testAScriptSpreadsPositionalArgumentsAndSharesNamedOnes() throws {
        let db = try makeDatabase()
        try db.execute(
            sql: "INSERT INTO t(a) VALUES (:x); INSERT INTO t(a, b) VALUES (:y, :x); DELETE FROM t WHERE a = 0",
            arguments: ["x": 1, "y": 2])
        XCTAssertEqual(try rows(db), [[1, nil, nil], [2, 1, nil]])
        // Leftovers are found before the last statement runs; the ones before it have run.
        XCTAssertEqual(
            rangeError {
                try db.execute(sql: "INSERT INTO t(a) VALUES (?); INSERT INTO t(a) VALUES (?)", arguments: [3, 4, 5])
            },
            "3 positional argument(s) were given but the SQL has 2 positional parameter(s)")
        XCTAssertEqual(try rows(db).count, 3)
        XCTAssertEqual(
            rangeError {
                try db.execute(
                    sql: "INSERT INTO t(a) VALUES (?); INSERT INTO t(a, b) VALUES (?, ?)", arguments: [6, 7])
            },
            "the SQL has 2 parameter(s) but only 1 of the 2 argument(s) remain for it (the statements before it took 1)"
        )
        XCTAssertEqual(try rows(db).count, 4)
    }

    func testAUInt64AboveInt64MaxIsAnErrorNotAWrap() throws {
        let db = try makeDatabase()
        XCTAssertEqual(UInt64(Int64.max).sqliteValue, .integer(Int64.max))
        XCTAssertEqual(try UInt64(Int64.max).checkedSQLiteValue(), .integer(Int64.max))
        XCTAssertEqual(
            UInt64.max.sqliteValue, .real(18_446_744_073_709_551_616), "the nearest double, as SQLite reads the literal"
        )
        XCTAssertThrowsError(try UInt64.max.checkedSQLiteValue()) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .mismatch)
        }
        XCTAssertThrowsError(try (UInt(Int64.max) + 1).checkedSQLiteValue())

        let big = UInt64(Int64.max) + 1
        let expected =
            "UInt64 9223372036854775808 is above Int64.max (9223372036854775807), the largest INTEGER SQLite "
            + "stores; store it as TEXT or as a bit pattern (Int64(bitPattern:)) instead"
        let cases: [(StatementArguments, String)] = [
            ([1, big, 3], "argument 2: " + expected),
            (["a": 1, "b": big, "c": 3], "argument b: " + expected),
            (StatementArguments([1, Optional(big) as any SQLiteValueConvertible, 3]), "argument 2: " + expected),
        ]
        for (arguments, message) in cases {
            for run in [
                { try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: arguments) },
                { _ = try db.fetchAll(sql: "INSERT INTO t VALUES (?, ?, ?) RETURNING a", arguments: arguments) },
            ] {
                XCTAssertThrowsError(try run()) { error in
                    guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                    XCTAssertEqual(error.resultCode, .mismatch)
                    XCTAssertEqual(error.message, message)
                }
            }
        }
        XCTAssertEqual(try rows(db), [])
        try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [UInt64(Int64.max), UInt(7), UInt8(255)])
        XCTAssertEqual(try rows(db), [[.integer(Int64.max), 7, 255]])
    }

    func testEveryConvertibleTypeBindsExactly() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE v(x)")
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let arguments: [StatementArguments] = [
            [Int.min], [Int8.min], [Int16.max], [Int32.min], [Int64.max], [UInt.min], [UInt8.max], [UInt16.max],
            [UInt32.max], [UInt64(Int64.max)], [-0.5], [Float(0.5)], [true], [false], ["é"], [Data([0, 255])],
            [date], [uuid], [nil], [SQLiteValue.real(1e300)],
        ]
        for argument in arguments {
            try db.execute(sql: "INSERT INTO v VALUES (?)", arguments: argument)
        }
        XCTAssertEqual(
            try db.fetchAll(sql: "SELECT x FROM v ORDER BY rowid").map { $0[0] },
            [
                .integer(Int64.min), -128, 32_767, .integer(Int64(Int32.min)), .integer(Int64.max), 0, 255, 65_535,
                4_294_967_295, .integer(Int64.max), -0.5, 0.5, 1, 0, "é", .blob(Data([0, 255])),
                "2023-11-14 22:13:20.250", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", nil, 1e300,
            ])
    }

    func testDescriptionAndAccessors() {
        let positional: StatementArguments = ["Tokyo", 3, nil, Data([1, 2])]
        XCTAssertEqual(positional.description, "['Tokyo', 3, NULL, <2 bytes>]")
        let named: StatementArguments = ["population": 3, "$name": "Tokyo"]
        XCTAssertEqual(named.description, "[name: 'Tokyo', population: 3]")
        XCTAssertEqual(named.namedValues, ["name": "Tokyo", "population": 3])
        XCTAssertEqual(named["@name"], "Tokyo")
        XCTAssertEqual(named["name"], "Tokyo")
        XCTAssertNil(named["iso"])
        XCTAssertTrue(StatementArguments().isEmpty)
        XCTAssertTrue(([:] as StatementArguments).isEmpty)
        XCTAssertFalse(named.isEmpty)
        XCTAssertEqual(StatementArguments(named: ["a": 1, "b": nil]), ["a": 1, "b": nil])
        XCTAssertNotEqual(["a": 1] as StatementArguments, [1])
    }
}
