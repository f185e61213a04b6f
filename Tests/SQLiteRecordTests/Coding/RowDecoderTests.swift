import Foundation
import XCTest

@testable import SQLiteRecord

// MARK: Types the rows decode into

/// One column `v` read through the generic `decode(_:forKey:)`: a value type's own `init(from:)` over the
/// column, the path enums, wrappers and `Box<Int>` take.
private struct Box<Value: Decodable>: Decodable {
    var v: Value
}

/// One Optional column `v` read through the generic `decodeIfPresent(_:forKey:)`.
private struct OptionalBox<Value: Decodable>: Decodable {
    var v: Value?
}

/// Every integer width, each read through its own `decode(_:forKey:)` overload.
private struct Integers: Decodable, Equatable {
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

/// Every integer width as an Optional, each read through its own `decodeIfPresent(_:forKey:)` overload.
private struct OptionalIntegers: Decodable, Equatable {
    var int: Int?
    var int8: Int8?
    var int16: Int16?
    var int32: Int32?
    var int64: Int64?
    var uint: UInt?
    var uint8: UInt8?
    var uint16: UInt16?
    var uint32: UInt32?
    var uint64: UInt64?
}

private struct IntValue: Decodable, Equatable { var v: Int }
private struct Int16Value: Decodable, Equatable { var v: Int16 }
private struct OptionalIntValue: Decodable, Equatable { var v: Int? }
private struct DoubleValue: Decodable, Equatable { var v: Double }
private struct FloatValue: Decodable, Equatable { var v: Float }
private struct BoolValue: Decodable, Equatable { var v: Bool }
private struct OptionalBoolValue: Decodable, Equatable { var v: Bool? }
private struct StringValue: Decodable, Equatable { var v: String }
private struct OptionalStringValue: Decodable, Equatable { var v: String? }

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

/// A person as a foreign schema stores one: renamed columns, Optionals, values of several kinds.
private struct Person: Decodable, Equatable {
    var id: Int64
    var name: String
    var nickname: String?
    var birthDate: Date?
    enum CodingKeys: String, CodingKey {
        case id, name, nickname
        case birthDate = "birth_date"
    }
}

private struct Pair: Decodable, Equatable {
    var a: Int
    var b: Int
}

// MARK: -

final class RowDecoderTests: XCTestCase {
    // MARK: Helpers

    private struct NoRow: Error {}

    /// Decodes the first row `sql` returns, as the library's fetches do.
    private func decodeFirstRow<T: Decodable>(
        _ type: T.Type, in db: Database, sql: String, tableName: String? = "t", missingOptionalColumnIsNil: Bool = false
    ) throws -> T {
        let statement = try db.makeStatement(sql: sql)
        guard try statement.step() else { throw NoRow() }
        let context = RowDecodingContext(
            statement: statement, tableName: tableName, missingOptionalColumnIsNil: missingOptionalColumnIsNil)
        return try context.decodeRow(type)
    }

    /// Stores `value` in column `v` of table `t` in a fresh in-memory database and decodes the row as `type`.
    /// With no declared type the column has no affinity, so the value keeps the storage class it was bound with
    /// (checked here, so each test reads the storage class it means to).
    private func decodeStored<T: Decodable>(
        _ type: T.Type, _ value: SQLiteValue, declaredType: String = "", file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> T {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v \(declaredType))")
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
        if declaredType.isEmpty {
            let check = try db.makeStatement(sql: "SELECT v FROM t")
            _ = try check.step()
            XCTAssertEqual(
                check.value(at: 0).storageClassName, value.storageClassName, "stored storage class", file: file,
                line: line)
        }
        return try decodeFirstRow(type, in: db, sql: "SELECT v FROM t")
    }

    /// A fresh database whose table `t` holds one row of ``Integers`` columns: 1...10, with `column` set to
    /// `value` when given.
    private func integersDatabase(_ column: String? = nil, _ value: SQLiteValue = .null) throws -> Database {
        let db = try Database()
        let columns = ["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"]
        try db.execute(sql: "CREATE TABLE t(" + columns.joined(separator: ", ") + ")")
        let values = columns.enumerated().map { offset, name -> SQLiteValue in
            name == column ? value : .integer(Int64(offset + 1))
        }
        try db.execute(
            sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: StatementArguments(values))
        return db
    }

    private func assertTypeMismatch<T>(
        _ expression: @autoclosure () throws -> T, _ expectedType: Any.Type, key: String?, mentions fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case DecodingError.typeMismatch(let type, let context) = error else {
                return XCTFail("expected DecodingError.typeMismatch, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(
                type == expectedType, "typeMismatch names \(type), not \(expectedType)", file: file, line: line)
            XCTAssertEqual(context.codingPath.last?.stringValue, key, "coding path", file: file, line: line)
            assertMentions(context.debugDescription, fragments, file: file, line: line)
        }
    }

    /// `dataCorrupted`: the storage class is one the type reads, but the value is no valid one (Foundation's
    /// coders throw the same kind for a number out of range or a date string that does not parse).
    private func assertDataCorrupted<T>(
        _ expression: @autoclosure () throws -> T, _ expectedType: Any.Type, key: String?, mentions fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("expected DecodingError.dataCorrupted, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(context.codingPath.last?.stringValue, key, "coding path", file: file, line: line)
            assertMentions(context.debugDescription, ["\(expectedType)"] + fragments, file: file, line: line)
        }
    }

    private func assertValueNotFound<T>(
        _ expression: @autoclosure () throws -> T, _ expectedType: Any.Type, key: String?, mentions fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case DecodingError.valueNotFound(let type, let context) = error else {
                return XCTFail("expected DecodingError.valueNotFound, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(
                type == expectedType, "valueNotFound names \(type), not \(expectedType)", file: file, line: line)
            XCTAssertEqual(context.codingPath.last?.stringValue, key, "coding path", file: file, line: line)
            assertMentions(context.debugDescription, fragments, file: file, line: line)
        }
    }

