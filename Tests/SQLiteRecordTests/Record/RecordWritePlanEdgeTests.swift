import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// Edges of the write plans found in review: records whose `encode(to:)` catches our errors, rollbacks that
/// must keep or drop plans, large values, and the dates an error reports.
final class RecordWritePlanEdgeTests: XCTestCase {
    /// Leaves out a value it cannot store (NaN) by catching the encoder's error.
    private struct Reading: Record, Equatable {
        var id: Int64?
        var value: Double
        var note: String
        static let tableName = "readings"
        enum CodingKeys: String, CodingKey { case id, value, note }

        init(id: Int64? = nil, value: Double, note: String) {
            self.id = id
            self.value = value
            self.note = note
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64?.self, forKey: .id)
            value = try container.decodeIfPresent(Double.self, forKey: .value) ?? -1
            note = try container.decode(String.self, forKey: .note)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try? container.encode(value, forKey: .value)
            try container.encode(note, forKey: .note)
        }
    }

    private func readings(_ db: Database) throws -> [String] {
        try db.fetchAll(String.self, sql: "SELECT quote(value) || ' ' || note FROM readings ORDER BY id")
    }

    private func plan(_ kind: RecordWritePlan.Kind, in db: Database) -> RecordWritePlan? {
        RecordConnectionCache.of(db).writePlan(for: ObjectIdentifier(Reading.self), kind)
    }

    func testAValueWhoseErrorEncodeToCaughtIsLeftOutNotTakenFromTheRecordBefore() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE readings(id INTEGER PRIMARY KEY, value REAL, note TEXT)")
        var first = Reading(value: 1.5, note: "a")
        try first.insert(db)
        var second = Reading(value: 2.5, note: "b")
        try second.insert(db)
        var third = Reading(value: .nan, note: "c")
        try third.insert(db)
        XCTAssertEqual(try readings(db), ["1.5 a", "2.5 b", "NULL c"], "as a plan made from the record leaves the column out")

        try first.update(db)
        try second.update(db)
        XCTAssertNotNil(plan(.update, in: db))
        first.value = .nan
        first.note = "a2"
        try first.update(db)
        XCTAssertEqual(try readings(db), ["1.5 a2", "2.5 b", "NULL c"], "not the value of the record before")
    }

    /// Leaves out a body SQLite refuses as too long, by catching the error.
    private struct Memo: Record {
        var id: Int64?
        var title: String
        var body: String
        static let tableName = "memos"
        enum CodingKeys: String, CodingKey { case id, title, body }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try? container.encode(body, forKey: .body)
        }
    }

    func testABindErrorCaughtByEncodeToEndsAsOnTheCollectedWay() throws {
        func run(keepingPlans: Bool) throws -> [String] {
            let db = try Database()
            try db.execute(sql: "CREATE TABLE memos(id INTEGER PRIMARY KEY, title TEXT, body TEXT)")
            var one = Memo(title: "one", body: "b1")
            try one.insert(db)
            let limit = sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, 100)
            defer { sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, limit) }
            if !keepingPlans { db.recordCache = nil }
            var two = Memo(title: "two", body: String(repeating: "x", count: 200))
            var outcome: [String]
            do {
                try two.insert(db)
                outcome = ["inserted"]
            } catch let error as DatabaseError {
                outcome = ["\(error.resultCode)"]
            }
            sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, limit)
            return outcome + (try db.fetchAll(String.self, sql: "SELECT title || ' ' || length(body) FROM memos"))
        }
        let collected = try run(keepingPlans: false)
        XCTAssertEqual(collected, ["\(ResultCode.tooBig)", "one 2"])
        XCTAssertEqual(try run(keepingPlans: true), collected)
    }

    func testRollbacksKeepPlansUnlessTheSchemaChangedInTheTransaction() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE readings(id INTEGER PRIMARY KEY, value REAL, note TEXT UNIQUE)")
        var first = Reading(value: 1, note: "a")
        try first.insert(db)
        let made = try XCTUnwrap(plan(.insertWithoutID, in: db))

        // A constraint error in autocommit mode: SQLite rolls the statement's transaction back.
        var duplicate = Reading(value: 2, note: "a")
        XCTAssertThrowsError(try duplicate.insert(db))
        var second = Reading(value: 3, note: "b")
        try second.insert(db)
        XCTAssertTrue(plan(.insertWithoutID, in: db) === made)

        // A transaction that only wrote rows, rolled back.
        try db.execute(sql: "BEGIN")
        var rolledBack = Reading(value: 4, note: "c")
        try rolledBack.insert(db)
        try db.execute(sql: "ROLLBACK")
        var third = Reading(value: 5, note: "d")
        try third.insert(db)
        XCTAssertTrue(plan(.insertWithoutID, in: db) === made)
        XCTAssertEqual(try readings(db), ["1.0 a", "3.0 b", "5.0 d"])

        // A transaction that changed the schema, rolled back: the plan goes.
        try db.execute(sql: "BEGIN")
        try db.execute(sql: "CREATE TABLE scratch(x)")
        try db.execute(sql: "ROLLBACK")
        var fourth = Reading(value: 6, note: "e")
        try fourth.insert(db)
        XCTAssertFalse(plan(.insertWithoutID, in: db) === made)
    }

    private struct Blob: Record {
        var id: Int64?
        var payload: Data
        static let tableName = "blobs"
    }

    func testALargeValueIsNotKeptAfterItsWrite() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE blobs(id INTEGER PRIMARY KEY, payload BLOB)")
        var small = Blob(payload: Data([1]))
        try small.insert(db)
        var large = Blob(payload: Data(repeating: 7, count: 10_000_000))
        try large.insert(db)
        XCTAssertNotNil(
            RecordConnectionCache.of(db).writePlan(for: ObjectIdentifier(Blob.self), .insertWithoutID))
        // The database itself is in memory too: what letting go of the plans frees is what they held.
        let withPlans = sqlite3_memory_used()
        db.recordCache = nil
        XCTAssertLessThan(withPlans - sqlite3_memory_used(), 100_000, "the plan kept no copy of the 10 MB blob")
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT length(payload) FROM blobs WHERE id = 2"), 10_000_000)
    }

    private struct Stamp: Record {
        var id: Int64?
        var at: Date
        static let tableName = "stamps"
    }

    func testAnErrorReportsTheDateTextThatWasBound() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE stamps(id INTEGER PRIMARY KEY, at TEXT UNIQUE)")
        // Dates half a millisecond apart round to their text in both directions.
        let dates = (0..<200).map { Date(timeIntervalSince1970: 1_600_000_000 + Double($0) * 0.0005 + 0.00025) }
        for date in dates {
            var stamp = Stamp(id: nil, at: date)
            do {
                try stamp.insert(db)
            } catch let error as DatabaseError {
                XCTAssertEqual(error.resultCode, .constraintUnique)
                XCTAssertEqual(error.arguments?.values, [.text(try XCTUnwrap(SQLiteDateFormat.string(from: date)))])
            }
        }
        let distinct = Set(dates.compactMap { SQLiteDateFormat.string(from: $0) }).count
        XCTAssertLessThan(distinct, dates.count, "some dates share their text, so some inserts failed")
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM stamps"), distinct)
    }
}
