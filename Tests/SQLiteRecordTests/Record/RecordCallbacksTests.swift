import Foundation
import SQLiteRecord
import XCTest

final class RecordCallbacksTests: XCTestCase {
    private struct ValidationError: Error, Equatable {
        let message: String
    }

    private struct Checked: Record, Equatable {
        var id: Int64?
        var name: String
        var insertedRowID: Int64?
        static let tableName = "checked"
        enum CodingKeys: String, CodingKey { case id, name }

        func willSave(_ db: some DatabaseConnection) throws {
            if name.isEmpty { throw ValidationError(message: "a name is required") }
        }
        mutating func didInsert(rowID: Int64) { insertedRowID = rowID }
        func willDelete(_ db: some DatabaseConnection) throws {
            if name == "keep" { throw ValidationError(message: "\(name) is protected") }
        }
    }

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE checked(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        return db
    }

    func testThrowingWillSaveAbortsWithNothingWritten() throws {
        let db = try makeDatabase()
        var record = Checked(id: nil, name: "")
        XCTAssertThrowsError(try record.save(db)) { error in
            XCTAssertEqual(error as? ValidationError, ValidationError(message: "a name is required"))
        }
        XCTAssertNil(record.id)
        var batch = [Checked(id: nil, name: "ok"), Checked(id: nil, name: "")]
        XCTAssertThrowsError(try Checked.save(db, &batch))
        XCTAssertEqual(batch.map(\.id), [nil, nil])
        XCTAssertEqual(try Checked.count(db), 0)
    }

    func testDidInsertReceivesTheRowID() throws {
        let db = try makeDatabase()
        var record = Checked(id: nil, name: "a")
        try record.save(db)
        XCTAssertEqual(record.insertedRowID, 1)
        XCTAssertEqual(record.id, 1)
    }

    func testThrowingWillDeleteAbortsTheDelete() throws {
        let db = try makeDatabase()
        var keep = Checked(id: nil, name: "keep")
        var drop = Checked(id: nil, name: "drop")
        try keep.save(db)
        try drop.save(db)
        XCTAssertThrowsError(try Checked.delete(db, [drop, keep]))
        XCTAssertEqual(try Checked.count(db), 2, "the batch is all or nothing")
        XCTAssertTrue(try drop.delete(db))
    }
}