    private func assertKeyNotFound<T>(
        _ expression: @autoclosure () throws -> T, key: String, mentions fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case DecodingError.keyNotFound(let missing, let context) = error else {
                return XCTFail("expected DecodingError.keyNotFound, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(missing.stringValue, key, "missing key", file: file, line: line)
            assertMentions(context.debugDescription, fragments, file: file, line: line)
        }
    }

    private func assertMentions(
        _ text: String, _ fragments: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        for fragment in fragments {
            XCTAssertTrue(text.contains(fragment), "\"\(text)\" does not mention \(fragment)", file: file, line: line)
        }
    }

    /// What every error about column `v` of table `t` names.
    private let columnV = "column \"v\" of table \"t\""

    // MARK: Integers

    func testIntegersOfEveryWidthFromInteger() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE t(int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64)")
        try db.execute(
            sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                Int64.min, Int8.min, Int16.min, Int32.min, Int64.max, 0, UInt8.max, UInt16.max, UInt32.max,
                Int64.max,
            ])
        let row = try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t")
        XCTAssertEqual(
            row,
            Integers(
                int: Int(Int64.min), int8: -128, int16: -32_768, int32: -2_147_483_648,
                int64: 9_223_372_036_854_775_807,
                uint: 0, uint8: 255, uint16: 65_535, uint32: 4_294_967_295, uint64: 9_223_372_036_854_775_807))

        try db.execute(sql: "UPDATE t SET int = 9223372036854775807, int8 = 127, int16 = 32767, int32 = 2147483647")
        let maxima = try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t")
        XCTAssertEqual(maxima.int, Int.max)
        XCTAssertEqual(maxima.int8, Int8.max)
        XCTAssertEqual(maxima.int16, Int16.max)
        XCTAssertEqual(maxima.int32, Int32.max)
    }

