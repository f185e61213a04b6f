import Foundation
import XCTest

@testable import SQLiteRecord

// MARK: Types the records encode from

private enum Color: String, Codable, Equatable {
    case red, green
}

private enum Priority: Int, Codable, Equatable {
    case low = 1
    case high = 2
}

private struct Address: Codable, Equatable {
    var street: String
    var zip: String
}

/// Coding keys whose raw values differ from the property names, declared in an order of their own.
private struct Town: Codable, Equatable {
    var id: Int64?
    var countryId: Int64?
    var name: String
    var population: Int
    var foundedAt: Date?
    enum CodingKeys: String, CodingKey {
        case name
        case id
        case foundedAt = "founded_at"
        case population
        case countryId = "country_id"
    }
}

private struct Integers: Codable, Equatable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
}

/// Every kind of value the value table lists, Optional, for nil and non-nil encodings.
private struct Optionals: Codable, Equatable {
    var int: Int?
    var int8: Int8?
    var uint64: UInt64?
    var double: Double?
    var float: Float?
    var bool: Bool?
    var string: String?
    var data: Data?
    var date: Date?
    var uuid: UUID?
    var url: URL?
    var decimal: Decimal?
    var color: Color?
    var priority: Priority?
    var address: Address?
    var tags: [String]?
}

/// Every kind of value the value table lists, non-optional: the round-trip record.
private struct Everything: Codable, Equatable {
    var int: Int
    var double: Double
    var float: Float
    var bool: Bool
    var string: String
    var data: Data
    var date: Date
    var uuid: UUID
    var url: URL
    var decimal: Decimal
    var color: Color
    var priority: Priority
    var address: Address
    var tags: [String]
    var scores: [String: Int]
}

private struct Box<Value: Codable>: Codable {
    var v: Value
}

private struct Measurement: Codable {
    var score: Double
    var weight: Float?
}

private struct Counter: Codable {
    var big: UInt64
}

/// A single-value wrapper: stored as the value it wraps.
private struct Meters: Codable, Equatable {
    var value: Double
    init(_ value: Double) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Asks for a nested keyed container under a key, which a row cannot hold.
private struct Nesting: Encodable {
    enum CodingKeys: String, CodingKey { case inner }
    enum InnerKeys: String, CodingKey { case x }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try inner.encode(1, forKey: .x)
    }
}

// MARK: -

final class RecordEncoderTests: XCTestCase {
    private func encode<T: Encodable>(_ value: T) throws -> EncodedColumns {
        try RecordEncoder.encode(value, tableName: "t")
    }

