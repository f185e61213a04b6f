import Foundation
import XCTest

@testable import SQLiteRecord

final class SchemaCacheTests: XCTestCase {
    func testColumnsSeeOwnSchemaChangesInsideAndOutsideTransactions() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a)")
        XCTAssertEqual(try db.columns(in: "t").map(\.name), ["a"])
        try db.execute(sql: "ALTER TABLE t ADD COLUMN b TEXT")
        XCTAssertEqual(try db.columns(in: "t").map(\.name), ["a", "b"])
        try db.transaction(.immediate) {
            XCTAssertEqual(try db.columns(in: "t").map(\.name), ["a", "b"])
            try db.execute(sql: "ALTER TABLE t ADD COLUMN c INTEGER")
            XCTAssertEqual(try db.columns(in: "t").map(\.name), ["a", "b", "c"])
        }
        let statement = try db.makeStatement(sql: "ALTER TABLE t ADD COLUMN d REAL")
        _ = try statement.step()
        XCTAssertEqual(try db.columns(in: "T").map(\.name), ["a", "b", "c", "d"])
    }

    func testColumnsSeeAnotherConnectionsSchemaChange() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try Database(path: url.path)
        let second = try Database(path: url.path)
        try first.execute(sql: "CREATE TABLE t(a)")
        XCTAssertEqual(try second.columns(in: "t").map(\.name), ["a"])
        try first.execute(sql: "ALTER TABLE t ADD COLUMN b")
        XCTAssertEqual(try second.columns(in: "t").map(\.name), ["a", "b"])
    }

    func testTheAffinityGuardFollowsAChangedDeclaredType() throws {
        struct Code: Record {
            var id: Int64?
            var code: String
            static let tableName = "codes"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        var first = Code(id: nil, code: "007")
        try first.save(db)
        try db.execute(
            sql: """
                CREATE TABLE codes2(id INTEGER PRIMARY KEY, code NUMERIC);
                DROP TABLE codes;
                ALTER TABLE codes2 RENAME TO codes;
                """)
        var second = Code(id: nil, code: "007")
        XCTAssertThrowsError(try second.save(db), "the cached TEXT affinity must not outlive the table")
    }

    func testWhereKeysSeeAColumnAddedAfterTheFirstFetch() throws {
        struct Item: Record {
            var id: Int64?
            var name: String
            static let tableName = "items"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT)")
        XCTAssertEqual(try Item.count(db, where: ["name": "a"]), 0)
        XCTAssertThrowsError(try Item.count(db, where: ["size": 1]))
        try db.execute(sql: "ALTER TABLE items ADD COLUMN size INTEGER")
        XCTAssertEqual(try Item.count(db, where: ["size": 1]), 0, "the cached column names were dropped")
    }
}
