import Foundation
import SQLiteRecord
import XCTest

final class StatementCacheTests: XCTestCase {
    func testTheSameSQLGetsTheSameStatement() throws {
        let db = try Database()
        let first = try db.cachedStatement(sql: "SELECT 1")
        XCTAssertTrue(first === (try db.cachedStatement(sql: "SELECT 1")))
        XCTAssertFalse(first === (try db.cachedStatement(sql: "SELECT 2")))
        XCTAssertFalse(first === (try db.makeStatement(sql: "SELECT 1")), "makeStatement never caches")
    }

    func testTheLeastRecentlyUsedStatementIsEvicted() throws {
        let db = try Database(path: ":memory:", options: .init(statementCacheCapacity: 2))
        let a = try db.cachedStatement(sql: "SELECT 'a'")
        let b = try db.cachedStatement(sql: "SELECT 'b'")
        XCTAssertTrue(a === (try db.cachedStatement(sql: "SELECT 'a'")))  // a is now more recent than b
        _ = try db.cachedStatement(sql: "SELECT 'c'")  // evicts b
        XCTAssertTrue(a === (try db.cachedStatement(sql: "SELECT 'a'")))
        XCTAssertFalse(b === (try db.cachedStatement(sql: "SELECT 'b'")), "b was evicted and prepared again")
        // b's return evicted c, the least recently used now: a stays.
        XCTAssertTrue(a === (try db.cachedStatement(sql: "SELECT 'a'")))
        // An evicted statement someone still holds keeps working.
        XCTAssertTrue(try b.step())
        XCTAssertEqual(b.string(at: 0), "b")
    }

    func testACapacityOfZeroCachesNothing() throws {
        let db = try Database(path: ":memory:", options: .init(statementCacheCapacity: 0))
        XCTAssertFalse(try db.cachedStatement(sql: "SELECT 1") === db.cachedStatement(sql: "SELECT 1"))
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT 1"), 1)
    }

    func testAStatementInUseIsNotShared() throws {
        let db = try Database()
        let sql = "SELECT 1 UNION ALL SELECT 2"
        let running = try db.cachedStatement(sql: sql)
        XCTAssertTrue(try running.step())
        XCTAssertTrue(running.isBusy)
        let other = try db.cachedStatement(sql: sql)
        XCTAssertFalse(running === other)
        XCTAssertEqual(try db.fetchAll(sql: sql).map(\.values), [[1], [2]], "runs beside the busy statement")
        XCTAssertEqual(running.int64(at: 0), 1, "the running statement was not disturbed")
        running.reset()
        XCTAssertTrue(running === (try db.cachedStatement(sql: sql)))
    }

    func testBindingsAreClearedAfterUse() throws {
        let db = try Database()
        XCTAssertEqual(try db.fetchOne(sql: "SELECT ?", arguments: [42])?.values, [42])
        let statement = try db.cachedStatement(sql: "SELECT ?")
        XCTAssertFalse(statement.isBusy)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.value(at: 0), .null, "the 42 is gone: cleared, not left for the next user")
    }

    func testAStatementThatFailedIsNotReusedBroken() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v NOT NULL)")
        let sql = "INSERT INTO t VALUES (?)"
        try db.execute(sql: sql, arguments: [1])
        XCTAssertThrowsError(try db.execute(sql: sql, arguments: [nil]))
        XCTAssertThrowsError(try db.fetchAll(sql: sql, arguments: [nil]))
        XCTAssertThrowsError(try db.execute(sql: sql, arguments: [1, 2]))
        try db.execute(sql: sql, arguments: [2])
        XCTAssertFalse(try db.cachedStatement(sql: sql).isBusy)
        XCTAssertEqual(try db.fetchAll(sql: "SELECT v FROM t ORDER BY rowid").map(\.values), [[1], [2]])
    }

    func testACachedStatementFollowsSchemaChanges() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
        XCTAssertEqual(try db.fetchOne(sql: "SELECT * FROM t"), ["a": 1])
        try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 'x'")
        XCTAssertEqual(try db.fetchOne(sql: "SELECT * FROM t"), ["a": 1, "b": "x"])
    }

    func testRepeatedExecuteOfOneStatementWorksFromTheCache() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        for value in 0..<100 {
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
        }
        try db.execute(sql: "INSERT INTO t VALUES (:v)", arguments: ["v": 100])
        try db.execute(sql: "INSERT INTO t VALUES (:v)", arguments: ["v": 101])
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT sum(v) FROM t"), 5_151)
        XCTAssertThrowsError(try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [])) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .range)
        }
    }
}
