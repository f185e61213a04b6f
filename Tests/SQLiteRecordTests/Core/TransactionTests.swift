import Foundation
import SQLiteRecord
import XCTest

final class TransactionTests: XCTestCase {
    private struct Failure: Error {}

    func testCommitsOnReturnAndRollsBackOnThrow() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        try db.transaction { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertThrowsError(
            try db.transaction(.immediate) {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                throw Failure()
            }
        ) { error in XCTAssertTrue(error is Failure) }
        XCTAssertEqual(try WorldFixtures.rowCount(db, "t"), 1)
        XCTAssertFalse(db.isInsideTransaction)
    }

    func testANestedTransactionIsASavepointRolledBackAlone() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        try db.transaction(.immediate) {
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            XCTAssertThrowsError(
                try db.transaction {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    try db.transaction { try db.execute(sql: "INSERT INTO t VALUES (3)") }
                    throw Failure()
                })
            XCTAssertTrue(db.isInsideTransaction)
            try db.transaction { try db.execute(sql: "INSERT INTO t VALUES (4)") }
        }
        let statement = try db.makeStatement(sql: "SELECT group_concat(v) FROM t")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.string(at: 0), "1,4")
    }

    func testAFailingCommitIsReportedAndLeavesTheConnectionUsable() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
                """)
        XCTAssertThrowsError(try db.transaction { try db.execute(sql: "INSERT INTO child VALUES (7)") }) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .constraintForeignKey)
            XCTAssertEqual(error.sql, "COMMIT TRANSACTION")
        }
        XCTAssertFalse(db.isInsideTransaction)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "child"), 0)
        try db.transaction { try db.execute(sql: "INSERT INTO parent VALUES (7); INSERT INTO child VALUES (7)") }
        XCTAssertEqual(try WorldFixtures.rowCount(db, "child"), 1)
    }
}
