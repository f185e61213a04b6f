import Foundation
import SQLiteRecord
import XCTest

final class DatabaseErrorTests: XCTestCase {
    private func error(_ body: () throws -> Void) -> DatabaseError? {
        do {
            try body()
            XCTFail("expected a DatabaseError")
        } catch let error as DatabaseError {
            return error
        } catch {
            XCTFail("expected a DatabaseError, got \(error)")
        }
        return nil
    }

    func testASyntaxErrorHoldsTheSQLInItsMessage() throws {
        let db = try Database()
        let sql = "SELEC name FROM cities"
        for run in [
            { try db.execute(sql: sql) }, { _ = try db.fetchAll(sql: sql) }, { _ = try db.makeStatement(sql: sql) },
        ] {
            let error = try XCTUnwrap(error(run))
            XCTAssertEqual(error.resultCode, .error)
            XCTAssertEqual(error.message, "near \"SELEC\": syntax error")
            XCTAssertEqual(error.sql, sql)
            XCTAssertNil(error.arguments)
            XCTAssertEqual(
                error.description,
                "SQLite error 1 (SQL logic error): near \"SELEC\": syntax error - while executing: SELEC name FROM cities"
            )
        }
    }

    func testConstraintCodesAndNamedChecks() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, code TEXT UNIQUE, n INTEGER CHECK (n > 0))")
        try db.execute(sql: "INSERT INTO t VALUES (1, 'a', 1)")
        let unique = try XCTUnwrap(error { try db.execute(sql: "INSERT INTO t VALUES (2, 'a', 1)") })
        XCTAssertEqual(unique.resultCode, .constraintUnique)
        XCTAssertEqual(unique.primaryResultCode, .constraint)
        XCTAssertEqual(unique.message, "UNIQUE constraint failed: t.code")
        XCTAssertTrue(unique.isConstraintViolation)
        XCTAssertFalse(unique.isBusy || unique.isReadOnly || unique.isCorrupt || unique.isNotADatabase)
        let primaryKey = try XCTUnwrap(error { try db.execute(sql: "INSERT INTO t VALUES (1, 'b', 1)") })
        XCTAssertEqual(primaryKey.resultCode, .constraintPrimaryKey)
        let check = try XCTUnwrap(error { try db.execute(sql: "INSERT INTO t VALUES (3, 'c', 0)") })
        XCTAssertEqual(check.resultCode, .constraintCheck)
        XCTAssertEqual(check.message, "CHECK constraint failed: n > 0")
        switch check.resultCode {
        case .constraint: break
        default: XCTFail("a primary code matches its extended codes")
        }
    }

    func testNamedChecksMatchEveryExtendedCode() {
        func make(_ code: Int32) -> DatabaseError { DatabaseError(resultCode: ResultCode(rawValue: code), message: "") }
        XCTAssertTrue(make(5).isBusy)
        XCTAssertTrue(make(517).isBusy, "SQLITE_BUSY_SNAPSHOT")
        XCTAssertTrue(make(8).isReadOnly)
        XCTAssertTrue(make(1032).isReadOnly, "SQLITE_READONLY_DBMOVED")
        XCTAssertTrue(make(11).isCorrupt)
        XCTAssertTrue(make(267).isCorrupt, "SQLITE_CORRUPT_VTAB")
        XCTAssertTrue(make(26).isNotADatabase)
        XCTAssertTrue(make(9).isInterrupted)
        XCTAssertTrue(make(19).isConstraintViolation)
        XCTAssertTrue(make(787).isConstraintViolation)
        XCTAssertFalse(make(1).isBusy || make(1).isReadOnly || make(1).isCorrupt || make(1).isNotADatabase)
        XCTAssertFalse(make(6).isBusy, "SQLITE_LOCKED is not SQLITE_BUSY")
        XCTAssertEqual(make(2067).primaryResultCode, .constraint)
    }

    func testArgumentsAreKeptButRedactedFromTheDescription() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE users(email TEXT UNIQUE, password TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO users VALUES (?, ?)", arguments: ["ann@example.com", "hunter2"])
        let error = try XCTUnwrap(
            error {
                try db.execute(sql: "INSERT INTO users VALUES (?, ?)", arguments: ["ann@example.com", "s3cret"])
            })
        XCTAssertEqual(error.arguments, ["ann@example.com", "s3cret"])
        XCTAssertFalse(error.includesArgumentsInDescription)
        XCTAssertEqual(
            error.description,
            "SQLite error 2067 (constraint failed): UNIQUE constraint failed: users.email - while executing: "
                + "INSERT INTO users VALUES (?, ?) - with 2 arguments (redacted)")
        XCTAssertEqual(
            error.description(includingArguments: true),
            "SQLite error 2067 (constraint failed): UNIQUE constraint failed: users.email - while executing: "
                + "INSERT INTO users VALUES (?, ?) - with arguments ['ann@example.com', 's3cret']")
        var shown = error
        shown.includesArgumentsInDescription = true
        XCTAssertTrue(shown.description.hasSuffix(" - with arguments ['ann@example.com', 's3cret']"))
    }

    func testArgumentsOfCachedStatementsAndNamedArgumentsInErrors() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v NOT NULL)")
        let error = try XCTUnwrap(
            error { _ = try db.fetchAll(sql: "INSERT INTO t VALUES (:v) RETURNING v", arguments: ["v": nil]) })
        XCTAssertEqual(error.resultCode, .constraintNotNull)
        XCTAssertEqual(error.arguments?.namedValues, ["v": .null])
        XCTAssertTrue(error.description.hasSuffix(" - with 1 argument (redacted)"), error.description)
        XCTAssertTrue(error.description(includingArguments: true).hasSuffix(" - with arguments [v: NULL]"))
    }

    func testTheConnectionOptionShowsArguments() throws {
        let db = try Database(path: ":memory:", options: .init(showsArgumentsInErrors: true))
        try db.execute(sql: "CREATE TABLE t(v NOT NULL)")
        for run in [
            { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [nil]) },
            { _ = try db.fetchOne(sql: "INSERT INTO t VALUES (?) RETURNING v", arguments: [nil]) },
        ] {
            let error = try XCTUnwrap(error(run))
            XCTAssertTrue(error.includesArgumentsInDescription)
            XCTAssertTrue(error.description.hasSuffix(" - with arguments [NULL]"), error.description)
        }
    }

    func testACaughtErrorMatchesItsPrimaryCodeInACatchPattern() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v UNIQUE); INSERT INTO t VALUES (1)")
        do {
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            XCTFail("expected a UNIQUE violation")
        } catch ResultCode.busy {
            XCTFail("not busy")
        } catch ResultCode.constraint {
            // matched through the primary code
        }
    }
}