    func testIntegersOfEveryWidthFromWholeReal() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE t(int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64)")
        try db.execute(
            sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [175.0, 127.0, 175.0, 175.0, 175.0, 175.0, 175.0, 175.0, 175.0, 175.0])
        XCTAssertEqual(
            try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t"),
            Integers(
                int: 175, int8: 127, int16: 175, int32: 175, int64: 175, uint: 175, uint8: 175, uint16: 175,
                uint32: 175, uint64: 175))
        XCTAssertEqual(try decodeStored(IntValue.self, .real(175.0)), IntValue(v: 175))
        XCTAssertEqual(try decodeStored(IntValue.self, .real(-42.0)), IntValue(v: -42))
        XCTAssertEqual(try decodeStored(IntValue.self, .real(-0.0)), IntValue(v: 0))
        XCTAssertEqual(try decodeStored(Int16Value.self, .real(-32_768.0)), Int16Value(v: -32_768))
        XCTAssertEqual(try decodeStored(Box<UInt8>.self, .real(255.0)).v, 255)
        // 2^53 is a whole REAL and fits Int64 exactly.
        XCTAssertEqual(try decodeStored(Box<Int64>.self, .real(9_007_199_254_740_992.0)).v, 9_007_199_254_740_992)
    }

    func testIntegersThroughTheGenericPath() throws {
        XCTAssertEqual(try decodeStored(Box<Int>.self, .integer(42)).v, 42)
        XCTAssertEqual(try decodeStored(Box<Int8>.self, .integer(-8)).v, -8)
        XCTAssertEqual(try decodeStored(Box<Int16>.self, .integer(16)).v, 16)
        XCTAssertEqual(try decodeStored(Box<Int32>.self, .real(32.0)).v, 32)
        XCTAssertEqual(try decodeStored(Box<Int64>.self, .integer(Int64.min)).v, Int64.min)
        XCTAssertEqual(try decodeStored(Box<UInt>.self, .integer(7)).v, 7)
        XCTAssertEqual(try decodeStored(Box<UInt16>.self, .real(175.0)).v, 175)
        XCTAssertEqual(try decodeStored(Box<UInt32>.self, .integer(4_294_967_295)).v, UInt32.max)
        XCTAssertEqual(try decodeStored(Box<UInt64>.self, .integer(Int64.max)).v, UInt64(Int64.max))
    }

    func testIntegerOutOfRangeIsDataCorrupted() throws {
        let db = try integersDatabase("int16", .integer(70_000))
        assertDataCorrupted(
            try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t"), Int16.self, key: "int16",
            mentions: ["column \"int16\" of table \"t\"", "INTEGER 70000", "Int16", "out of range"])
        assertDataCorrupted(
            try decodeStored(Int16Value.self, .integer(70_000)), Int16.self, key: "v",
            mentions: [columnV, "INTEGER 70000", "Int16", "out of range"])
        assertDataCorrupted(
            try decodeStored(Box<Int16>.self, .integer(70_000)), Int16.self, key: "v",
            mentions: [columnV, "INTEGER 70000", "Int16", "out of range"])
    }

    func testIntegerOutOfRangeForEveryWidth() throws {
        let cases: [(column: String, type: Any.Type, value: SQLiteValue)] = [
            ("int8", Int8.self, .integer(128)),
            ("int8", Int8.self, .integer(-129)),
            ("int8", Int8.self, .real(300.0)),
            ("int16", Int16.self, .integer(-32_769)),
            ("int32", Int32.self, .integer(2_147_483_648)),
            ("int64", Int64.self, .real(1e19)),
            ("int64", Int64.self, .real(9_223_372_036_854_775_808.0)),
            ("int", Int.self, .real(-1e19)),
            ("uint", UInt.self, .integer(-1)),
            ("uint8", UInt8.self, .integer(256)),
            ("uint8", UInt8.self, .integer(-1)),
            ("uint16", UInt16.self, .integer(65_536)),
            ("uint32", UInt32.self, .integer(4_294_967_296)),
            ("uint64", UInt64.self, .integer(-1)),
            ("uint64", UInt64.self, .real(-3.0)),
        ]
        for (column, type, value) in cases {
            let db = try integersDatabase(column, value)
            assertDataCorrupted(
                try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t"), type, key: column,
                mentions: ["column \"\(column)\" of table \"t\"", value.storageClassName, "\(type)", "out of range"])
        }
    }

    func testFractionalRealIntoIntegerIsDataCorrupted() throws {
        assertDataCorrupted(
            try decodeStored(IntValue.self, .real(1.5)), Int.self, key: "v", mentions: [columnV, "REAL 1.5", "Int"])
        assertDataCorrupted(
            try decodeStored(Box<Int>.self, .real(1.5)), Int.self, key: "v", mentions: [columnV, "REAL 1.5", "Int"])
        assertDataCorrupted(
            try decodeStored(OptionalIntValue.self, .real(-0.25)), Int.self, key: "v",
            mentions: [columnV, "REAL -0.25", "Int"])
        let db = try integersDatabase("uint8", .real(2.5))
        assertDataCorrupted(
            try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t"), UInt8.self, key: "uint8",
            mentions: ["column \"uint8\" of table \"t\"", "REAL 2.5", "UInt8"])
    }

    func testInfiniteRealIntoIntegerIsDataCorrupted() throws {
        let db = try Database()
        assertDataCorrupted(
            try decodeFirstRow(IntValue.self, in: db, sql: "SELECT 1e999 AS v", tableName: nil), Int.self, key: "v",
            mentions: ["column \"v\"", "REAL", "Int"])
    }

    func testTextIntoIntegerIsTypeMismatch() throws {
        assertTypeMismatch(
            try decodeStored(IntValue.self, .text("12")), Int.self, key: "v", mentions: [columnV, "TEXT '12'", "Int"])
        assertTypeMismatch(
            try decodeStored(Box<Int64>.self, .text("12")), Int64.self, key: "v",
            mentions: [columnV, "TEXT '12'", "Int64"])
        assertTypeMismatch(
            try decodeStored(IntValue.self, .blob(Data([1, 2]))), Int.self, key: "v",
            mentions: [columnV, "BLOB", "Int"])
    }

    func testNullIntoNonOptionalIsValueNotFound() throws {
        assertValueNotFound(
            try decodeStored(IntValue.self, .null), Int.self, key: "v", mentions: [columnV, "NULL", "Int"])
        assertValueNotFound(
            try decodeStored(Box<Int>.self, .null), Int.self, key: "v", mentions: [columnV, "NULL", "Int"])
        assertValueNotFound(
            try decodeStored(StringValue.self, .null), String.self, key: "v", mentions: [columnV, "NULL", "String"])
        assertValueNotFound(
            try decodeStored(DoubleValue.self, .null), Double.self, key: "v", mentions: [columnV, "NULL", "Double"])
        assertValueNotFound(
            try decodeStored(BoolValue.self, .null), Bool.self, key: "v", mentions: [columnV, "NULL", "Bool"])
        assertValueNotFound(
            try decodeStored(Box<Date>.self, .null), Date.self, key: "v", mentions: [columnV, "NULL", "Date"])
        assertValueNotFound(
            try decodeStored(Box<Data>.self, .null), Data.self, key: "v", mentions: [columnV, "NULL", "Data"])
        assertValueNotFound(
            try decodeStored(Box<UUID>.self, .null), UUID.self, key: "v", mentions: [columnV, "NULL", "UUID"])
        assertValueNotFound(
            try decodeStored(Box<URL>.self, .null), URL.self, key: "v", mentions: [columnV, "NULL", "URL"])
        assertValueNotFound(
            try decodeStored(Box<Decimal>.self, .null), Decimal.self, key: "v", mentions: [columnV, "NULL", "Decimal"])
        assertValueNotFound(
            try decodeStored(Box<Color>.self, .null), Color.self, key: "v", mentions: [columnV, "NULL", "Color"])
        assertValueNotFound(
            try decodeStored(Box<Address>.self, .null), Address.self, key: "v", mentions: [columnV, "NULL", "Address"])
        let db = try integersDatabase("uint32", .null)
        assertValueNotFound(
            try decodeFirstRow(Integers.self, in: db, sql: "SELECT * FROM t"), UInt32.self, key: "uint32",
            mentions: ["column \"uint32\" of table \"t\"", "NULL", "UInt32"])
    }

    func testOptionalNullDecodesAsNil() throws {
        XCTAssertNil(try decodeStored(OptionalIntValue.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalStringValue.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBoolValue.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBox<Int>.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBox<Date>.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBox<UUID>.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBox<Decimal>.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBox<Color>.self, .null).v)
        XCTAssertNil(try decodeStored(OptionalBox<Address>.self, .null).v)
        XCTAssertEqual(try decodeStored(OptionalIntValue.self, .integer(3)).v, 3)
        XCTAssertEqual(try decodeStored(OptionalBox<Int>.self, .integer(3)).v, 3)

        let db = try integersDatabase()
        try db.execute(
            sql: "UPDATE t SET int = NULL, int8 = NULL, int16 = NULL, int32 = NULL, int64 = NULL, uint = NULL, "
                + "uint8 = NULL, uint16 = NULL, uint32 = NULL, uint64 = NULL")
        XCTAssertEqual(
            try decodeFirstRow(OptionalIntegers.self, in: db, sql: "SELECT * FROM t"), OptionalIntegers())
        try db.execute(sql: "UPDATE t SET int8 = -3, uint64 = 4.0")
        var expected = OptionalIntegers()
        expected.int8 = -3
        expected.uint64 = 4
        XCTAssertEqual(try decodeFirstRow(OptionalIntegers.self, in: db, sql: "SELECT * FROM t"), expected)
    }

    // MARK: Floating point

    func testDoubleAndFloatFromRealAndInteger() throws {
        XCTAssertEqual(try decodeStored(DoubleValue.self, .real(2.5)).v, 2.5)
        XCTAssertEqual(try decodeStored(DoubleValue.self, .real(-0.1)).v, -0.1)
        XCTAssertEqual(try decodeStored(DoubleValue.self, .integer(3)).v, 3.0)
        XCTAssertEqual(try decodeStored(DoubleValue.self, .integer(-9_007_199_254_740_992)).v, -9_007_199_254_740_992.0)
        // 2^60 is a power of two: exact, though beyond 2^53.
        XCTAssertEqual(try decodeStored(DoubleValue.self, .integer(1 << 60)).v, 1_152_921_504_606_846_976.0)
        XCTAssertEqual(try decodeStored(Box<Double>.self, .real(1e300)).v, 1e300)
        XCTAssertEqual(try decodeStored(Box<Double>.self, .integer(7)).v, 7.0)
        XCTAssertEqual(try decodeStored(FloatValue.self, .real(2.5)).v, 2.5)
        // Float from REAL rounds as Float does.
        XCTAssertEqual(try decodeStored(FloatValue.self, .real(0.1)).v, Float(0.1))
        XCTAssertEqual(try decodeStored(FloatValue.self, .integer(16_777_216)).v, 16_777_216)
        XCTAssertEqual(try decodeStored(Box<Float>.self, .real(-3.25)).v, -3.25)
        XCTAssertEqual(try decodeStored(OptionalBox<Double>.self, .real(0.5)).v, 0.5)
    }

    func testIntegersAFloatingPointTypeCannotHoldExactlyAreDataCorrupted() throws {
        // Beyond 2^53 (2^24 for Float) not every integer has a value of the type: an error, as 1.5 into an Int.
        assertDataCorrupted(
            try decodeStored(DoubleValue.self, .integer(9_007_199_254_740_993)), Double.self, key: "v",
            mentions: [columnV, "INTEGER 9007199254740993", "which a Double cannot hold exactly"])
        assertDataCorrupted(
            try decodeStored(Box<Double>.self, .integer(-9_007_199_254_740_993)), Double.self, key: "v",
            mentions: [columnV, "INTEGER -9007199254740993"])
        assertDataCorrupted(
            try decodeStored(FloatValue.self, .integer(16_777_217)), Float.self, key: "v",
            mentions: [columnV, "INTEGER 16777217", "which a Float cannot hold exactly"])
        // A finite REAL beyond Float's range is an error, as JSONDecoder makes it, never infinity.
        assertDataCorrupted(
            try decodeStored(FloatValue.self, .real(1e39)), Float.self, key: "v",
            mentions: [columnV, "REAL 1e+39", "beyond Float's range"])
        assertDataCorrupted(
            try decodeStored(OptionalBox<Float>.self, .real(-3.5e38)), Float.self, key: "v",
            mentions: [columnV, "REAL -3.5e+38", "beyond Float's range"])
        XCTAssertEqual(try decodeStored(FloatValue.self, .real(3.4028235e38)).v, Float.greatestFiniteMagnitude)
    }

    func testDoubleAndFloatFromTextOrBlobIsTypeMismatch() throws {
        assertTypeMismatch(
            try decodeStored(DoubleValue.self, .text("1.5")), Double.self, key: "v",
            mentions: [columnV, "TEXT '1.5'", "Double"])
        assertTypeMismatch(
            try decodeStored(FloatValue.self, .text("1.5")), Float.self, key: "v",
            mentions: [columnV, "TEXT '1.5'", "Float"])
        assertTypeMismatch(
            try decodeStored(Box<Double>.self, .blob(Data([0]))), Double.self, key: "v",
            mentions: [columnV, "BLOB", "Double"])
    }

    // MARK: Bool

    func testBoolFromIntegerAndReal() throws {
        XCTAssertEqual(try decodeStored(BoolValue.self, .integer(0)).v, false)
        XCTAssertEqual(try decodeStored(BoolValue.self, .integer(1)).v, true)
        XCTAssertEqual(try decodeStored(BoolValue.self, .real(0.0)).v, false)
        XCTAssertEqual(try decodeStored(BoolValue.self, .real(1.0)).v, true)
        XCTAssertEqual(try decodeStored(Box<Bool>.self, .integer(1)).v, true)
        XCTAssertEqual(try decodeStored(OptionalBoolValue.self, .integer(0)).v, false)
    }

    func testBoolFromTextInAnyCase() throws {
        let texts: [(String, Bool)] = [
            ("1", true), ("0", false),
            ("true", true), ("TRUE", true), ("True", true), ("tRuE", true),
            ("false", false), ("FALSE", false), ("False", false), ("fAlSe", false),
            ("t", true), ("T", true), ("f", false), ("F", false),
            ("yes", true), ("YES", true), ("Yes", true), ("no", false), ("NO", false), ("nO", false),
            ("y", true), ("Y", true), ("n", false), ("N", false),
        ]
        for (text, expected) in texts {
            XCTAssertEqual(try decodeStored(BoolValue.self, .text(text)).v, expected, "'\(text)'")
            XCTAssertEqual(try decodeStored(Box<Bool>.self, .text(text)).v, expected, "'\(text)' (generic path)")
        }
    }

    func testBoolFromOtherValuesIsAnError() throws {
        assertDataCorrupted(
            try decodeStored(BoolValue.self, .integer(2)), Bool.self, key: "v",
            mentions: [columnV, "INTEGER 2", "Bool"])
        assertDataCorrupted(
            try decodeStored(BoolValue.self, .integer(-1)), Bool.self, key: "v",
            mentions: [columnV, "INTEGER -1", "Bool"])
        assertDataCorrupted(
            try decodeStored(BoolValue.self, .real(0.5)), Bool.self, key: "v", mentions: [columnV, "REAL 0.5", "Bool"])
        assertDataCorrupted(
            try decodeStored(BoolValue.self, .text("maybe")), Bool.self, key: "v",
            mentions: [columnV, "TEXT 'maybe'", "Bool"])
        assertDataCorrupted(
            try decodeStored(BoolValue.self, .text("")), Bool.self, key: "v", mentions: [columnV, "TEXT ''", "Bool"])
        assertDataCorrupted(
            try decodeStored(BoolValue.self, .text("2")), Bool.self, key: "v", mentions: [columnV, "TEXT '2'", "Bool"])
        assertDataCorrupted(
            try decodeStored(OptionalBoolValue.self, .text("maybe")), Bool.self, key: "v",
            mentions: [columnV, "TEXT 'maybe'", "Bool"])
        assertDataCorrupted(
            try decodeStored(Box<Bool>.self, .integer(2)), Bool.self, key: "v",
            mentions: [columnV, "INTEGER 2", "Bool"])
        assertTypeMismatch(
            try decodeStored(BoolValue.self, .blob(Data([1]))), Bool.self, key: "v",
            mentions: [columnV, "BLOB", "Bool"])
    }

    // MARK: String and Data

    func testStringFromTextIntegerAndReal() throws {
        XCTAssertEqual(try decodeStored(StringValue.self, .text("Tokyo")).v, "Tokyo")
        XCTAssertEqual(try decodeStored(StringValue.self, .text("Zürich 東京 🚀")).v, "Zürich 東京 🚀")
        XCTAssertEqual(try decodeStored(StringValue.self, .text("")).v, "")
        XCTAssertEqual(try decodeStored(StringValue.self, .text("00120")).v, "00120")
        XCTAssertEqual(try decodeStored(StringValue.self, .integer(42)).v, "42")
        XCTAssertEqual(try decodeStored(StringValue.self, .integer(-7)).v, "-7")
        XCTAssertEqual(try decodeStored(StringValue.self, .real(1.5)).v, "1.5")
        XCTAssertEqual(try decodeStored(StringValue.self, .real(19.99)).v, "19.99")
        XCTAssertEqual(try decodeStored(Box<String>.self, .integer(42)).v, "42")
        XCTAssertEqual(try decodeStored(OptionalStringValue.self, .integer(42)).v, "42")
        XCTAssertEqual(try decodeStored(OptionalBox<String>.self, .text("x")).v, "x")
    }

    func testStringFromBlobIsTypeMismatch() throws {
        assertTypeMismatch(
            try decodeStored(StringValue.self, .blob(Data([0x41]))), String.self, key: "v",
            mentions: [columnV, "BLOB", "String"])
    }

    func testDataFromBlobAndText() throws {
        XCTAssertEqual(try decodeStored(Box<Data>.self, .blob(Data([0, 1, 2, 0xFF]))).v, Data([0, 1, 2, 0xFF]))
        XCTAssertEqual(try decodeStored(Box<Data>.self, .blob(Data())).v, Data())
        XCTAssertEqual(try decodeStored(Box<Data>.self, .text("abc")).v, Data("abc".utf8))
        XCTAssertEqual(try decodeStored(Box<Data>.self, .text("é")).v, Data([0xC3, 0xA9]))
        XCTAssertEqual(try decodeStored(OptionalBox<Data>.self, .blob(Data([9]))).v, Data([9]))
        assertTypeMismatch(
            try decodeStored(Box<Data>.self, .integer(5)), Data.self, key: "v",
            mentions: [columnV, "INTEGER 5", "Data"])
    }

    // MARK: Date

    func testDateFromEveryTextForm() throws {
        let cases: [(String, Double)] = [
            ("2021-03-14", 1_615_680_000),
            ("2021-03-14 15:09", 1_615_734_540),
            ("2021-03-14 15:09:26", 1_615_734_566),
            ("2021-03-14 15:09:26.535", 1_615_734_566.535),
            ("2021-03-14T15:09", 1_615_734_540),
            ("2021-03-14T15:09:26", 1_615_734_566),
            ("2021-03-14T15:09:26.535", 1_615_734_566.535),
            ("2021-03-14 15:09:26Z", 1_615_734_566),
            ("2021-03-14 15:09:26z", 1_615_734_566),
            ("2021-03-14T15:09:26.535Z", 1_615_734_566.535),
            ("2021-03-14 15:09Z", 1_615_734_540),
            ("2021-03-14 15:09:26+02:00", 1_615_734_566 - 7_200),
            ("2021-03-14T15:09:26-05:30", 1_615_734_566 + 19_800),
            ("2021-03-14 15:09:26.535+02:00", 1_615_734_566.535 - 7_200),
            ("1969-07-20 20:17:40", -14_182_940),
        ]
        for (text, seconds) in cases {
            let date = try decodeStored(Box<Date>.self, .text(text)).v
            XCTAssertEqual(date.timeIntervalSince1970, seconds, accuracy: 1e-6, "'\(text)'")
        }
        let optional = try decodeStored(OptionalBox<Date>.self, .text("2021-03-14")).v
        XCTAssertEqual(optional?.timeIntervalSince1970, 1_615_680_000)
    }

    func testDateFromUnixSeconds() throws {
        XCTAssertEqual(try decodeStored(Box<Date>.self, .integer(1_615_734_566)).v.timeIntervalSince1970, 1_615_734_566)
        XCTAssertEqual(try decodeStored(Box<Date>.self, .integer(-86_400)).v.timeIntervalSince1970, -86_400)
        XCTAssertEqual(try decodeStored(Box<Date>.self, .integer(0)).v, Date(timeIntervalSince1970: 0))
        XCTAssertEqual(
            try decodeStored(Box<Date>.self, .real(1_615_734_566.5)).v.timeIntervalSince1970, 1_615_734_566.5)
        XCTAssertEqual(
            try decodeStored(OptionalBox<Date>.self, .real(-0.25)).v?.timeIntervalSince1970, -0.25)
    }

    func testPersonWithDateAndRenamedColumns() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, nickname TEXT, birth_date TEXT)")
        try db.execute(
            sql: "INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
            arguments: [1, "Ada", nil, "1815-12-10", 2, "Grace", "Amazing Grace", nil])
        let ada = try decodeFirstRow(Person.self, in: db, sql: "SELECT * FROM t WHERE id = 1")
        XCTAssertEqual(
            ada, Person(id: 1, name: "Ada", nickname: nil, birthDate: Date(timeIntervalSince1970: -4_861_728_000)))
        let grace = try decodeFirstRow(Person.self, in: db, sql: "SELECT * FROM t WHERE id = 2")
        XCTAssertEqual(grace, Person(id: 2, name: "Grace", nickname: "Amazing Grace", birthDate: nil))
    }

    func testUnparsableDateTextIsDataCorruptedNeverNil() throws {
        for text in [
            "", "not a date", "2021-02-30", "2021-13-01", "2021-03-14 25:00", "14/03/2021", "2021-03-14 15:09:26+2",
            "2021-03-14 15:09:26+02:3", "2021-03-14 15:09:26+02:", "10000-01-01",
        ] {
            assertDataCorrupted(
                try decodeStored(Box<Date>.self, .text(text)), Date.self, key: "v",
                mentions: [columnV, "TEXT '\(text)'", "Date"])
            // An Optional is no escape hatch: a bad date is an error, not nil and not now.
            assertDataCorrupted(
                try decodeStored(OptionalBox<Date>.self, .text(text)), Date.self, key: "v",
                mentions: [columnV, "TEXT '\(text)'", "Date"])
        }
        assertTypeMismatch(
            try decodeStored(Box<Date>.self, .blob(Data([1, 2, 3]))), Date.self, key: "v",
            mentions: [columnV, "BLOB", "Date"])
    }

    // MARK: UUID

    func testUUIDFromTextInEveryForm() throws {
        let expected = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let texts = [
            "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "e621e1f8c36c495a93fc0c247a3e6e5f",
            "E621E1F8C36C495A93FC0C247A3E6E5F",
            "{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}",
            "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
            "{e621e1f8c36c495a93fc0c247a3e6e5f}",
            "E621e1f8-C36C-495a-93FC-0c247a3e6e5F",
        ]
        for text in texts {
            XCTAssertEqual(try decodeStored(Box<UUID>.self, .text(text)).v, expected, "'\(text)'")
        }
        XCTAssertEqual(try decodeStored(OptionalBox<UUID>.self, .text(texts[0])).v, expected)
    }

    func testUUIDFromSixteenByteBlob() throws {
        let bytes: [UInt8] = [
            0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
        ]
        let expected = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(try decodeStored(Box<UUID>.self, .blob(Data(bytes))).v, expected)
    }

    func testInvalidUUIDIsAnError() throws {
        assertDataCorrupted(
            try decodeStored(Box<UUID>.self, .text("not-a-uuid")), UUID.self, key: "v",
            mentions: [columnV, "TEXT 'not-a-uuid'", "UUID"])
        assertDataCorrupted(
            try decodeStored(Box<UUID>.self, .text("e621e1f8c36c495a93fc0c247a3e6e5")), UUID.self, key: "v",
            mentions: [columnV, "TEXT", "UUID"])
        assertDataCorrupted(
            try decodeStored(Box<UUID>.self, .blob(Data(repeating: 1, count: 15))), UUID.self, key: "v",
            mentions: [columnV, "BLOB <15 bytes>", "UUID"])
        assertTypeMismatch(
            try decodeStored(Box<UUID>.self, .integer(1)), UUID.self, key: "v",
            mentions: [columnV, "INTEGER 1", "UUID"])
    }

    // MARK: URL and Decimal

    func testURLFromText() throws {
        XCTAssertEqual(
            try decodeStored(Box<URL>.self, .text("https://example.com/a/b?q=1#top")).v,
            URL(string: "https://example.com/a/b?q=1#top"))
        XCTAssertEqual(try decodeStored(Box<URL>.self, .text("images/a.png")).v, URL(string: "images/a.png"))
        XCTAssertEqual(
            try decodeStored(OptionalBox<URL>.self, .text("file:///tmp/x")).v, URL(string: "file:///tmp/x"))
        assertTypeMismatch(
            try decodeStored(Box<URL>.self, .integer(3)), URL.self, key: "v", mentions: [columnV, "INTEGER 3", "URL"])
    }

    func testDecimalFromTextIntegerAndReal() throws {
        let price = Decimal(sign: .plus, exponent: -2, significand: 1999)
        XCTAssertEqual(try decodeStored(Box<Decimal>.self, .text("19.99")).v, price)
        XCTAssertEqual(try decodeStored(Box<Decimal>.self, .real(19.99)).v, price)
        XCTAssertEqual(try decodeStored(Box<Decimal>.self, .real(19.99)).v.description, "19.99")
        XCTAssertEqual(try decodeStored(Box<Decimal>.self, .integer(42)).v, Decimal(42))
        XCTAssertEqual(
            try decodeStored(Box<Decimal>.self, .text("-0.000123")).v,
            Decimal(sign: .minus, exponent: -6, significand: 123))
        XCTAssertEqual(
            try decodeStored(Box<Decimal>.self, .text("12345678901234567890.123456789")).v.description,
            "12345678901234567890.123456789")
        XCTAssertEqual(
            try decodeStored(OptionalBox<Decimal>.self, .text("0.1")).v,
            Decimal(sign: .plus, exponent: -1, significand: 1))
    }

    func testDecimalFromDecimalColumn() throws {
        // A DECIMAL(10,2) column has NUMERIC affinity: SQLite stores '19.99' as REAL 19.99.
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v DECIMAL(10,2))")
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["19.99"])
        XCTAssertEqual(try decodeFirstRow(String.self, in: db, sql: "SELECT typeof(v) FROM t"), "real")
        XCTAssertEqual(
            try decodeFirstRow(Box<Decimal>.self, in: db, sql: "SELECT v FROM t").v,
            Decimal(sign: .plus, exponent: -2, significand: 1999))
    }

    func testInvalidDecimalIsAnError() throws {
        for text in ["12abc", "", "abc", "1.2.3", "--1", "1e"] {
            assertDataCorrupted(
                try decodeStored(Box<Decimal>.self, .text(text)), Decimal.self, key: "v",
                mentions: [columnV, "TEXT '\(text)'", "Decimal"])
        }
        assertTypeMismatch(
            try decodeStored(Box<Decimal>.self, .blob(Data([1]))), Decimal.self, key: "v",
            mentions: [columnV, "BLOB", "Decimal"])
    }

    // MARK: Enums and nested values

    func testRawRepresentableEnumsFromRawValue() throws {
        XCTAssertEqual(try decodeStored(Box<Color>.self, .text("green")).v, .green)
        XCTAssertEqual(try decodeStored(OptionalBox<Color>.self, .text("red")).v, .red)
        XCTAssertEqual(try decodeStored(Box<Priority>.self, .integer(2)).v, .high)
        XCTAssertEqual(try decodeStored(Box<Priority>.self, .real(1.0)).v, .low)
        XCTAssertEqual(try decodeStored(OptionalBox<Priority>.self, .integer(1)).v, .low)
    }

    func testUnknownRawValueIsAnErrorNamingIt() throws {
        assertUnknownRawValue(
            try decodeStored(Box<Color>.self, .text("purple")), key: "v",
            mentions: [columnV, "TEXT", "purple", "Color"])
        assertUnknownRawValue(
            try decodeStored(Box<Priority>.self, .integer(7)), key: "v",
            mentions: [columnV, "INTEGER", "7", "Priority"])
        assertUnknownRawValue(
            try decodeStored(OptionalBox<Color>.self, .text("RED")), key: "v",
            mentions: [columnV, "TEXT", "RED", "Color"])
    }

    /// An unknown raw value is `dataCorrupted` (as Swift's own RawRepresentable decoding reports it) or
    /// `typeMismatch`; either way the message must say where and what.
    private func assertUnknownRawValue<T>(
        _ expression: @autoclosure () throws -> T, key: String, mentions fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            let context: DecodingError.Context
            switch error {
            case DecodingError.dataCorrupted(let found), DecodingError.typeMismatch(_, let found): context = found
            default: return XCTFail("expected dataCorrupted or typeMismatch, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(context.codingPath.last?.stringValue, key, "coding path", file: file, line: line)
            assertMentions(context.debugDescription, fragments, file: file, line: line)
        }
    }

    func testNestedValuesFromJSONText() throws {
        XCTAssertEqual(
            try decodeStored(Box<Address>.self, .text(#"{"street":"Main","zip":"75001"}"#)).v,
            Address(street: "Main", zip: "75001"))
        XCTAssertEqual(try decodeStored(Box<[Int]>.self, .text("[1,2,3]")).v, [1, 2, 3])
        XCTAssertEqual(try decodeStored(Box<[String: Int]>.self, .text(#"{"a":1,"b":2}"#)).v, ["a": 1, "b": 2])
        XCTAssertEqual(
            try decodeStored(Box<[Address]>.self, .text(#"[{"street":"A","zip":"1"}]"#)).v,
            [Address(street: "A", zip: "1")])
        XCTAssertEqual(
            try decodeStored(OptionalBox<Address>.self, .blob(Data(#"{"street":"B","zip":"2"}"#.utf8))).v,
            Address(street: "B", zip: "2"))
        XCTAssertEqual(try decodeStored(OptionalBox<[Int]>.self, .text("[]")).v, [])
    }

    func testInvalidJSONIsAnError() throws {
        assertDataCorrupted(
            try decodeStored(Box<Address>.self, .text("not json")), Address.self, key: "v",
            mentions: [columnV, "TEXT 'not json'", "Address"])
        // JSON of the wrong shape: the JSON decoder's own error, its kind and type kept.
        assertTypeMismatch(
            try decodeStored(Box<[Int]>.self, .text(#"{"a":1}"#)), [Any].self, key: "v",
            mentions: [columnV, "TEXT", "Array<Int>", "Expected to decode Array<Any> but found a dictionary"])
        assertTypeMismatch(
            try decodeStored(Box<Address>.self, .integer(1)), Address.self, key: "v",
            mentions: [columnV, "INTEGER 1", "Address"])
    }

    // MARK: Keys and columns

    func testMissingColumnIsKeyNotFoundListingTheRowColumns() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(id, title)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 'x')")
        assertKeyNotFound(
            try decodeFirstRow(Person.self, in: db, sql: "SELECT * FROM t"), key: "name",
            mentions: ["\"name\"", "table \"t\"", "\"id\", \"title\""])
        assertKeyNotFound(
            try decodeFirstRow(Person.self, in: db, sql: "SELECT * FROM t", tableName: nil), key: "name",
            mentions: ["\"name\"", "\"id\", \"title\""])
    }

    func testRawSQLModeMissingOptionalIsNil() throws {
        let db = try Database()
        let person = try decodeFirstRow(
            Person.self, in: db, sql: "SELECT 7 AS id, 'Ada' AS name", tableName: nil, missingOptionalColumnIsNil: true)
        XCTAssertEqual(person, Person(id: 7, name: "Ada", nickname: nil, birthDate: nil))
        let optionals = try decodeFirstRow(
            OptionalIntegers.self, in: db, sql: "SELECT 1 AS int8", tableName: nil, missingOptionalColumnIsNil: true)
        var expected = OptionalIntegers()
        expected.int8 = 1
        XCTAssertEqual(optionals, expected)
        XCTAssertNil(
            try decodeFirstRow(
                OptionalBox<Color>.self, in: db, sql: "SELECT 1 AS other", tableName: nil,
                missingOptionalColumnIsNil: true
            ).v)
    }

    func testRawSQLModeMissingNonOptionalIsKeyNotFound() throws {
        let db = try Database()
        assertKeyNotFound(
            try decodeFirstRow(
                Person.self, in: db, sql: "SELECT 7 AS id, 'Ada' AS nickname", tableName: nil,
                missingOptionalColumnIsNil: true),
            key: "name", mentions: ["\"name\"", "\"id\", \"nickname\""])
    }

    func testTableModeMissingOptionalIsKeyNotFound() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(id, name, nickname)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 'Ada', NULL)")
        assertKeyNotFound(
            try decodeFirstRow(Person.self, in: db, sql: "SELECT * FROM t"), key: "birth_date",
            mentions: ["\"birth_date\"", "table \"t\"", "\"id\", \"name\", \"nickname\""])
        assertKeyNotFound(
            try decodeFirstRow(OptionalIntValue.self, in: db, sql: "SELECT * FROM t"), key: "v",
            mentions: ["\"v\"", "table \"t\"", "\"id\", \"name\", \"nickname\""])
        assertKeyNotFound(
            try decodeFirstRow(OptionalBox<Date>.self, in: db, sql: "SELECT * FROM t"), key: "v",
            mentions: ["\"v\"", "table \"t\"", "\"id\", \"name\", \"nickname\""])
    }

    func testExtraColumnsAreIgnored() throws {
        let db = try Database()
        XCTAssertEqual(
            try decodeFirstRow(Pair.self, in: db, sql: "SELECT 'x' AS extra, 2 AS b, 1 AS a, NULL AS other"),
            Pair(a: 1, b: 2))
        // When a join repeats a name, the first column of that name wins.
        XCTAssertEqual(
            try decodeFirstRow(Pair.self, in: db, sql: "SELECT 1 AS a, 2 AS a, 3 AS b", tableName: nil),
            Pair(a: 1, b: 3))
    }

    func testSingleColumnRowDecodesAsSingleValue() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        try db.execute(sql: "INSERT INTO t VALUES (1), (2), (3)")
        XCTAssertEqual(try decodeFirstRow(Int.self, in: db, sql: "SELECT count(*) FROM t"), 3)
        XCTAssertEqual(try decodeFirstRow(Int64.self, in: db, sql: "SELECT sum(v) FROM t"), 6)
        XCTAssertEqual(try decodeFirstRow(String.self, in: db, sql: "SELECT 'Tokyo'"), "Tokyo")
        XCTAssertEqual(try decodeFirstRow(Double.self, in: db, sql: "SELECT avg(v) FROM t"), 2.0)
        XCTAssertEqual(try decodeFirstRow(Bool.self, in: db, sql: "SELECT count(*) > 0 FROM t"), true)
        XCTAssertEqual(try decodeFirstRow(Color.self, in: db, sql: "SELECT 'red'"), .red)
        XCTAssertNil(try decodeFirstRow(Int?.self, in: db, sql: "SELECT max(v) FROM t WHERE v > 10"))
        XCTAssertEqual(try decodeFirstRow(Int?.self, in: db, sql: "SELECT max(v) FROM t"), 3)
    }

    /// The value table's Foundation types are single values too: `SELECT max(founded_at)` reads as a Date.
    func testSingleColumnRowDecodesFoundationValues() throws {
        let db = try Database()
        XCTAssertEqual(
            try decodeFirstRow(Date.self, in: db, sql: "SELECT '2021-03-14' AS v").timeIntervalSince1970,
            1_615_680_000)
        XCTAssertEqual(
            try decodeFirstRow(Date?.self, in: db, sql: "SELECT '2021-03-14' AS v")?.timeIntervalSince1970,
            1_615_680_000)
        XCTAssertEqual(
            try decodeFirstRow(UUID.self, in: db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' AS v"),
            UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(try decodeFirstRow(Data.self, in: db, sql: "SELECT x'0102' AS v"), Data([1, 2]))
        XCTAssertEqual(
            try decodeFirstRow(Decimal.self, in: db, sql: "SELECT 19.99 AS v"),
            Decimal(sign: .plus, exponent: -2, significand: 1999))
        XCTAssertEqual(
            try decodeFirstRow(URL.self, in: db, sql: "SELECT 'https://example.com' AS v"),
            URL(string: "https://example.com"))
    }

    func testSingleValueErrors() throws {
        let db = try Database()
        XCTAssertThrowsError(try decodeFirstRow(Int.self, in: db, sql: "SELECT 1 AS a, 2 AS b")) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else {
                return XCTFail("expected typeMismatch, got \(error)")
            }
            XCTAssertTrue(context.debugDescription.contains("a, b"), context.debugDescription)
        }
        assertDataCorrupted(
            try decodeFirstRow(Int16.self, in: db, sql: "SELECT 70000 AS v"), Int16.self, key: nil,
            mentions: [columnV, "INTEGER 70000", "Int16", "out of range"])
        assertValueNotFound(
            try decodeFirstRow(Int.self, in: db, sql: "SELECT NULL AS v"), Int.self, key: nil,
            mentions: [columnV, "NULL", "Int"])
    }

    func testRowWithoutTableNamesOnlyTheColumn() throws {
        let db = try Database()
        assertDataCorrupted(
            try decodeFirstRow(Int16Value.self, in: db, sql: "SELECT 70000 AS v", tableName: nil), Int16.self,
            key: "v", mentions: ["column \"v\" holds INTEGER 70000", "Int16", "out of range"])
    }
}