    private func assertInvalidValue<T>(
        _ expression: @autoclosure () throws -> T, key: String?, mentions fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case EncodingError.invalidValue(_, let context) = error else {
                return XCTFail("expected EncodingError.invalidValue, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(context.codingPath.last?.stringValue, key, "coding path", file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(
                    context.debugDescription.contains(fragment),
                    "\"\(context.debugDescription)\" does not mention \(fragment)", file: file, line: line)
            }
        }
    }

    private let uuid = UUID(
        uuid: (0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F))

    // MARK: Columns

    func testColumnsFollowCodingKeyOrderWithRawValuesAsNames() throws {
        let town = Town(
            id: 3, countryId: 9, name: "Lyon", population: 522_000,
            foundedAt: Date(timeIntervalSince1970: -2_208_988_800))
        let columns = try encode(town)
        XCTAssertEqual(columns.names, ["name", "id", "founded_at", "population", "country_id"])
        XCTAssertEqual(
            columns.values,
            [.text("Lyon"), .integer(3), .text("1900-01-01 00:00:00.000"), .integer(522_000), .integer(9)])
        XCTAssertEqual(columns.value(for: "country_id"), .integer(9))
        XCTAssertEqual(columns.value(for: "founded_at"), .text("1900-01-01 00:00:00.000"))
        XCTAssertNil(columns.value(for: "countryId"))
    }

    func testNilOptionalsEncodeAsNullAndKeepTheirColumn() throws {
        let town = Town(id: nil, countryId: nil, name: "Lyon", population: 1, foundedAt: nil)
        let columns = try encode(town)
        XCTAssertEqual(columns.names, ["name", "id", "founded_at", "population", "country_id"])
        XCTAssertEqual(columns.values, [.text("Lyon"), .null, .null, .integer(1), .null])

        let empty = try encode(Optionals())
        XCTAssertEqual(
            empty.names,
            [
                "int", "int8", "uint64", "double", "float", "bool", "string", "data", "date", "uuid", "url", "decimal",
                "color", "priority", "address", "tags",
            ])
        XCTAssertEqual(empty.values, [SQLiteValue](repeating: .null, count: 16))
    }

    func testNonNilOptionalsEncodeTheirValues() throws {
        let optionals = Optionals(
            int: -1, int8: 8, uint64: 64, double: 0.5, float: 0.25, bool: true, string: "s", data: Data([1, 2]),
            date: Date(timeIntervalSince1970: 0), uuid: uuid, url: URL(string: "https://example.com/x"),
            decimal: Decimal(string: "19.99"), color: .green, priority: .high,
            address: Address(street: "Main", zip: "75001"), tags: ["a", "b"])
        let columns = try encode(optionals)
        XCTAssertEqual(
            columns.values,
            [
                .integer(-1), .integer(8), .integer(64), .real(0.5), .real(0.25), .integer(1), .text("s"),
                .blob(Data([1, 2])), .text("1970-01-01 00:00:00.000"), .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
                .text("https://example.com/x"), .real(19.99), .text("green"), .integer(2),
                .text(#"{"street":"Main","zip":"75001"}"#), .text(#"["a","b"]"#),
            ])
    }

    // MARK: Values

    func testBoolEncodesAsZeroOrOne() throws {
        XCTAssertEqual(try encode(Box(v: true)).values, [.integer(1)])
        XCTAssertEqual(try encode(Box(v: false)).values, [.integer(0)])
        XCTAssertEqual(try encode(Optionals(bool: false)).value(for: "bool"), .integer(0))
    }

    func testIntegersOfEveryWidth() throws {
        let minima = Integers(
            int: Int.min, int8: Int8.min, int16: Int16.min, int32: Int32.min, int64: Int64.min, uint: UInt.min,
            uint8: UInt8.min, uint16: UInt16.min, uint32: UInt32.min, uint64: UInt64.min)
        XCTAssertEqual(
            try encode(minima).values,
            [
                .integer(Int64.min), .integer(-128), .integer(-32_768), .integer(-2_147_483_648), .integer(Int64.min),
                .integer(0), .integer(0), .integer(0), .integer(0), .integer(0),
            ])
        let maxima = Integers(
            int: Int.max, int8: Int8.max, int16: Int16.max, int32: Int32.max, int64: Int64.max,
            uint: UInt(Int64.max), uint8: UInt8.max, uint16: UInt16.max, uint32: UInt32.max, uint64: UInt64(Int64.max))
        XCTAssertEqual(
            try encode(maxima).values,
            [
                .integer(Int64.max), .integer(127), .integer(32_767), .integer(2_147_483_647), .integer(Int64.max),
                .integer(Int64.max), .integer(255), .integer(65_535), .integer(4_294_967_295), .integer(Int64.max),
            ])
        XCTAssertEqual(try encode(Box(v: UInt64(Int64.max))).values, [.integer(Int64.max)])
    }

    func testUInt64AboveInt64MaxThrowsNamingTheColumn() throws {
        assertInvalidValue(
            try encode(Counter(big: UInt64.max)), key: "big",
            mentions: ["column \"big\" of table \"t\"", "UInt64", "18446744073709551615"])
        assertInvalidValue(
            try encode(Box(v: UInt64(Int64.max) + 1)), key: "v",
            mentions: ["column \"v\" of table \"t\"", "UInt64", "9223372036854775808"])
        assertInvalidValue(
            try encode(Box(v: UInt.max)), key: "v",
            mentions: ["column \"v\" of table \"t\"", "UInt", "18446744073709551615"])
        assertInvalidValue(
            try encode(Optionals(uint64: UInt64.max)), key: "uint64",
            mentions: ["column \"uint64\" of table \"t\"", "UInt64"])
        assertInvalidValue(
            try RecordEncoder.encode(Counter(big: UInt64.max), tableName: nil), key: "big",
            mentions: ["column \"big\"", "UInt64"])
    }

    func testDoubleAndFloatEncodeAsReal() throws {
        XCTAssertEqual(
            try encode(Measurement(score: 2.5, weight: 0.1)).values, [.real(2.5), .real(Double(Float(0.1)))])
        XCTAssertEqual(try encode(Box(v: -0.1)).values, [.real(-0.1)])
        XCTAssertEqual(try encode(Box(v: Double.infinity)).values, [.real(.infinity)])
        XCTAssertEqual(try encode(Measurement(score: 1, weight: nil)).values, [.real(1), .null])
    }

    func testNaNThrowsNamingTheColumn() throws {
        assertInvalidValue(
            try encode(Measurement(score: .nan, weight: nil)), key: "score",
            mentions: ["column \"score\" of table \"t\"", "Double", "NaN"])
        assertInvalidValue(
            try encode(Measurement(score: 1, weight: .nan)), key: "weight",
            mentions: ["column \"weight\" of table \"t\"", "Float", "NaN"])
        assertInvalidValue(
            try encode(Box(v: Double.nan)), key: "v", mentions: ["column \"v\" of table \"t\"", "Double", "NaN"])
        assertInvalidValue(
            try encode(Optionals(double: .nan)), key: "double", mentions: ["column \"double\" of table \"t\"", "NaN"])
        assertInvalidValue(
            try encode(Box(v: Meters(.nan))), key: "v", mentions: ["column \"v\" of table \"t\"", "NaN"])
    }

    /// A value that JSON cannot hold, inside a nested value, is still an error that names the column.
    func testNaNInsideANestedValueThrowsNamingTheColumn() throws {
        XCTAssertThrowsError(try encode(Box(v: [1.0, .nan]))) { error in
            guard case EncodingError.invalidValue(_, let context) = error else {
                return XCTFail("expected EncodingError.invalidValue, got \(error)")
            }
            XCTAssertEqual(context.codingPath.first?.stringValue, "v", "coding path starts at the column")
            XCTAssertTrue(
                context.debugDescription.contains("column \"v\" of table \"t\""),
                "\"\(context.debugDescription)\" does not name the column")
        }
    }

    func testNaNDecimalThrowsNamingTheColumn() throws {
        assertInvalidValue(
            try encode(Box(v: Decimal.nan)), key: "v", mentions: ["column \"v\" of table \"t\"", "NaN"])
    }

    func testStringAndDataEncodeAsTextAndBlob() throws {
        XCTAssertEqual(try encode(Box(v: "Zürich 東京")).values, [.text("Zürich 東京")])
        XCTAssertEqual(try encode(Box(v: "")).values, [.text("")])
        XCTAssertEqual(try encode(Box(v: Data([0, 0xFF]))).values, [.blob(Data([0, 0xFF]))])
    }

    func testDateEncodesAsUTCText() throws {
        XCTAssertEqual(
            try encode(Box(v: Date(timeIntervalSince1970: 1_615_734_566.535))).values,
            [.text("2021-03-14 15:09:26.535")])
        XCTAssertEqual(
            try encode(Box(v: Date(timeIntervalSince1970: -14_182_940))).values, [.text("1969-07-20 20:17:40.000")])
        XCTAssertEqual(
            try encode(Optionals(date: Date(timeIntervalSince1970: 951_782_400))).value(for: "date"),
            .text("2000-02-29 00:00:00.000"))
    }

    func testDateOutsideYears0000To9999Throws() throws {
        assertInvalidValue(
            try encode(Box(v: Date(timeIntervalSince1970: 253_402_300_800))), key: "v",
            mentions: ["column \"v\" of table \"t\""])
        assertInvalidValue(
            try encode(Box(v: Date(timeIntervalSince1970: -62_167_219_201))), key: "v",
            mentions: ["column \"v\" of table \"t\""])
    }

    func testUUIDEncodesAsLowercaseHyphenatedText() throws {
        XCTAssertEqual(try encode(Box(v: uuid)).values, [.text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f")])
    }

    func testURLEncodesAsTextAndDecimalAsTheNumberThatKeepsItsDigits() throws {
        XCTAssertEqual(
            try encode(Box(v: URL(string: "https://example.com/a?b=c")!)).values, [.text("https://example.com/a?b=c")])
        XCTAssertEqual(try encode(Box(v: URL(string: "images/a.png")!)).values, [.text("images/a.png")])
        XCTAssertEqual(
            try encode(Box(v: Decimal(sign: .plus, exponent: -2, significand: 1999))).values, [.real(19.99)])
        let long = try XCTUnwrap(Decimal(string: "12345678901234567890.123456789"))
        XCTAssertEqual(try encode(Box(v: long)).values, [.text("12345678901234567890.123456789")])
        XCTAssertEqual(try encode(Box(v: Decimal(-42))).values, [.integer(-42)])
    }

    func testEnumsEncodeTheirRawValues() throws {
        XCTAssertEqual(try encode(Box(v: Color.red)).values, [.text("red")])
        XCTAssertEqual(try encode(Box(v: Priority.high)).values, [.integer(2)])
        XCTAssertEqual(try encode(Box(v: Meters(3.5))).values, [.real(3.5)])
    }

    func testNestedValuesEncodeAsJSONText() throws {
        XCTAssertEqual(
            try encode(Box(v: Address(street: "Main/1", zip: "75001"))).values,
            [.text(#"{"street":"Main/1","zip":"75001"}"#)])
        XCTAssertEqual(try encode(Box(v: [1, 2, 3])).values, [.text("[1,2,3]")])
        XCTAssertEqual(try encode(Box(v: ["b": 2, "a": 1])).values, [.text(#"{"a":1,"b":2}"#)])
        XCTAssertEqual(try encode(Box(v: [Int]())).values, [.text("[]")])
    }

    // MARK: Shapes a row cannot hold

    func testNonKeyedValueThrows() throws {
        assertInvalidValue(try encode(42), key: nil, mentions: ["keyed"])
        assertInvalidValue(try encode([1, 2]), key: nil, mentions: ["keyed"])
    }

    func testNestedContainerUnderAKeyThrows() throws {
        assertInvalidValue(try encode(Nesting()), key: "inner", mentions: ["column \"inner\" of table \"t\""])
    }

    // MARK: Round trip

    func testRoundTripThroughTheDatabase() throws {
        let record = Everything(
            int: -5, double: 0.1, float: 1.5, bool: true, string: "Zürich", data: Data([0, 1, 2]),
            date: Date(timeIntervalSince1970: 1_615_734_566.535), uuid: uuid,
            url: URL(string: "https://example.com/p?q=1")!, decimal: Decimal(string: "19.99")!, color: .green,
            priority: .low, address: Address(street: "Main", zip: "75001"), tags: ["x", "y"],
            scores: ["a": 1, "b": 2])
        let columns = try encode(record)

        let db = try Database()
        let names = columns.names.map { "\"\($0)\"" }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.names.count).joined(separator: ", ")
        try db.execute(sql: "CREATE TABLE t(\(names))")
        try db.execute(sql: "INSERT INTO t VALUES (\(placeholders))", arguments: StatementArguments(columns.values))

        let statement = try db.makeStatement(sql: "SELECT * FROM t")
        XCTAssertTrue(try statement.step())
        let context = RowDecodingContext(statement: statement, tableName: "t", missingOptionalColumnIsNil: false)
        let decoded = try context.decodeRow(Everything.self)
        XCTAssertEqual(decoded.int, record.int)
        XCTAssertEqual(decoded.double, record.double)
        XCTAssertEqual(decoded.float, record.float)
        XCTAssertEqual(decoded.bool, record.bool)
        XCTAssertEqual(decoded.string, record.string)
        XCTAssertEqual(decoded.data, record.data)
        XCTAssertEqual(decoded.date.timeIntervalSince1970, record.date.timeIntervalSince1970, accuracy: 1e-6)
        XCTAssertEqual(decoded.uuid, record.uuid)
        XCTAssertEqual(decoded.url, record.url)
        XCTAssertEqual(decoded.decimal, record.decimal)
        XCTAssertEqual(decoded.color, record.color)
        XCTAssertEqual(decoded.priority, record.priority)
        XCTAssertEqual(decoded.address, record.address)
        XCTAssertEqual(decoded.tags, record.tags)
        XCTAssertEqual(decoded.scores, record.scores)

        let optionals = Optionals(
            int: 1, int8: nil, uint64: 2, double: nil, float: 2.5, bool: false, string: nil, data: Data([7]),
            date: nil, uuid: uuid, url: nil, decimal: Decimal(1), color: nil, priority: .high, address: nil,
            tags: ["z"])
        let optionalColumns = try encode(optionals)
        statement.reset()
        try db.execute(sql: "DROP TABLE t")
        let optionalNames = optionalColumns.names.map { "\"\($0)\"" }.joined(separator: ", ")
        let optionalPlaceholders = Array(repeating: "?", count: optionalColumns.names.count).joined(separator: ", ")
        try db.execute(sql: "CREATE TABLE t(\(optionalNames))")
        try db.execute(
            sql: "INSERT INTO t VALUES (\(optionalPlaceholders))", arguments: StatementArguments(optionalColumns.values)
        )
        let optionalStatement = try db.makeStatement(sql: "SELECT * FROM t")
        XCTAssertTrue(try optionalStatement.step())
        let optionalContext = RowDecodingContext(
            statement: optionalStatement, tableName: "t", missingOptionalColumnIsNil: false)
        XCTAssertEqual(try optionalContext.decodeRow(Optionals.self), optionals)
    }
}
