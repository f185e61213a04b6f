import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// A kept write plan (RecordWritePlan, reused for every record of a type after the first) writes what a
/// fresh plan made from each record writes, under records whose `encode(to:)` varies, errors at every stage
/// and constraint violations. Each test tries to make a reused plan differ from a fresh one, lose or
/// corrupt data, or crash.
///
/// Most tests use the oracle of ``XCTestCase/assertKeptPlanMatchesFreshPlans(_:table:_:operation:setup:file:line:)``:
/// the same records written on two fresh databases, one where the plans are kept and reused, one where they
/// are dropped before every write, so that each record makes its own plan (encoded once, bound from that
/// encoding, as the first record of a type is).
final class WritePlanReuseTests: XCTestCase {
    // MARK: - encode(to:) that varies between records

    fileprivate struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Boom: Error, CustomStringConvertible {
        var description: String { "boom from encode(to:)" }
    }

    /// A record whose `encode(to:)` takes one of many shapes, chosen per record.
    private struct Shifty: Record {
        var id: Int64?
        var a: String
        var b: Int
        var c: Double?
        var shape = 0
        static let tableName = "shifty"
        enum CodingKeys: String, CodingKey { case id, a, b, c }

        func encode(to encoder: any Encoder) throws {
            switch shape {
            case 1:  // keys in another order
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(b, forKey: .b)
                try container.encode(a, forKey: .a)
                try container.encodeIfPresent(c, forKey: .c)
            case 2:  // an extra key
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encodeIfPresent(id, forKey: AnyKey("id"))
                try container.encode(a, forKey: AnyKey("a"))
                try container.encode(b, forKey: AnyKey("b"))
                try container.encodeIfPresent(c, forKey: AnyKey("c"))
                try container.encode("extra-\(a)", forKey: AnyKey("d"))
            case 3:  // a key fewer: c takes its DEFAULT on insert, keeps its value on update
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
            case 4:  // a encoded twice
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(a + "-again", forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeIfPresent(c, forKey: .c)
            case 5:  // c encoded twice, at the end
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeIfPresent(c, forKey: .c)
                try container.encode(1.25, forKey: .c)
            case 6:  // half of the keys through superEncoder(), with another key type
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                let superEncoder = container.superEncoder()
                var inner = superEncoder.container(keyedBy: AnyKey.self)
                try inner.encode(b, forKey: AnyKey("b"))
                try inner.encodeIfPresent(c, forKey: AnyKey("c"))
            case 7:  // a nested keyed container: must fail
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: .b)
                try nested.encode(b, forKey: AnyKey("x"))
                try container.encodeIfPresent(c, forKey: .c)
            case 8:  // superEncoder(forKey:): must fail
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                var single = container.superEncoder(forKey: .b).singleValueContainer()
                try single.encode(b)
                try container.encodeIfPresent(c, forKey: .c)
            case 9:  // not keyed at all: must fail
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(a)
            case 10:  // encodeNil for c
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeNil(forKey: .c)
            case 11:  // encode(nil as Double?) through the generic encode
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encode(nil as Double?, forKey: .c)
            case 12:  // encodeIfPresent(nil)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeIfPresent(nil as Double?, forKey: .c)
            case 13:  // throws its own error half way
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                throw Boom()
            case 15:  // asks for the keyed container twice
                var first = encoder.container(keyedBy: CodingKeys.self)
                try first.encodeIfPresent(id, forKey: .id)
                try first.encode(a, forKey: .a)
                var second = encoder.container(keyedBy: CodingKeys.self)
                try second.encode(b, forKey: .b)
                try second.encodeIfPresent(c, forKey: .c)
            case 16:  // the same key strings through a struct key type
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encodeIfPresent(id, forKey: AnyKey("id"))
                try container.encode(a, forKey: AnyKey("a"))
                try container.encode(b, forKey: AnyKey("b"))
                try container.encodeIfPresent(c, forKey: AnyKey("c"))
            case 17:  // a key that differs only in case from the column
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encodeIfPresent(id, forKey: AnyKey("id"))
                try container.encode(a, forKey: AnyKey("A"))
                try container.encode(b, forKey: AnyKey("b"))
                try container.encodeIfPresent(c, forKey: AnyKey("c"))
            case 19:  // no primary key at all
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeIfPresent(c, forKey: .c)
            case 20:  // the primary key last
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeIfPresent(c, forKey: .c)
                try container.encodeIfPresent(id, forKey: .id)
            case 18:  // a scalar value encoded as Int64 instead of Int, a String as String? through the generic encode
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a as String?, forKey: .a)
                try container.encode(Int64(b), forKey: .b)
                try container.encode(Float(c ?? 0), forKey: .c)
            default:  // what the compiler would write
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(id, forKey: .id)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encodeIfPresent(c, forKey: .c)
            }
        }
    }

    private static let shiftySchema =
        "CREATE TABLE shifty(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL DEFAULT 9.5, d TEXT DEFAULT 'dflt')"
    private static let shapes = [
        0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 11, 12, 0, 13, 0, 15, 16, 0, 17, 0, 18, 0, 19, 0,
        20, 0,
    ]

    private func shifty(ids: Bool) -> [Shifty] {
        Self.shapes.enumerated().map { index, shape in
            Shifty(
                id: ids ? Int64(100 + index) : nil, a: "a\(index)", b: index * 10,
                c: index % 3 == 0 ? nil : Double(index) + 0.5, shape: shape)
        }
    }

    func testInsertsWithoutIDOfEveryEncodeShapeMatchFreshPlans() throws {
        let result = try assertKeptPlanMatchesFreshPlans(Self.shiftySchema, table: "shifty", shifty(ids: false))
        // Spot checks of what a user would see.
        XCTAssertEqual(result.outcomes[0], "ok id=1")
        XCTAssertEqual(result.outcomes[1], "ok id=2")
        XCTAssertTrue(result.outcomes[13].contains("holds one value"), result.outcomes[13])
        XCTAssertTrue(result.outcomes[23].contains("boom"), result.outcomes[23])
        XCTAssertTrue(result.rows.contains("2|'a1'|10|1.5|'dflt'"), "\(result.rows)")
        XCTAssertTrue(result.rows.contains("4|'a3'|30|NULL|'extra-a3'"), "\(result.rows)")
        XCTAssertTrue(result.rows.contains("6|'a5'|50|9.5|'dflt'"), "\(result.rows)")
    }

    func testInsertsWithIDOfEveryEncodeShapeMatchFreshPlans() throws {
        let result = try assertKeptPlanMatchesFreshPlans(Self.shiftySchema, table: "shifty", shifty(ids: true))
        XCTAssertEqual(result.outcomes[0], "ok id=100")
        XCTAssertEqual(result.outcomes[31], "ok id=131")
    }

    func testUpdatesOfEveryEncodeShapeMatchFreshPlans() throws {
        let setup = Self.shapes.indices.map { index in
            Shifty(id: Int64(100 + index), a: "old", b: -1, c: -1.5, shape: 0)
        }
        let result = try assertKeptPlanMatchesFreshPlans(
            Self.shiftySchema, table: "shifty", shifty(ids: true), operation: .update, setup: setup)
        XCTAssertTrue(
            result.rows.contains("105|'a5'|50|-1.5|'dflt'"), "a key fewer keeps the old value: \(result.rows)")
    }

    /// A record whose `encode(to:)` leaves `takenAt` out when nil: a record with it diverges from the plan.
    private struct Reading: Record {
        var id: Int64?
        var takenAt: Date?
        var value: Double
        var count: UInt64 = 0
        static let tableName = "readings"
        enum CodingKeys: String, CodingKey { case id, takenAt, value, count }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            if let takenAt { try container.encode(takenAt, forKey: .takenAt) }
            try container.encode(value, forKey: .value)
            try container.encode(count, forKey: .count)
        }
    }

    /// Once a defect, now fixed: once a record's keys diverge from the plan's, the plan path skips converting the
    /// values of the diverged keys (a Date out of range, a NaN Decimal) but still checks later Doubles and
    /// UInt64s, so it throws the later key's error where a fresh plan's encoding throws the earlier key's.
    func testADivergedRecordThrowsTheSameFirstErrorAsAFreshPlan() throws {
        let schema = "CREATE TABLE readings(id INTEGER PRIMARY KEY, takenAt TEXT, value REAL, count INTEGER)"
        let farFuture = Date(timeIntervalSince1970: 1e13)  // year 318857: no text form
        try assertKeptPlanMatchesFreshPlans(
            schema, table: "readings",
            [
                Reading(id: nil, takenAt: nil, value: 1.5),
                Reading(id: nil, takenAt: farFuture, value: .nan),
                Reading(id: nil, takenAt: farFuture, value: 2, count: .max),
                Reading(id: nil, takenAt: nil, value: 3),
            ])
    }

    // MARK: - Errors on the plan path

    nonisolated(unsafe) private static var serial = 0

    /// Encodes a serial number that changes every time `encode(to:)` runs (as a record stamping `Date()`
    /// or a fresh UUID would).
    private struct Stamped: Record {
        var id: Int64?
        var key: String
        static let tableName = "stamped"
        enum CodingKeys: String, CodingKey { case id, key, serial }
        init(key: String) { self.key = key }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64?.self, forKey: .id)
            key = try container.decode(String.self, forKey: .key)
        }
        func encode(to encoder: any Encoder) throws {
            serial += 1
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(key, forKey: .key)
            try container.encode(serial, forKey: .serial)
        }
    }

    /// Once a defect, now fixed: on the plan path a DatabaseError's `arguments` come from encoding the record a
    /// second time (Record+Write.swift, now encodedArguments), not from the values bound. A record whose
    /// `encode(to:)` is not a pure function reports arguments that were never bound, and its
    /// `encode(to:)` runs twice for one failing write.
    func testAConstraintErrorReportsTheValuesActuallyBound() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE stamped(id INTEGER PRIMARY KEY, key TEXT UNIQUE, serial INTEGER)")
        var first = Stamped(key: "a")
        try first.insert(db)
        var second = Stamped(key: "b")
        try second.insert(db)
        XCTAssertNotNil(keptPlan(Stamped.self, .insertWithoutID, in: db))
        let before = Self.serial
        var duplicate = Stamped(key: "a")
        XCTAssertThrowsError(try duplicate.insert(db)) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .constraintUnique)
            XCTAssertEqual(error.arguments?.values, [.text("a"), .integer(Int64(before + 1))], "the bound values")
        }
        XCTAssertEqual(Self.serial, before + 1, "encode(to:) ran once for the failing write")
        XCTAssertEqual(try WritePlanOracle.rows(db, "stamped"), ["1|'a'|\(before - 1)", "2|'b'|\(before)"])
    }

    private struct Poisoned: Record {
        var id: Int64?
        var name: String
        var poison = false
        static let tableName = "poisoned"
        enum CodingKeys: String, CodingKey { case id, name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(name, forKey: .name)
            if poison {
                throw DatabaseError(
                    resultCode: .error, message: "lookup failed", sql: "SELECT 1", arguments: ["marker"])
            }
        }
    }

    /// Once a defect, now fixed: a DatabaseError that the record's own `encode(to:)` throws (it looked something
    /// up, say) is rethrown by the plan path with its `arguments` replaced (Record+Write.swift: the
    /// `catch let error as DatabaseError` around `encoder.encode(self)`), where a fresh plan
    /// passes it on unchanged.
    func testADatabaseErrorFromEncodeToPassesThroughUnchanged() throws {
        try assertKeptPlanMatchesFreshPlans(
            "CREATE TABLE poisoned(id INTEGER PRIMARY KEY, name TEXT)", table: "poisoned",
            [
                Poisoned(id: nil, name: "ok"), Poisoned(id: nil, name: "ok2"),
                Poisoned(id: nil, name: "bad", poison: true), Poisoned(id: nil, name: "ok3"),
            ])
    }

    // MARK: - Constraints

    private struct Member: Record {
        var id: Int64?
        var email: String
        var name: String?
        var age: Int
        var teamId: Int64?
        static let tableName = "members"
    }

    private static let membersSchema = """
        CREATE TABLE teams(id INTEGER PRIMARY KEY);
        INSERT INTO teams VALUES (1), (2);
        CREATE TABLE members(id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL,
          age INTEGER CHECK (age >= 0), teamId INTEGER REFERENCES teams(id));
        """

    private static let memberWrites: [Member] = [
        Member(id: nil, email: "a@x", name: "A", age: 1, teamId: 1),
        Member(id: nil, email: "b@x", name: "B", age: 2, teamId: 2),
        Member(id: nil, email: "a@x", name: "dup", age: 3, teamId: 1),  // UNIQUE
        Member(id: nil, email: "c@x", name: nil, age: 3, teamId: 1),  // NOT NULL
        Member(id: nil, email: "d@x", name: "D", age: -1, teamId: 1),  // CHECK
        Member(id: nil, email: "e@x", name: "E", age: 5, teamId: 99),  // FOREIGN KEY
        Member(id: nil, email: "f@x", name: "F", age: 6, teamId: nil),  // valid after every failure
        Member(id: 1, email: "g@x", name: "G", age: 7, teamId: 1),  // PRIMARY KEY (insertWithID)
        Member(id: 50, email: "h@x", name: "H", age: 8, teamId: 2),
        Member(id: 51, email: "h@x", name: "H2", age: 8, teamId: 2),  // UNIQUE through insertWithID's plan
        Member(id: 52, email: "i@x", name: "I", age: 9, teamId: 2),
    ]

    func testConstraintViolationsOnInsertMatchFreshPlansAndLeaveThePlanUsable() throws {
        let result = try assertKeptPlanMatchesFreshPlans(Self.membersSchema, table: "members", Self.memberWrites)
        XCTAssertEqual(
            result.rows,
            ["1|'a@x'|'A'|1|1", "2|'b@x'|'B'|2|2", "3|'f@x'|'F'|6|NULL", "50|'h@x'|'H'|8|2", "52|'i@x'|'I'|9|2"])
        XCTAssertTrue(result.outcomes[2].contains("UNIQUE") && result.outcomes[2].contains("dup"), result.outcomes[2])
    }

    func testConstraintViolationsOnUpdateMatchFreshPlans() throws {
        let setup = [
            Member(id: 1, email: "a@x", name: "A", age: 1, teamId: 1),
            Member(id: 2, email: "b@x", name: "B", age: 2, teamId: 2),
            Member(id: 3, email: "c@x", name: "C", age: 3, teamId: 2),
        ]
        let updates = [
            Member(id: 1, email: "a2@x", name: "A2", age: 10, teamId: 2),
            Member(id: 2, email: "a2@x", name: "B2", age: 2, teamId: 2),  // UNIQUE
            Member(id: 2, email: "b2@x", name: nil, age: 2, teamId: 2),  // NOT NULL
            Member(id: 2, email: "b2@x", name: "B2", age: -5, teamId: 2),  // CHECK
            Member(id: 2, email: "b2@x", name: "B2", age: 5, teamId: 42),  // FOREIGN KEY
            Member(id: 77, email: "z@x", name: "Z", age: 5, teamId: 1),  // no such row
            Member(id: 3, email: "c2@x", name: "C2", age: 30, teamId: nil),  // valid after every failure
        ]
        let result = try assertKeptPlanMatchesFreshPlans(
            Self.membersSchema, table: "members", updates, operation: .update, setup: setup)
        XCTAssertEqual(result.rows, ["1|'a2@x'|'A2'|10|2", "2|'b@x'|'B'|2|2", "3|'c2@x'|'C2'|30|NULL"])
        XCTAssertTrue(
            result.outcomes[5].contains("recordNotFound") || result.outcomes[5].contains("77"), result.outcomes[5])
    }

    func testAnErrorAtBindTimeMatchesFreshPlansAndLeavesThePlanUsable() throws {
        // SQLITE_TOOBIG from sqlite3_bind_text64: a 100-byte length limit on both connections.
        func run(freshPlans: Bool) throws -> ([String], [String]) {
            let db = try Database()
            try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body BLOB)")
            var outcomes: [String] = []
            var one = Note(id: nil, title: "one", body: Data([1]))
            try one.insert(db)  // makes the plan (reading the schema needs more than 100 bytes)
            let original = sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, 100)
            defer { sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, original) }
            let writes = [
                Note(id: nil, title: String(repeating: "x", count: 200), body: Data([2])),
                Note(id: nil, title: "three", body: Data(repeating: 3, count: 200)),
                Note(id: nil, title: "four", body: Data([4])),
            ]
            for var note in writes {
                if freshPlans { db.recordCache = nil }
                do {
                    try note.insert(db)
                    outcomes.append("ok \(note.id!)")
                } catch { outcomes.append(WritePlanOracle.describe(error)) }
            }
            sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, original)
            return (outcomes, try WritePlanOracle.rows(db, "notes"))
        }
        let kept = try run(freshPlans: false)
        let fresh = try run(freshPlans: true)
        XCTAssertEqual(kept.0, fresh.0)
        XCTAssertTrue(kept.0[0].contains("too big"), "\(kept.0)")
        XCTAssertEqual(kept.1, fresh.1)
        XCTAssertEqual(kept.1, ["1|'one'|X'01'", "2|'four'|X'04'"])
    }

    private struct Note: Record, Equatable {
        var id: Int64?
        var title: String
        var body: Data
        static let tableName = "notes"
    }

    /// The error as ``WritePlanOracle/describe(_:)`` gives it, with the time a busy error waited left out:
    /// on a loaded machine it varies from run to run.
    private static func describingWait(_ error: any Error) -> String {
        WritePlanOracle.describe(error).replacingOccurrences(
            of: #"waited [0-9.]+ s"#, with: "waited _ s", options: .regularExpression)
    }

    func testABusyErrorOnThePlanPathMatchesFreshPlansAndLeavesThePlanUsable() throws {
        func scenario(freshPlans: Bool) throws -> (outcomes: [String], rows: [String]) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("busy.sqlite").path
            var options = Database.Options()
            options.busyTimeout = 0.05
            options.showsArgumentsInErrors = true
            let a = try Database(path: path, options: options)
            let b = try Database(path: path, options: options)
            try a.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body BLOB)")
            var outcomes: [String] = []
            func insert(_ title: String, id: Int64? = nil) {
                if freshPlans { a.recordCache = nil }
                var note = Note(id: id, title: title, body: Data(title.utf8))
                do {
                    try note.insert(a)
                    outcomes.append("ok \(note.id!)")
                } catch { outcomes.append(Self.describingWait(error)) }
            }
            insert("one")
            insert("two")
            insert("ten", id: 10)
            insert("eleven", id: 11)
            try b.execute(sql: "BEGIN IMMEDIATE")
            insert("blocked")
            insert("blocked", id: 20)
            do {
                try Note(id: 1, title: "blocked", body: Data()).update(a)
                outcomes.append("updated")
            } catch { outcomes.append(Self.describingWait(error)) }
            try b.execute(sql: "COMMIT")
            insert("after")
            insert("after", id: 21)
            try Note(id: 1, title: "one-updated", body: Data()).update(a)
            return (outcomes, try WritePlanOracle.rows(a, "notes"))
        }
        let kept = try scenario(freshPlans: false)
        let fresh = try scenario(freshPlans: true)
        XCTAssertEqual(kept.outcomes, fresh.outcomes)
        XCTAssertEqual(kept.rows, fresh.rows)
        XCTAssertTrue(kept.outcomes[4].contains("locked"), kept.outcomes[4])
        XCTAssertEqual(
            kept.rows,
            [
                "1|'one-updated'|X''", "2|'two'|X'74776F'", "10|'ten'|X'74656E'", "11|'eleven'|X'656C6576656E'",
                "12|'after'|X'6166746572'", "21|'after'|X'6166746572'",
            ])
    }
}
