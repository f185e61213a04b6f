import Foundation
import XCTest

@testable import SQLiteRecord

/// One column `v`, read through the generic `decode(_:forKey:)`.
private struct Box<Value: Decodable>: Decodable {
    var v: Value
}

private enum Color: String, Codable, Equatable {
    case red, green
}

private struct Address: Codable, Equatable {
    var street: String
    var zip: String
}

/// What reading a stored value as a Swift type gives: the value, or the kind of `DecodingError`.
private enum Outcome<Value> {
    case value(Value)
    /// The storage class can never hold the type.
    case typeMismatch
    /// The storage class is one the type reads, but the content is no valid value.
    case dataCorrupted
    case valueNotFound
    /// The nested JSON's own `keyNotFound`, at this coding path.
    case keyNotFound([String])
}

/// The value table, as the ValuesAndCoding article states it: every Swift type the decoder reads straight
/// from a column, from every storage class, with the exact value or the exact error kind Foundation's coders
/// would throw (`typeMismatch` when the storage can never hold the type, `dataCorrupted` when the content is
/// not a valid value).
final class ValueTableTests: XCTestCase {
    private struct NoRow: Error {}

    /// Stores `stored` in an untyped column (so it keeps its storage class) and reads it as `Value`.
    private func read<Value: Decodable>(_ type: Value.Type, _ stored: SQLiteValue) throws -> Value {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [stored])
        let statement = try db.makeStatement(sql: "SELECT v FROM t")
        guard try statement.step() else { throw NoRow() }
        let context = RowDecodingContext(statement: statement, tableName: "t", missingOptionalColumnIsNil: false)
        return try context.decodeRow(Box<Value>.self).v
    }

    private func check<Value: Decodable & Equatable>(
        _ type: Value.Type, _ cases: [(SQLiteValue, Outcome<Value>)], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for (stored, expected) in cases {
            let label = "\(Value.self) from \(stored)"
            switch expected {
            case .value(let wanted):
                XCTAssertEqual(try read(type, stored), wanted, label, file: file, line: line)
            default:
                XCTAssertThrowsError(try read(type, stored), label, file: file, line: line) { error in
                    let context: DecodingError.Context
                    switch (error, expected) {
                    case (DecodingError.typeMismatch(_, let found), .typeMismatch),
                        (DecodingError.dataCorrupted(let found), .dataCorrupted),
                        (DecodingError.valueNotFound(_, let found), .valueNotFound):
                        context = found
                        XCTAssertEqual(context.codingPath.map(\.stringValue), ["v"], label, file: file, line: line)
                    case (DecodingError.keyNotFound(_, let found), .keyNotFound(let path)):
                        context = found
                        XCTAssertEqual(context.codingPath.map(\.stringValue), path, label, file: file, line: line)
                    default:
                        return XCTFail("\(label): expected \(expected), got \(error)", file: file, line: line)
                    }
                    // Every error says where, what is stored and what was asked for.
                    let description = context.debugDescription
                    for fragment in ["column \"v\" of table \"t\"", stored.storageClassName] {
                        XCTAssertTrue(
                            description.contains(fragment), "\(label): \(description)", file: file, line: line)
                    }
                }
            }
        }
    }

    private let blob = SQLiteValue.blob(Data([1, 2, 3]))

    func testIntegers() {
        check(
            Int.self,
            [
                (.integer(42), .value(42)), (.real(42.0), .value(42)), (.real(-0.0), .value(0)),
                (.real(1.5), .dataCorrupted), (.real(1e300), .dataCorrupted), (.real(.infinity), .dataCorrupted),
                (.text("42"), .typeMismatch), (blob, .typeMismatch), (.null, .valueNotFound),
            ])
        check(Int16.self, [(.integer(70_000), .dataCorrupted), (.integer(-32_768), .value(-32_768))])
        check(
            UInt8.self, [(.integer(-1), .dataCorrupted), (.real(255.0), .value(255)), (.real(256.0), .dataCorrupted)])
        check(UInt64.self, [(.integer(Int64.max), .value(UInt64(Int64.max))), (.integer(-1), .dataCorrupted)])
    }

    func testDoubleAndFloat() {
        check(
            Double.self,
            [
                (.real(2.5), .value(2.5)), (.real(.infinity), .value(.infinity)), (.integer(3), .value(3)),
                (.integer(9_007_199_254_740_992), .value(9_007_199_254_740_992)),
                (.integer(9_007_199_254_740_993), .dataCorrupted), (.integer(Int64.max), .dataCorrupted),
                (.text("2.5"), .typeMismatch), (blob, .typeMismatch), (.null, .valueNotFound),
            ])
        check(
            Float.self,
            [
                (.real(0.5), .value(0.5)), (.real(0.1), .value(Float(0.1))),
                (.real(3.4028235e38), .value(.greatestFiniteMagnitude)), (.real(1e39), .dataCorrupted),
                (.real(-1e300), .dataCorrupted), (.real(-.infinity), .value(-.infinity)),
                (.integer(16_777_216), .value(16_777_216)), (.integer(16_777_217), .dataCorrupted),
                (.text("0.5"), .typeMismatch), (blob, .typeMismatch), (.null, .valueNotFound),
            ])
    }

    func testBool() {
        check(
            Bool.self,
            [
                (.integer(1), .value(true)), (.integer(0), .value(false)), (.integer(2), .dataCorrupted),
                (.real(0.0), .value(false)), (.real(0.5), .dataCorrupted), (.text("YES"), .value(true)),
                (.text("f"), .value(false)), (.text("maybe"), .dataCorrupted), (blob, .typeMismatch),
                (.null, .valueNotFound),
            ])
    }

    func testStringAndData() throws {
        check(
            String.self,
            [
                (.text("Zürich"), .value("Zürich")), (.integer(-42), .value("-42")), (.real(19.99), .value("19.99")),
                (blob, .typeMismatch), (.null, .valueNotFound),
            ])
        check(
            Data.self,
            [
                (blob, .value(Data([1, 2, 3]))), (.text("ab"), .value(Data([97, 98]))), (.integer(1), .typeMismatch),
                (.real(1.5), .typeMismatch), (.null, .valueNotFound),
            ])
        // TEXT that is not UTF-8 is the right storage with content that is no String.
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (CAST(x'61FF62' AS TEXT))")
        let statement = try db.makeStatement(sql: "SELECT v FROM t")
        _ = try statement.step()
        let context = RowDecodingContext(statement: statement, tableName: "t", missingOptionalColumnIsNil: false)
        XCTAssertThrowsError(try context.decodeRow(Box<String>.self)) { error in
            guard case DecodingError.dataCorrupted(let found) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(
                found.debugDescription,
                "Expected String but column \"v\" of table \"t\" holds TEXT 'a\u{FFFD}b', which is not valid UTF-8")
        }
    }

    func testDate() {
        let instant = Date(timeIntervalSince1970: 1_615_734_566)
        check(
            Date.self,
            [
                (.text("2021-03-14 15:09:26"), .value(instant)), (.text("2021-03-14T15:09:26Z"), .value(instant)),
                // ISO 8601's offsets without a colon, and hours alone, as DateFormatter's Z pattern writes them.
                (.text("2021-03-14 15:09:26+0000"), .value(instant)),
                (.text("2021-03-14T20:39:26+0530"), .value(instant)),
                (.text("2021-03-14T20:09:26+05"), .value(instant)),
                (.text("2021-03-14T10:09:26-05:00"), .value(instant)),
                (.text("soon"), .dataCorrupted), (.text(""), .dataCorrupted), (.text("2021-02-30"), .dataCorrupted),
                (.text("10000-01-01"), .dataCorrupted), (.text("2021-03-14 15:09:26+5"), .dataCorrupted),
                (.integer(1_615_734_566), .value(instant)), (.real(1_615_734_566.5), .value(instant + 0.5)),
                (.real(.infinity), .dataCorrupted), (blob, .typeMismatch), (.null, .valueNotFound),
            ])
    }

    func testUUIDAndURL() throws {
        let uuid = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        check(
            UUID.self,
            [
                (.text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), .value(uuid)),
                (.text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .value(uuid)), (.blob(bytes), .value(uuid)),
                (.text("not-a-uuid"), .dataCorrupted), (.blob(Data(repeating: 1, count: 15)), .dataCorrupted),
                (.integer(1), .typeMismatch), (.real(1.5), .typeMismatch), (.null, .valueNotFound),
            ])
        check(
            URL.self,
            [
                (.text("https://example.org/a"), .value(try XCTUnwrap(URL(string: "https://example.org/a")))),
                (.text(""), .dataCorrupted), (.integer(1), .typeMismatch), (.real(1.5), .typeMismatch),
                (blob, .typeMismatch), (.null, .valueNotFound),
            ])
    }

    func testDecimal() {
        check(
            Decimal.self,
            [
                (.text("19.99"), .value(Decimal(sign: .plus, exponent: -2, significand: 1999))),
                (.real(19.99), .value(Decimal(sign: .plus, exponent: -2, significand: 1999))),
                (.integer(12), .value(12)), (.text("12abc"), .dataCorrupted), (.text(""), .dataCorrupted),
                (.text("1e200"), .dataCorrupted), (.real(.infinity), .dataCorrupted), (blob, .typeMismatch),
                (.null, .valueNotFound),
            ])
    }

    func testEnumsAndNestedValues() {
        check(
            Color.self,
            [
                (.text("red"), .value(.red)), (.text("purple"), .dataCorrupted), (.integer(1), .dataCorrupted),
                (blob, .typeMismatch), (.null, .valueNotFound),
            ])
        check(
            Address.self,
            [
                (.text(#"{"street":"Main","zip":"75001"}"#), .value(Address(street: "Main", zip: "75001"))),
                (.blob(Data(#"{"street":"B","zip":"2"}"#.utf8)), .value(Address(street: "B", zip: "2"))),
                (.text("not json"), .dataCorrupted), (.text(#"{"street":"Main"}"#), .keyNotFound(["v", "zip"])),
                (.integer(1), .typeMismatch), (.real(1.5), .typeMismatch), (.null, .valueNotFound),
            ])
    }

    // MARK: Errors from a table name the row

    private struct Resident: Record {
        var id: Int64?
        var name: String
        var address: Address
        var age: Int8
        static let tableName = "residents"
    }

    private func residentsDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE residents (id INTEGER PRIMARY KEY, name TEXT, address TEXT, age INTEGER)")
        for id in 1...6 {
            try db.execute(
                sql: "INSERT INTO residents VALUES (?, ?, ?, ?)",
                arguments: [id, "R\(id)", #"{"street":"Main","zip":"75001"}"#, 30 + id])
        }
        return db
    }

    func testANestedValuesErrorKeepsItsKindAndWholePath() throws {
        let db = try residentsDatabase()
        try db.execute(sql: #"UPDATE residents SET address = '{"street":"Main"}' WHERE id = 6"#)
        XCTAssertThrowsError(try Resident.fetch(db)) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "zip")
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["address", "zip"])
            XCTAssertTrue(
                context.debugDescription.hasPrefix(
                    #"Expected Address but column "address" of table "residents" holds TEXT '{"street":"Main"}', "#
                        + "whose JSON does not decode: "),
                context.debugDescription)
            XCTAssertTrue(context.debugDescription.hasSuffix(" (row id 6)"), context.debugDescription)
        }
    }

    func testAFetchFromATableNamesTheRowByItsKey() throws {
        let db = try residentsDatabase()
        try db.execute(sql: "UPDATE residents SET age = 300 WHERE id = 6")
        for fetch in [{ _ = try Resident.fetch(db) }, { _ = try Resident.fetchOne(db, id: 6) }] as [() throws -> Void] {
            XCTAssertThrowsError(try fetch()) { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(context.codingPath.map(\.stringValue), ["age"])
                XCTAssertEqual(
                    context.debugDescription,
                    "Expected Int8 but column \"age\" of table \"residents\" holds INTEGER 300, out of range (row id 6)"
                )
            }
        }
        // Raw SQL has no table to name the row in: the error is as the decoder made it.
        XCTAssertThrowsError(try Resident.fetch(db, sql: "SELECT * FROM residents WHERE id = 6")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "Expected Int8 but column \"age\" holds INTEGER 300, out of range")
        }
    }
}
