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

    func testANestedTransactionWhoseBodyThrowsKeepsOnlyTheOuterRows() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        let result = try db.transaction(.immediate) { () -> Int in
            try db.execute(sql: "INSERT INTO t VALUES ('outer 1')")
            do {
                try db.transaction {
                    try db.execute(sql: "INSERT INTO t VALUES ('inner')")
                    throw Failure()
                }
            } catch is Failure {
                // the inner savepoint is rolled back; the outer transaction goes on
            }
            try db.execute(sql: "INSERT INTO t VALUES ('outer 2')")
            return 2
        }
        XCTAssertEqual(result, 2)
        XCTAssertFalse(db.isInsideTransaction)
        XCTAssertEqual(
            try db.fetchAll(sql: "SELECT v FROM t ORDER BY rowid").map(\.values), [["outer 1"], ["outer 2"]])
    }

    func testAnErrorFromSQLiteInsideASavepointRollsBackOnlyTheSavepoint() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v UNIQUE)")
        try db.transaction {
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            XCTAssertThrowsError(
                try db.transaction {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                }
            ) { error in XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintUnique) }
        }
        XCTAssertEqual(try db.fetchAll(sql: "SELECT v FROM t").map(\.values), [[1]])
    }

    func testTransactionKindsTakeTheirLocks() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("locks.sqlite")
        let db = try Database(path: path)
        try db.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1)")
        let other = try Database(path: path, options: .init(busyTimeout: 0))

        try db.transaction(.deferred) {
            // No lock until the first statement: the other connection can write.
            try other.execute(sql: "INSERT INTO t VALUES (2)")
        }
        try db.transaction(.immediate) {
            XCTAssertThrowsError(try other.transaction(.immediate) {}) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .busy)
            }
            XCTAssertEqual(try other.scalar(Int.self, sql: "SELECT count(*) FROM t"), 2, "readers still read")
        }
        try db.transaction(.exclusive) {
            XCTAssertThrowsError(try other.scalar(Int.self, sql: "SELECT count(*) FROM t")) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .busy, "an exclusive lock keeps readers out")
            }
        }
        XCTAssertFalse(other.isInsideTransaction)
        XCTAssertEqual(try other.scalar(Int.self, sql: "SELECT count(*) FROM t"), 2)
    }

    func testABusyCommitIsRolledBackReportedAndTheConnectionStaysUsable() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("busy-commit.sqlite")
        let writer = try Database(path: path, options: .init(busyTimeout: 0.05))
        try writer.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1), (2)")
        let reader = try Database(path: path)
        let cursor = try reader.fetchCursor(sql: "SELECT v FROM t")
        XCTAssertEqual(try cursor.next()?.values, [1])  // holds a shared lock while it is open

        XCTAssertThrowsError(try writer.transaction { try writer.execute(sql: "INSERT INTO t VALUES (3)") }) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .busy)
            XCTAssertEqual(error.sql, "COMMIT TRANSACTION")
        }
        XCTAssertFalse(writer.isInsideTransaction)
        cursor.close()
        XCTAssertEqual(try writer.scalar(Int.self, sql: "SELECT count(*) FROM t"), 2, "the insert was rolled back")
        try writer.transaction { try writer.execute(sql: "INSERT INTO t VALUES (3)") }
        XCTAssertEqual(try reader.scalar(Int.self, sql: "SELECT count(*) FROM t"), 3)
    }

    func testATransactionReturnsItsBodysValue() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        let id = try db.transaction(.exclusive) { () -> Int64 in
            try db.execute(sql: "INSERT INTO t VALUES ('x')")
            return db.lastInsertedRowID
        }
        XCTAssertEqual(id, 1)
    }
}
