import Foundation
import XCTest

@testable import SQLiteRecord

/// The first write of a record type on a connection makes a plan from the record and is written through it,
/// bound from that record's encoding; the writes after it bind straight into the kept plan's statement
/// through its encoder. These tests hold the later writes to the first's results and errors.
final class RecordWritePlanTests: XCTestCase {
    private enum Kind: String, Codable { case small, large }
    private struct Detail: Codable, Equatable { var tags: [String] }

    private struct Item: Record, Equatable {
        var id: Int64?
        var name: String
        var seenAt: Date
        var isActive: Bool
        var ratio: Double
        var count: Int?
        var kind: Kind
        var detail: Detail
        var token: UUID

        static let tableName = "items"
        static let recordEncoder: RecordEncoder = {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }()
        static let rowDecoder: RowDecoder = {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }()
    }

    private static let itemsTable = """
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, seen_at TEXT, is_active BOOLEAN, ratio REAL,
          count INTEGER, kind TEXT, detail TEXT, token TEXT)
        """
    /// Every column of a row as SQL literals, so storage classes show: 'text', 1, 0.5, NULL.
    private static let quotedRow =
        "SELECT quote(name) || ' ' || quote(seen_at) || ' ' || quote(is_active) || ' ' || quote(ratio) || ' ' "
        + "|| quote(count) || ' ' || quote(kind) || ' ' || quote(detail) || ' ' || quote(token) FROM items "
        + "WHERE id = ?"

    private func item(_ name: String, id: Int64? = nil, count: Int? = nil) throws -> Item {
        Item(
            id: id, name: name, seenAt: Date(timeIntervalSince1970: 1_714_566_600.25), isActive: true, ratio: 0.5,
            count: count, kind: .large, detail: Detail(tags: ["a", "b"]),
            token: try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))
    }

    private func plan(_ kind: RecordWritePlan.Kind, in db: Database) -> RecordWritePlan? {
        RecordConnectionCache.of(db).writePlan(for: ObjectIdentifier(Item.self), kind)
    }

    func testRecordsAfterTheFirstStoreExactlyWhatTheFirstStored() throws {
        let db = try Database()
        try db.execute(sql: Self.itemsTable)
        var first = try item("first")
        try first.insert(db)
        XCTAssertNotNil(plan(.insertWithoutID, in: db), "the first insert makes the plan")
        var second = try item("first")
        try second.insert(db)
        var third = try item("third", id: 10, count: 7)
        try third.insert(db)
        var fourth = try item("fourth", id: 11)
        try fourth.insert(db)
        XCTAssertNotNil(plan(.insertWithID, in: db))
        // The second and the fourth went through a plan (the first and third made one each).
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 2)

        XCTAssertEqual([first.id, second.id, third.id, fourth.id], [1, 2, 10, 11])
        let expected =
            "'first' '2024-05-01 12:30:00.250' 1 0.5 NULL 'large' '{\"tags\":[\"a\",\"b\"]}' "
            + "'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'"
        XCTAssertEqual(try db.fetchOne(String.self, sql: Self.quotedRow, arguments: [1]), expected)
        XCTAssertEqual(try db.fetchOne(String.self, sql: Self.quotedRow, arguments: [2]), expected)
        XCTAssertEqual(
            try db.fetchOne(String.self, sql: Self.quotedRow, arguments: [10]),
            expected.replacingOccurrences(of: "'first'", with: "'third'").replacingOccurrences(of: "NULL", with: "7"))
        XCTAssertEqual(try Item.fetch(db), [first, second, third, fourth])
    }

    func testUpdatesThroughThePlanWriteEveryColumnAndReportAMissingRow() throws {
        let db = try Database()
        try db.execute(sql: Self.itemsTable)
        var first = try item("first")
        var second = try item("second")
        try first.insert(db)
        try second.insert(db)
        first.name = "renamed"
        try first.update(db)
        XCTAssertNotNil(plan(.update, in: db))
        second.count = 3
        second.isActive = false
        try second.update(db)
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 2, "the second insert and the second update")
        XCTAssertEqual(try Item.fetch(db), [first, second])

        var missing = second
        missing.id = 99
        XCTAssertThrowsError(try missing.update(db)) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "items", id: "99"))
        }
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM items"), 2, "nothing inserted")
    }

    func testAConstraintErrorThroughThePlanCarriesTheBoundArguments() throws {
        let db = try Database()
        try db.execute(sql: Self.itemsTable)
        var one = try item("one", id: 1)
        try one.insert(db)
        var two = try item("two", id: 2)
        try two.insert(db)
        var again = try item("again", id: 1)
        XCTAssertThrowsError(try again.insert(db)) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .constraintPrimaryKey)
            XCTAssertEqual(
                error.sql,
                "INSERT INTO \"items\" (\"id\", \"name\", \"seen_at\", \"is_active\", \"ratio\", \"count\", \"kind\", "
                    + "\"detail\", \"token\") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            XCTAssertEqual(error.arguments?.values.first, .integer(1))
            XCTAssertEqual(error.arguments?.values[1], .text("again"))
            XCTAssertEqual(error.arguments?.values[2], .text("2024-05-01 12:30:00.250"))
            XCTAssertEqual(error.arguments?.values.count, 9)
        }
        XCTAssertEqual(try Item.fetchOne(db, id: 1)?.name, "one")
    }

    func testValueErrorsThroughThePlanAreTheCollectedWaysErrors() throws {
        let db = try Database()
        try db.execute(sql: Self.itemsTable)
        var valid = try item("valid")
        try valid.insert(db)
        for change in [{ (item: inout Item) in item.ratio = .nan }, { item in item.seenAt = .distantFuture * 5000 }] {
            var bad = try item("bad")
            change(&bad)
            let collected = Result { try Item.recordEncoder.encode(bad, tableName: "items") }
            XCTAssertThrowsError(try bad.insert(db)) { error in
                guard case .failure(let expected) = collected else { return XCTFail("the encoding without a plan succeeded") }
                XCTAssertEqual("\(error)", "\(expected)")
            }
        }
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM items"), 1)
    }

    private struct Code: Record {
        var id: Int64?
        var code: String
        static let tableName = "codes"
    }

    func testTheAffinityGuardRefusesTextThroughThePlanAndFollowsSchemaChanges() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code STRING)")
        var plain = Code(id: nil, code: "A1")
        try plain.insert(db)
        var padded = Code(id: nil, code: "00120")
        XCTAssertThrowsError(try padded.insert(db)) { error in
            guard case .invalidValue(let value, _)? = error as? EncodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(value as? String, "00120")
        }
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT code FROM codes"), ["A1"])

        // Declared TEXT now: the plan made under the old schema must not refuse it.
        try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        try padded.insert(db)
        var next = Code(id: nil, code: "007")
        try next.insert(db)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT code FROM codes ORDER BY id"), ["00120", "007"])

        // And back to a numeric affinity, inside one transaction this time.
        try db.transaction {
            try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code NUMERIC)")
            var refused = Code(id: nil, code: "00120")
            XCTAssertThrowsError(try refused.insert(db))
        }
    }

    /// Leaves `note` out when it is nil, as a hand-written `encode(to:)` may (``RecordUpdateChangesTests`` uses
    /// it too).
    struct Memo: Record, Equatable {
        var id: Int64?
        var title: String
        var note: String?
        static let tableName = "memos"

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            if let note { try container.encode(note, forKey: .note) }
        }
    }

    func testARecordWhoseKeysDifferFromThePlansIsWrittenTheCollectedWay() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE memos(id INTEGER PRIMARY KEY, title TEXT, note TEXT DEFAULT 'none')")
        for (title, note) in [("a", "x"), ("b", nil), ("c", "y"), ("d", nil), ("e", "z")] {
            var memo = Memo(id: nil, title: title, note: note)
            try memo.insert(db)
        }
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT title || '=' || note FROM memos ORDER BY id"),
            ["a=x", "b=none", "c=y", "d=none", "e=z"])
    }
}

