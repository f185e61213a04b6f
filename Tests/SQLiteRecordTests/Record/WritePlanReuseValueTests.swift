import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// A kept write plan and fresh plans agree on values (the affinity guard, hostile numbers, dates and texts,
/// ten-megabyte values), on record types that share a table or change it, and under writes started while
/// a plan is in use.
final class WritePlanReuseValueTests: XCTestCase {
    private struct Note: Record, Equatable {
        var id: Int64?
        var title: String
        var body: Data
        static let tableName = "notes"
    }

    // MARK: - Values

    private enum Grade: String, Codable {
        case bond = "007"
        case plain = "B"
    }

    private struct Numbers: Record {
        var id: Int64?
        var i = "12"
        var r = "1.5"
        var n = "7"
        var grade = Grade.plain
        var amount = Decimal(string: "1.5")!
        var token = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var at = Date(timeIntervalSince1970: 1_714_566_600.25)
        var json = ["k": 1]
        var spaced = "12"
        static let tableName = "numbers"
    }

    func testTheTextAffinityGuardOnThePlanPathMatchesFreshPlans() throws {
        let schema = """
            CREATE TABLE numbers(id INTEGER PRIMARY KEY, i INTEGER, r REAL, n NUMERIC, grade INT,
              amount DECIMAL(30,10), token NUMERIC, at NUMERIC, json NUMERIC, spaced INTEGER)
            """
        let ok = Numbers()
        var writes = [ok, ok]
        var record = ok
        record.i = "00120"
        writes += [record, ok]
        record = ok
        record.r = "1"
        writes += [record, ok]
        record = ok
        record.n = "1e3"
        writes += [record, ok]
        record = ok
        record.grade = .bond
        writes += [record, ok]
        record = ok
        record.amount = Decimal(string: "12345678901234567890.123")!
        writes += [record, ok]
        record = ok
        record.token = UUID(uuidString: "12345678-1234-1234-1234-123456789012")!
        writes += [record, ok]
        record = ok
        record.spaced = " 12"
        writes += [record, ok]
        record = ok
        record.i = "-0"
        writes += [record, ok]
        record = ok
        record.i = "9223372036854775808"  // Int64.max + 1: REAL under INTEGER affinity
        writes += [record, ok]
        record = ok
        record.i = "120"
        record.n = "+7"
        writes += [record, ok]
        let result = try assertKeptPlanMatchesFreshPlans(schema, table: "numbers", writes)
        XCTAssertTrue(
            result.outcomes[2].hasPrefix("EncodingError") && result.outcomes[2].contains("00120"), result.outcomes[2])
        XCTAssertEqual(result.outcomes.filter { $0.hasPrefix("ok") }.count, 13, "\(result.outcomes)")
    }

    private struct Values: Record {
        var id: Int64?
        var s = "text"
        var d = 1.5
        var f: Float = 2.5
        var u: UInt64 = 7
        var when = Date(timeIntervalSince1970: 0)
        var dec = Decimal(3)
        var blob = Data([0xAB])
        var u8: UInt = 1
        static let tableName = "vals"
    }

    func testHostileValuesOnThePlanPathMatchFreshPlans() throws {
        let schema = """
            CREATE TABLE vals(id INTEGER PRIMARY KEY, s TEXT, d REAL, f REAL, u INTEGER, "when" TEXT, dec TEXT,
              blob BLOB, u8 INTEGER)
            """
        let ok = Values()
        var writes = [ok, ok]
        func variant(_ change: (inout Values) -> Void) {
            var record = ok
            change(&record)
            writes += [record, ok]
        }
        variant { $0.d = .nan }
        variant { $0.d = -.nan }
        variant { $0.d = .infinity }
        variant { $0.d = -.infinity }
        variant { $0.d = -0.0 }
        variant { $0.d = .leastNonzeroMagnitude }
        variant { $0.f = .nan }
        variant { $0.f = .infinity }
        variant { $0.u = UInt64(Int64.max) + 1 }
        variant { $0.u = .max }
        variant { $0.u = UInt64(Int64.max) }
        variant { $0.u8 = .max }
        variant { $0.when = Date(timeIntervalSince1970: 253_402_300_800) }  // 10000-01-01
        variant { $0.when = Date(timeIntervalSince1970: 253_402_300_799.9996) }  // rounds into 10000
        variant { $0.when = Date(timeIntervalSince1970: 253_402_300_799.999) }  // 9999-12-31 23:59:59.999
        variant { $0.when = Date(timeIntervalSince1970: -62_167_219_200) }  // 0000-01-01
        variant { $0.when = Date(timeIntervalSince1970: -62_167_219_200.001) }  // before 0000
        variant { $0.when = Date(timeIntervalSince1970: .nan) }
        variant { $0.when = Date(timeIntervalSince1970: .infinity) }
        variant { $0.when = Date(timeIntervalSince1970: -0.0005) }
        variant { $0.dec = .nan }
        variant { $0.dec = Decimal(string: "-0.000000000000000000000000000001")! }
        variant { $0.s = "a\u{0}b" }
        variant { $0.s = "" }
        variant { $0.s = "\u{1F600}é\u{0301}" }
        variant { $0.s = "short" }
        variant { $0.s = String(repeating: "é", count: 40) }
        variant { $0.s = NSString(string: "bridged-ish text that is long enough").description }
        variant { $0.blob = Data() }
        variant { $0.blob = Data([0, 0, 0]) }
        let result = try assertKeptPlanMatchesFreshPlans(schema, table: "vals", writes)
        XCTAssertTrue(result.outcomes[2].contains("NaN"), result.outcomes[2])
    }

