import Foundation
import SQLiteRecord
import XCTest

/// The value table of DESIGN.md, as Core's typed reads apply it: exact conversions, failures otherwise.
final class SQLiteValueReadableTests: XCTestCase {
    func testIntegersAcceptIntegersAndWholeRealsInRange() {
        XCTAssertEqual(Int8(sqliteValue: .integer(127)), 127)
        XCTAssertNil(Int8(sqliteValue: .integer(128)))
        XCTAssertEqual(Int8(sqliteValue: .integer(-128)), -128)
        XCTAssertEqual(Int16(sqliteValue: .real(175.0)), 175)
        XCTAssertNil(Int16(sqliteValue: .integer(70_000)))
        XCTAssertNil(Int(sqliteValue: .real(1.5)))
        XCTAssertNil(Int(sqliteValue: .real(.nan)))
        XCTAssertNil(Int(sqliteValue: .real(.infinity)))
        XCTAssertEqual(Int32(sqliteValue: .real(-2_147_483_648)), Int32.min)
        XCTAssertEqual(Int64(sqliteValue: .integer(Int64.min)), Int64.min)
        XCTAssertNil(Int64(sqliteValue: .real(9_223_372_036_854_775_808)), "2^63 is out of range")
        XCTAssertEqual(Int(sqliteValue: .integer(Int64.max)), Int.max)
        XCTAssertNil(UInt(sqliteValue: .integer(-1)))
        XCTAssertEqual(UInt8(sqliteValue: .integer(255)), 255)
        XCTAssertNil(UInt8(sqliteValue: .integer(256)))
        XCTAssertEqual(UInt16(sqliteValue: .integer(65_535)), 65_535)
        XCTAssertEqual(UInt32(sqliteValue: .real(4_294_967_295)), UInt32.max)
        XCTAssertEqual(UInt64(sqliteValue: .integer(Int64.max)), UInt64(Int64.max))
        XCTAssertEqual(UInt64(sqliteValue: .real(1e19)), 10_000_000_000_000_000_000)
        XCTAssertNil(Int(sqliteValue: .text("1")), "text is not an integer")
        XCTAssertNil(Int(sqliteValue: .blob(Data([1]))))
        XCTAssertNil(Int(sqliteValue: .null))
    }

    func testFloatingPoint() {
        XCTAssertEqual(Double(sqliteValue: .real(-0.1)), -0.1)
        XCTAssertEqual(Double(sqliteValue: .integer(3)), 3.0)
        XCTAssertEqual(Float(sqliteValue: .real(0.1)), Float(0.1))
        XCTAssertEqual(Float(sqliteValue: .integer(16_777_216)), 16_777_216)
        XCTAssertNil(Float(sqliteValue: .integer(16_777_217)), "a Float cannot hold it exactly")
        XCTAssertNil(Double(sqliteValue: .integer(9_007_199_254_740_993)), "a Double cannot hold it exactly")
        XCTAssertEqual(Double(sqliteValue: .integer(1 << 60)), 1_152_921_504_606_846_976.0)
        XCTAssertNil(Float(sqliteValue: .real(1e39)), "beyond Float's range, never infinity")
        XCTAssertEqual(Float(sqliteValue: .real(.infinity)), .infinity)
        XCTAssertNil(Double(sqliteValue: .text("1.5")))
        XCTAssertNil(Float(sqliteValue: .null))
    }

    func testBool() {
        let accepted: [(SQLiteValue, Bool)] = [
            (.integer(0), false), (.integer(1), true), (.real(0), false), (.real(1), true),
            ("1", true), ("0", false), ("true", true), ("FALSE", false), ("T", true), ("f", false),
            ("Yes", true), ("no", false), ("y", true), ("N", false),
        ]
        for (value, expected) in accepted {
            XCTAssertEqual(Bool(sqliteValue: value), expected, "\(value)")
        }
        for value: SQLiteValue in [.integer(2), .integer(-1), .real(0.5), "", "maybe", "2", .blob(Data([1])), .null] {
            XCTAssertNil(Bool(sqliteValue: value), "\(value) is never a silent false")
        }
    }