/// Encodes through one of two key types whose cases have the same bytes but name the columns the other way
/// round: the plan must tell the keys apart by type, not by bytes alone.
private struct Swapped: Record, Equatable {
    var id: Int64?
    var left: String
    var right: String
    var viaOtherKeys: Bool
    static let tableName = "swapped"

    private enum StraightKeys: String, CodingKey { case id, left, right }
    private enum CrossedKeys: String, CodingKey {
        case id
        case left = "right"
        case right = "left"
    }

    init(id: Int64?, left: String, right: String, viaOtherKeys: Bool) {
        self.id = id
        self.left = left
        self.right = right
        self.viaOtherKeys = viaOtherKeys
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StraightKeys.self)
        id = try container.decode(Int64?.self, forKey: .id)
        left = try container.decode(String.self, forKey: .left)
        right = try container.decode(String.self, forKey: .right)
        viaOtherKeys = false
    }

    func encode(to encoder: any Encoder) throws {
        if viaOtherKeys {
            // Writes `left` into the column "right" and the other way round.
            var container = encoder.container(keyedBy: CrossedKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(left, forKey: .left)
            try container.encode(right, forKey: .right)
        } else {
            var container = encoder.container(keyedBy: StraightKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(left, forKey: .left)
            try container.encode(right, forKey: .right)
        }
    }
}

final class RecordWritePlanKeyTypeTests: XCTestCase {
    func testKeysOfAnotherTypeWithTheSameBytesAreToldApart() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE swapped(id INTEGER PRIMARY KEY, left TEXT, right TEXT)")
        for (number, crossed) in [false, false, true, false, true, true].enumerated() {
            var record = Swapped(id: nil, left: "L\(number)", right: "R\(number)", viaOtherKeys: crossed)
            try record.insert(db)
        }
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT left || ' ' || right FROM swapped ORDER BY id"),
            ["L0 R0", "L1 R1", "R2 L2", "L3 R3", "R4 L4", "R5 L5"])
    }
}

extension Date {
    fileprivate static func * (date: Date, factor: Double) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970 * factor)
    }
}
