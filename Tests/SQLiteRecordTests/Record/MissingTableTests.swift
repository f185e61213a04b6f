import Foundation
import SQLiteRecord
import XCTest

private struct Member: Record {
    var id: Int64?
    var name: String
}

/// "no such table" from a record call names the record type and what to do.
final class MissingTableTests: XCTestCase {
    private let advice =
        "no such table: member (the table of Member: create it with Member.createTable(in:) or in a "
        + "DatabaseMigrator migration, or set Member.tableName to the table's name)"

    func testEveryRecordCallExplainsAMissingTable() throws {
        let db = try Database()
        var member = Member(id: nil, name: "Ann")
        var saved = Member(id: 1, name: "Ann")
        let calls: [(String, () throws -> Void)] = [
            ("fetch", { _ = try Member.fetch(db) }),
            ("fetch where", { _ = try Member.fetch(db, where: "name = ?", arguments: ["Ann"]) }),
            ("fetchOne id", { _ = try Member.fetchOne(db, id: 1) }),
            ("count", { _ = try Member.count(db) }),
            ("count where", { _ = try Member.count(db, where: "1") }),
            ("exists", { _ = try Member.exists(db, id: 1) }),
            ("insert", { try member.insert(db) }),
            ("save", { try saved.save(db) }),
            ("update", { try saved.update(db) }),
            ("delete", { _ = try saved.delete(db) }),
            ("deleteAll", { _ = try Member.deleteAll(db) }),
            ("deleteAll where", { _ = try Member.deleteAll(db, where: "1") }),
        ]
        for (name, call) in calls {
            XCTAssertThrowsError(try call(), name) { error in
                XCTAssertEqual((error as? DatabaseError)?.message, advice, name)
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .error, name)
            }
        }
        // A missing table that is not the record's own keeps SQLite's message.
        XCTAssertThrowsError(try Member.fetch(db, sql: "SELECT * FROM elsewhere")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such table: elsewhere")
        }
    }
}
