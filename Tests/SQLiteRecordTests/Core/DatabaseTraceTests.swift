import Foundation
import XCTest

@testable import SQLiteRecord

/// A statement trace a user switches on per connection.
final class DatabaseTraceTests: XCTestCase {
    /// Collects trace events; the handler runs on the connection's thread, the test reads after.
    private final class Collected: @unchecked Sendable {
        // `events` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var stored: [Database.TraceEvent] = []
        func append(_ event: Database.TraceEvent) {
            lock.lock()
            stored.append(event)
            lock.unlock()
        }
        var events: [Database.TraceEvent] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
    }

    func testEachStatementsSQLAndDurationWithoutValues() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a, b)")
        let collected = Collected()
        db.trace { collected.append($0) }
        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, "secret"])
        try db.execute(sql: "SELECT count(*) FROM t")
        db.trace(nil)
        try db.execute(sql: "DELETE FROM t")
        XCTAssertEqual(collected.events.map(\.sql), ["INSERT INTO t VALUES (?, ?)", "SELECT count(*) FROM t"])
        XCTAssertTrue(collected.events.allSatisfy { $0.duration >= .zero })
    }

    func testValuesOnlyWhenTheOptionsAllow() throws {
        let db = try Database(path: ":memory:", options: .init(showsArgumentsInErrors: true))
        try db.execute(sql: "CREATE TABLE t(a, b)")
        let collected = Collected()
        db.trace { collected.append($0) }
        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, "secret"])
        XCTAssertEqual(collected.events.map(\.sql), ["INSERT INTO t VALUES (1, 'secret')"])
    }

    func testARecordCallIsTraced() throws {
        let db = try Database()
        try Country.createTable(in: db)
        let collected = Collected()
        db.trace { collected.append($0) }
        _ = try Country.fetchOne(db, id: 1)
        XCTAssertTrue(
            collected.events.map(\.sql).contains("SELECT * FROM \"countries\" WHERE \"id\" = ?"),
            "\(collected.events.map(\.sql))")
    }
}
