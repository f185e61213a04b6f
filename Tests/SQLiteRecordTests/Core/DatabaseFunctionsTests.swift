import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// SQLite one call away: the raw handle, and Swift functions and collations registered safely.
final class DatabaseFunctionsTests: XCTestCase {
    func testTheRawHandleIsTheConnection() throws {
        let db = try Database()
        // A limit set through the handle applies to the connection's statements.
        sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 10)
        XCTAssertEqual(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, -1), 10)
        XCTAssertThrowsError(try db.execute(sql: "SELECT 'more than ten bytes'")) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .tooBig)
        }
    }

    func testASwiftFunctionReceivesArgumentsAndReturnsEveryStorageClass() throws {
        let db = try Database()
        try db.createFunction("reversed", argumentCount: 1, isDeterministic: true) { arguments in
            guard case .text(let text) = arguments[0] else { return nil }
            return String(text.reversed())
        }
        try db.createFunction("echo", argumentCount: -1) { arguments in arguments.last ?? .null }
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT reversed('Ada')"), "adA")
        XCTAssertNil(try db.scalar(String.self, sql: "SELECT reversed(3)"), "nil is NULL")
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT reversed('')"), "")
        for literal in ["NULL", "42", "2.5", "'text'", "x'0102'", "''", "x''"] {
            XCTAssertEqual(
                try db.scalar(SQLiteValue.self, sql: "SELECT echo(1, \(literal))"),
                try db.scalar(SQLiteValue.self, sql: "SELECT \(literal)"), literal)
        }
        // Deterministic: usable in an index expression.
        try db.execute(sql: "CREATE TABLE t(name TEXT); CREATE INDEX t_reversed ON t(reversed(name))")
    }

    func testWhatAFunctionThrowsIsTheStatementsError() throws {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "refused by Swift" }
        }
        let db = try Database()
        try db.createFunction("refuse", argumentCount: 0) { _ in throw Refused() }
        XCTAssertThrowsError(try db.execute(sql: "SELECT refuse()")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "refused by Swift")
        }
        // A UInt64 above Int64.max has no SQLite form: an error, not a silent REAL.
        try db.createFunction("huge", argumentCount: 0) { _ in UInt64.max }
        XCTAssertThrowsError(try db.execute(sql: "SELECT huge()"))
        XCTAssertThrowsError(try db.createFunction("", argumentCount: 200) { _ in nil })
    }

    func testReplacingAndClosingReleaseTheFunction() throws {
        final class Token: Sendable {}
        weak var weakToken: Token?
        /// Registers `name` as a function that holds a new token, and returns the token weakly.
        func register(_ name: String, on db: Database) throws {
            let token = Token()
            weakToken = token
            try db.createFunction(name, argumentCount: 0) { _ in
                _ = token
                return 1
            }
        }
        do {
            let db = try Database()
            try register("f", on: db)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT f()"), 1)
            XCTAssertNotNil(weakToken, "SQLite keeps the function")
            try db.createFunction("f", argumentCount: 0) { _ in 2 }
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT f()"), 2)
            XCTAssertNil(weakToken, "the replaced function is released")
            try register("g", on: db)
            XCTAssertNotNil(weakToken)
        }
        XCTAssertNil(weakToken, "closing the connection releases its functions")
    }

    func testACollationOrdersAndCompares() throws {
        let db = try Database()
        try db.createCollation("byLength") { left, right in
            left.count == right.count ? .orderedSame : left.count < right.count ? .orderedAscending : .orderedDescending
        }
        try db.execute(sql: "CREATE TABLE t(name TEXT COLLATE byLength); INSERT INTO t VALUES ('ccc'), ('a'), ('bb')")
        XCTAssertEqual(
            try db.fetchAll(sql: "SELECT name FROM t ORDER BY name").map { try $0[0, as: String.self] },
            [
                "a", "bb", "ccc",
            ])
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM t WHERE name = 'zz'"), 1)
    }
}