    func testTenMegabyteStringAndBlobThroughThePlan() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body BLOB)")
        var small = Note(id: nil, title: "small", body: Data([1]))
        try small.insert(db)
        var title = String(repeating: "0123456789", count: 1_000_000)
        title += "é"
        var body = Data(count: 10_000_000)
        for index in stride(from: 0, to: body.count, by: 4099) { body[index] = UInt8(truncatingIfNeeded: index) }
        var huge = Note(id: nil, title: title, body: body)
        try huge.insert(db)
        var after = Note(id: nil, title: "after", body: Data([2]))
        try after.insert(db)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT length(title) FROM notes WHERE id = 2"), 10_000_001)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT length(body) FROM notes WHERE id = 2"), 10_000_000)
        XCTAssertEqual(try Note.fetchOne(db, id: 2), huge)
        XCTAssertEqual(try Note.fetchOne(db, id: 3), after)
        // The huge values are not the bindings of the next write.
        var updated = huge
        updated.title = "shrunk"
        updated.body = Data([9])
        try updated.update(db)
        XCTAssertEqual(try WritePlanOracle.rows(db, "notes"), ["1|'small'|X'01'", "2|'shrunk'|X'09'", "3|'after'|X'02'"])
    }

    // MARK: - Types and tables

    private struct SharedA: Record {
        var id: Int64?
        var name: String
        var qty: Int
        static let tableName = "shared"
    }

    private struct SharedB: Record {
        var id: Int64?
        var name: String
        var note: String?
        static let tableName = "shared"
    }

    func testTwoRecordTypesSharingOneTableKeepTheirOwnColumns() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE shared(id INTEGER PRIMARY KEY, name TEXT, qty INTEGER DEFAULT 0, note TEXT DEFAULT 'n')")
        for index in 0..<4 {
            var a = SharedA(id: nil, name: "a\(index)", qty: index)
            try a.insert(db)
            var b = SharedB(id: nil, name: "b\(index)", note: index.isMultiple(of: 2) ? nil : "x\(index)")
            try b.insert(db)
            XCTAssertEqual([a.id, b.id], [Int64(2 * index + 1), Int64(2 * index + 2)])
        }
        var a = SharedA(id: 2, name: "a-over-b", qty: 99)
        try a.update(db)
        var b = SharedB(id: 1, name: "b-over-a", note: "nn")
        try b.update(db)
        b = SharedB(id: 3, name: "b-over-a2", note: nil)
        try b.update(db)
        a = SharedA(id: 4, name: "a-over-b2", qty: 98)
        try a.update(db)
        XCTAssertEqual(
            try WritePlanOracle.rows(db, "shared"),
            [
                "1|'b-over-a'|0|'nn'", "2|'a-over-b'|99|NULL", "3|'b-over-a2'|1|NULL", "4|'a-over-b2'|98|'x1'",
                "5|'a2'|2|'n'", "6|'b2'|0|NULL", "7|'a3'|3|'n'", "8|'b3'|0|'x3'",
            ])
    }

    nonisolated(unsafe) private static var switchTable = "left"

    private struct Switching: Record {
        var id: Int64?
        var name: String
        static var tableName: String { switchTable }
    }

    /// Once a defect, now fixed: the plan is dropped when `tableName` changes, but the write that then
    /// runs took its SQL from a cache keyed by type and columns, not table (now ``RecordConnectionCache/sql(_:_:table:primaryKey:columns:build:)``
    /// compares the table too): the first
    /// record after the change goes to the old table, the ones after it (through the new plan) to the new.
    func testAComputedTableNameThatChangesSendsEveryRecordToTheCurrentTable() throws {
        let db = try Database()
        try db.execute(
            sql:
                "CREATE TABLE left(id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE right(id INTEGER PRIMARY KEY, name TEXT)"
        )
        defer { Self.switchTable = "left" }
        Self.switchTable = "left"
        for name in ["l1", "l2"] {
            var record = Switching(id: nil, name: name)
            try record.insert(db)
        }
        Self.switchTable = "right"
        for name in ["r1", "r2", "r3"] {
            var record = Switching(id: nil, name: name)
            try record.insert(db)
        }
        Self.switchTable = "left"
        var back = Switching(id: nil, name: "l3")
        try back.insert(db)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM left ORDER BY id"), ["l1", "l2", "l3"])
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM right ORDER BY id"), ["r1", "r2", "r3"])
    }

    // MARK: - Re-entrancy

    private struct Spawner: Record {
        var id: Int64?
        var name: String
        var spawn = false
        static let tableName = "spawners"
        enum CodingKeys: String, CodingKey { case id, name }

        func willSave(_ db: some DatabaseConnection) throws {
            guard spawn else { return }
            var child = Spawner(id: nil, name: name + "-willSave-child")
            try child.insert(db)
            if id != nil {
                var sibling = Spawner(id: child.id, name: name + "-updated-child")
                sibling.id = child.id
                try sibling.update(db)
            }
        }
    }

    func testWillSaveWritingTheSameTypeDuringAPlannedWrite() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE spawners(id INTEGER PRIMARY KEY, name TEXT)")
        var warm = Spawner(id: nil, name: "warm")
        try warm.insert(db)
        var second = Spawner(id: nil, name: "second")
        try second.insert(db)
        var parent = Spawner(id: nil, name: "parent", spawn: true)
        try parent.insert(db)
        XCTAssertEqual(parent.id, 4)
        parent.name = "parent2"
        try parent.update(db)
        XCTAssertEqual(
            try WritePlanOracle.rows(db, "spawners"),
            ["1|'warm'", "2|'second'", "3|'parent-willSave-child'", "4|'parent2'", "5|'parent2-updated-child'"])
    }

    nonisolated(unsafe) private static var reentrantDB: Database?
    nonisolated(unsafe) private static var spawnsLeft = 0

    /// Writes a record of its own type from inside `encode(to:)`, while the plan's statement is half bound.
    private struct EncodeSpawner: Record {
        var id: Int64?
        var name: String
        var value: Int
        static let tableName = "encode_spawners"

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(name, forKey: .name)
            if spawnsLeft > 0, let db = reentrantDB {
                spawnsLeft -= 1
                var child = EncodeSpawner(id: nil, name: name + "-child", value: value * 100)
                try child.insert(db)
                if id != nil {
                    let sibling = EncodeSpawner(id: 1, name: "first-updated-from-encode", value: -1)
                    try sibling.update(db)
                }
            }
            try container.encode(value, forKey: .value)
        }
    }

    func testEncodeToWritingTheSameTypeWhileThePlanIsHalfBound() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE encode_spawners(id INTEGER PRIMARY KEY, name TEXT, value INTEGER)")
        Self.reentrantDB = db
        defer {
            Self.reentrantDB = nil
            Self.spawnsLeft = 0
        }
        var first = EncodeSpawner(id: nil, name: "first", value: 1)
        Self.spawnsLeft = 1  // the first write, which makes the plan, spawns too
        try first.insert(db)
        XCTAssertEqual(first.id, 2, "the child took rowid 1 while the first encoded")
        var second = EncodeSpawner(id: nil, name: "second", value: 2)
        try second.insert(db)
        var third = EncodeSpawner(id: nil, name: "third", value: 3)
        Self.spawnsLeft = 1
        try third.insert(db)
        XCTAssertEqual(third.id, 5)
        var fourth = EncodeSpawner(id: nil, name: "fourth", value: 4)
        try fourth.insert(db)
        third.name = "third-updated"
        try third.update(db)
        third.name = "third-updated-again"
        Self.spawnsLeft = 1
        try third.update(db)
        XCTAssertEqual(
            try WritePlanOracle.rows(db, "encode_spawners"),
            [
                "1|'first-updated-from-encode'|-1", "2|'first'|1", "3|'second'|2", "4|'third-child'|300",
                "5|'third-updated-again'|3", "6|'fourth'|4", "7|'third-updated-again-child'|300",
            ])
    }
}