    func testStringAndData() {
        XCTAssertEqual(String(sqliteValue: "Zürich 東京"), "Zürich 東京")
        XCTAssertEqual(String(sqliteValue: .integer(-42)), "-42")
        XCTAssertEqual(String(sqliteValue: .real(19.99)), "19.99")
        XCTAssertNil(String(sqliteValue: .blob(Data("x".utf8))))
        XCTAssertNil(String(sqliteValue: .null))
        XCTAssertEqual(Data(sqliteValue: .blob(Data([0, 255]))), Data([0, 255]))
        XCTAssertEqual(Data(sqliteValue: "é"), Data([0xC3, 0xA9]))
        XCTAssertNil(Data(sqliteValue: .integer(1)))
    }

    func testDate() {
        let expected = Date(timeIntervalSince1970: 1_615_734_566)
        for text in ["2021-03-14 15:09:26", "2021-03-14T15:09:26", "2021-03-14T15:09:26Z", "2021-03-14 16:09:26+01:00"]
        {
            XCTAssertEqual(Date(sqliteValue: .text(text)), expected, text)
        }
        XCTAssertEqual(Date(sqliteValue: "2021-03-14"), Date(timeIntervalSince1970: 1_615_680_000))
        XCTAssertEqual(Date(sqliteValue: .integer(1_615_734_566)), expected)
        XCTAssertEqual(Date(sqliteValue: .real(1_615_734_566.5)), Date(timeIntervalSince1970: 1_615_734_566.5))
        for value: SQLiteValue in ["", "now", "2021-02-30", "14/03/2021", .real(.nan), .blob(Data()), .null] {
            XCTAssertNil(Date(sqliteValue: value), "\(value)")
        }
    }

    func testUUID() throws {
        let uuid = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let texts = [
            "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "e621e1f8c36c495a93fc0c247a3e6e5f", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        ]
        for text in texts {
            XCTAssertEqual(UUID(sqliteValue: .text(text)), uuid, text)
        }
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        XCTAssertEqual(UUID(sqliteValue: .blob(bytes)), uuid)
        XCTAssertNil(UUID(sqliteValue: .blob(bytes.prefix(15))))
        XCTAssertNil(UUID(sqliteValue: "not-a-uuid"))
        XCTAssertNil(UUID(sqliteValue: .text(String(repeating: "é", count: 16))), "32 bytes, 16 characters")
        XCTAssertNil(UUID(sqliteValue: .integer(1)))
    }

    func testOptionalAndSQLiteValue() {
        XCTAssertEqual(Int?(sqliteValue: .null), .some(nil))
        XCTAssertEqual(Int?(sqliteValue: .integer(3)), .some(3))
        XCTAssertEqual(Int?(sqliteValue: "x"), .none, "a value of the wrong type still fails")
        XCTAssertEqual(SQLiteValue(sqliteValue: .blob(Data([1]))), .blob(Data([1])))
        XCTAssertEqual(SQLiteValue(sqliteValue: .null), .null)
    }

    func testWhatIsBoundReadsBackAsTheSameValue() throws {
        let db = try Database()
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = UUID()
        XCTAssertEqual(try db.scalar(Int8.self, sql: "SELECT ?", arguments: [Int8.min]), Int8.min)
        XCTAssertEqual(try db.scalar(UInt64.self, sql: "SELECT ?", arguments: [UInt64(Int64.max)]), UInt64(Int64.max))
        XCTAssertEqual(try db.scalar(Float.self, sql: "SELECT ?", arguments: [Float(0.1)]), Float(0.1))
        XCTAssertEqual(try db.scalar(Bool.self, sql: "SELECT ?", arguments: [false]), false)
        XCTAssertEqual(try db.scalar(Data.self, sql: "SELECT ?", arguments: [Data([9, 8])]), Data([9, 8]))
        XCTAssertEqual(try db.scalar(Date.self, sql: "SELECT ?", arguments: [date]), date)
        XCTAssertEqual(try db.scalar(UUID.self, sql: "SELECT ?", arguments: [uuid]), uuid)
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT ?", arguments: [""]), "")
    }
}
