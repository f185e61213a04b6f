import Foundation
import XCTest

@testable import SQLiteRecord

final class StatementCacheLastEntryTests: XCTestCase {
    func testTheLastEntryFastPathNeverOutlivesEviction() throws {
        let db = try Database()
        let cache = StatementCache(capacity: 2)
        let first = try db.makeStatement(sql: "SELECT 1")
        cache.insert(first, for: "SELECT 1")
        XCTAssertTrue(cache.statement(for: "SELECT 1") === first)
        XCTAssertTrue(cache.statement(for: "SELECT 1") === first, "found again through the last-entry path")
        cache.insert(try db.makeStatement(sql: "SELECT 2"), for: "SELECT 2")
        _ = cache.statement(for: "SELECT 2")
        cache.insert(try db.makeStatement(sql: "SELECT 3"), for: "SELECT 3")  // evicts SELECT 1, used least lately
        XCTAssertNil(cache.statement(for: "SELECT 1"))
        XCTAssertEqual(cache.count, 2)
        cache.removeAll()
        XCTAssertNil(cache.statement(for: "SELECT 2"))
    }
}
