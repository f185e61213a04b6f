import Foundation
import XCTest

@testable import SQLiteRecord

/// A trace that lasts as long as a closure: `db.trace(_:during:)`.
final class DatabaseTraceScopeTests: XCTestCase {
    /// Collects trace events; the handler runs on the connection's thread, the test reads after.
    private final class Collected: @unchecked Sendable {
        // `stored` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ event: Database.TraceEvent) {
            lock.lock()
            stored.append(event.sql)
            lock.unlock()
        }
        var sql: [String] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
    }

    private struct Failure: Error, Equatable {}

    func testOnlyTheStatementsOfTheClosureAreTraced() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a)")
        let collected = Collected()
        let count = try db.trace(
            { collected.append($0) },
            during: { () -> Int? in
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1])
                return try db.scalar(Int.self, sql: "SELECT count(*) FROM t")
            })
        try db.execute(sql: "DELETE FROM t")
        XCTAssertEqual(count, 1)
        XCTAssertEqual(collected.sql, ["INSERT INTO t VALUES (?)", "SELECT count(*) FROM t"])
    }

    func testTheTraceEndsWhenTheClosureThrows() throws {
        let db = try Database()
        let collected = Collected()
        XCTAssertThrowsError(
            try db.trace(
                { collected.append($0) },
                during: {
                    try db.execute(sql: "SELECT 1")
                    throw Failure()
                })
        ) { XCTAssertEqual($0 as? Failure, Failure()) }
        try db.execute(sql: "SELECT 2")
        XCTAssertEqual(collected.sql, ["SELECT 1"])
    }

    func testARecordFetchInsideAQueueRead() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try Country.createTable(in: db) }
        let collected = Collected()
        let countries = try queue.read { db in
            try db.trace({ collected.append($0) }, during: { try Country.fetch(db) })
        }
        XCTAssertEqual(countries, [])
        // The fetch's own statements (a schema check may come first), not the read's BEGIN and ROLLBACK.
        XCTAssertEqual(collected.sql.last, "SELECT * FROM \"countries\"")
        XCTAssertFalse(collected.sql.contains { $0.hasPrefix("BEGIN") || $0.hasPrefix("ROLLBACK") }, "\(collected.sql)")
    }
}
