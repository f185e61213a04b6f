import Foundation
import XCTest

@testable import SQLiteRecord

/// Every ``FetchedRowReadable`` type, read in the form the row's `form` column names: 0 by index, 1 by index
/// as an Optional, 2 by name, 3 by name as an Optional. Each line is a spelling a row initializer writes, so
/// the struct also pins that every one of them still compiles to a read of that type.
private struct Readables: FetchableRecord, Equatable {
    var bool: Bool?
    var string: String?
    var double: Double?
    var float: Float?
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
    var date: Date?
    var data: Data?
    var uuid: UUID?
    var url: URL?
    var decimal: Decimal?

    static let columns = [
        "bool", "string", "double", "float", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
        "uint32", "uint64", "date", "data", "uuid", "url", "decimal", "form",
    ]
}

extension Readables {
    // One statement per type and form, spelled out: a helper generic over the type would test the generic
    // subscripts only, not the overload each spelling below resolves to.
    // swift-format-ignore
    init(row: borrowing FetchedRow) throws {
        switch try row[19, as: Int.self] {
        case 0:
            bool = try row[0, as: Bool.self]; string = try row[1, as: String.self]
            double = try row[2, as: Double.self]; float = try row[3, as: Float.self]
            int = try row[4, as: Int.self]; int8 = try row[5, as: Int8.self]
            int16 = try row[6, as: Int16.self]; int32 = try row[7, as: Int32.self]
            int64 = try row[8, as: Int64.self]; uint = try row[9, as: UInt.self]
            uint8 = try row[10, as: UInt8.self]; uint16 = try row[11, as: UInt16.self]
            uint32 = try row[12, as: UInt32.self]; uint64 = try row[13, as: UInt64.self]
            date = try row[14, as: Date.self]; data = try row[15, as: Data.self]
            uuid = try row[16, as: UUID.self]; url = try row[17, as: URL.self]
            decimal = try row[18, as: Decimal.self]
        case 1:
            bool = try row[0, as: Bool?.self]; string = try row[1, as: String?.self]
            double = try row[2, as: Double?.self]; float = try row[3, as: Float?.self]
            int = try row[4, as: Int?.self]; int8 = try row[5, as: Int8?.self]
            int16 = try row[6, as: Int16?.self]; int32 = try row[7, as: Int32?.self]
            int64 = try row[8, as: Int64?.self]; uint = try row[9, as: UInt?.self]
            uint8 = try row[10, as: UInt8?.self]; uint16 = try row[11, as: UInt16?.self]
            uint32 = try row[12, as: UInt32?.self]; uint64 = try row[13, as: UInt64?.self]
            date = try row[14, as: Date?.self]; data = try row[15, as: Data?.self]
            uuid = try row[16, as: UUID?.self]; url = try row[17, as: URL?.self]
            decimal = try row[18, as: Decimal?.self]
        case 2:
            bool = try row["bool", as: Bool.self]; string = try row["string", as: String.self]
            double = try row["double", as: Double.self]; float = try row["float", as: Float.self]
            int = try row["int", as: Int.self]; int8 = try row["int8", as: Int8.self]
            int16 = try row["int16", as: Int16.self]; int32 = try row["int32", as: Int32.self]
            int64 = try row["int64", as: Int64.self]; uint = try row["uint", as: UInt.self]
            uint8 = try row["uint8", as: UInt8.self]; uint16 = try row["uint16", as: UInt16.self]
            uint32 = try row["uint32", as: UInt32.self]; uint64 = try row["uint64", as: UInt64.self]
            date = try row["date", as: Date.self]; data = try row["data", as: Data.self]
            uuid = try row["uuid", as: UUID.self]; url = try row["url", as: URL.self]
            decimal = try row["decimal", as: Decimal.self]
        default:
            bool = try row["bool", as: Bool?.self]; string = try row["string", as: String?.self]
            double = try row["double", as: Double?.self]; float = try row["float", as: Float?.self]
            int = try row["int", as: Int?.self]; int8 = try row["int8", as: Int8?.self]
            int16 = try row["int16", as: Int16?.self]; int32 = try row["int32", as: Int32?.self]
            int64 = try row["int64", as: Int64?.self]; uint = try row["uint", as: UInt?.self]
            uint8 = try row["uint8", as: UInt8?.self]; uint16 = try row["uint16", as: UInt16?.self]
            uint32 = try row["uint32", as: UInt32?.self]; uint64 = try row["uint64", as: UInt64?.self]
            date = try row["date", as: Date?.self]; data = try row["data", as: Data?.self]
            uuid = try row["uuid", as: UUID?.self]; url = try row["url", as: URL?.self]
            decimal = try row["decimal", as: Decimal?.self]
        }
    }
}

/// One column `v` of type `V`, read by name when the row has a `by_name` column and by index otherwise.
private struct One<V: FetchedRowReadable & Equatable>: FetchableRecord, Equatable {
    var v: V
}

extension One {
    init(row: borrowing FetchedRow) throws {
        v = try row.hasColumn("by_name") ? row["v", as: V.self] : row[0, as: V.self]
    }
}

/// A date column read by name, under whatever date strategy the fetch's decoder has.
private struct Stamp: FetchableRecord, Equatable {
    var at: Date
    init(at: Date) { self.at = at }
    init(row: borrowing FetchedRow) throws { at = try row["at", as: Date.self] }
}

private enum Mood: String, Codable, Equatable {
    case calm, cross
}

/// Optional types that are `Decodable` but not ``FetchedRowReadable``: they read through the decoder's rules.
private struct Moods: FetchableRecord, Equatable {
    var first: Mood?
    var second: Mood?
    var tags: [String]?
}

extension Moods {
    init(row: borrowing FetchedRow) throws {
        first = try row[0, as: Mood?.self]
        second = try row["second", as: Mood?.self]
        tags = try row["tags", as: [String]?.self]
    }
}

final class FetchedRowReadableTests: XCTestCase {
    private struct NoRow: Error {}

    /// The first row of `sql` decoded as `type` through `init(row:)` and through `init(from:)`, as a fetch
    /// from table `t` (or raw SQL, with `tableName` nil) with `decoder` would decode it.
    private func decodeBothWays<T: FetchableRecord>(
        _ type: T.Type, _ db: Database, _ sql: String, tableName: String? = "t", decoder: RowDecoder = RowDecoder()
    ) throws -> (row: Result<T, any Error>, decodable: Result<T, any Error>) {
        let statement = try db.makeStatement(sql: sql)
        guard try statement.step() else { throw NoRow() }
        func context() -> RowDecodingContext {
            RowDecodingContext(
                statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil,
                decoder: decoder)
        }
        let viaRow = context()
        let viaDecodable = context()
        viaDecodable.ignoresRowInitializers = true
        return (Result { try viaRow.decodeRow(type) }, Result { try viaDecodable.decodeRow(type) })
    }

    /// The error `result` holds, as its kind, coding path and message.
    private func errorText<T>(_ result: Result<T, any Error>) -> String? {
        guard case .failure(let error) = result else { return nil }
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .typeMismatch(_, let context):
            return "typeMismatch \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        case .valueNotFound(_, let context):
            return "valueNotFound \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "keyNotFound \(key.stringValue): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "dataCorrupted \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        @unknown default:
            return "\(decoding)"
        }
    }

    private func readablesTable() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(" + Readables.columns.joined(separator: ", ") + ")")
        return db
    }

    // MARK: Every type, every form

    func testEveryReadableTypeReadsInEveryFormAsTheDecoderReadsIt() throws {
        let db = try readablesTable()
        try db.execute(
            sql: "INSERT INTO t VALUES (1, 'Paris', 2.5, 0.25, -42, -8, -300, 70000, 9007199254740993, 42, 255, "
                + "65535, 4294967295, 7, '2024-05-01 12:30:00.250', x'0102', "
                + "'5b1a43a2-5bbe-4b49-9a24-3d8f5d2c66a0', 'https://example.com/a?b=1', '19.99', 0)")
        let expected = Readables(
            bool: true, string: "Paris", double: 2.5, float: 0.25, int: -42, int8: -8, int16: -300, int32: 70_000,
            int64: 9_007_199_254_740_993, uint: 42, uint8: 255, uint16: 65_535, uint32: 4_294_967_295, uint64: 7,
            date: Date(timeIntervalSince1970: 1_714_566_600.25), data: Data([1, 2]),
            uuid: UUID(uuidString: "5B1A43A2-5BBE-4B49-9A24-3D8F5D2C66A0"),
            url: URL(string: "https://example.com/a?b=1"), decimal: Decimal(string: "19.99"))
        for form in 0...3 {
            try db.execute(sql: "UPDATE t SET form = ?", arguments: [form])
            let both = try decodeBothWays(Readables.self, db, "SELECT * FROM t")
            XCTAssertEqual(try both.row.get(), expected, "form \(form)")
            XCTAssertEqual(try both.decodable.get(), expected, "form \(form)")
        }
    }

    func testTheOptionalFormsReadNULLAsNil() throws {
        let db = try readablesTable()
        try db.execute(sql: "INSERT INTO t(form) VALUES (1)")
        let none = Readables()
        XCTAssertEqual(try decodeBothWays(Readables.self, db, "SELECT * FROM t").row.get(), none)
        try db.execute(sql: "UPDATE t SET form = 3")
        XCTAssertEqual(try decodeBothWays(Readables.self, db, "SELECT * FROM t").row.get(), none)
        // The non-optional forms refuse the first NULL they meet, naming it.
        try db.execute(sql: "UPDATE t SET form = 2")
        XCTAssertEqual(
            errorText(try decodeBothWays(Readables.self, db, "SELECT * FROM t").row),
            "valueNotFound [\"bool\"]: Expected Bool but column \"bool\" of table \"t\" holds NULL")
    }

    // MARK: Errors

    /// `stored` read as `V` by index and by name throws exactly what the decoder throws for it, which is
    /// `expected` when given.
    private func assertSameError<V: FetchedRowReadable & Equatable>(
        _ type: V.Type, _ stored: SQLiteValue, _ expected: String? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [stored])
        for sql in ["SELECT v FROM t", "SELECT v, 1 AS by_name FROM t"] {
            let both = try decodeBothWays(One<V>.self, db, sql)
            let rowError = errorText(both.row)
            XCTAssertNotNil(rowError, "\(V.self) from \(stored): no error", file: file, line: line)
            XCTAssertEqual(rowError, errorText(both.decodable), "\(V.self) from \(stored)", file: file, line: line)
            if let expected { XCTAssertEqual(rowError, expected, sql, file: file, line: line) }
        }
    }

    func testEveryReadableTypeThrowsTheDecodersErrors() throws {
        let blob = SQLiteValue.blob(Data([0xFF]))
        try assertSameError(Bool.self, .integer(2))
        try assertSameError(Bool.self, .text("maybe"))
        try assertSameError(String.self, blob)
        try assertSameError(Double.self, .integer(9_007_199_254_740_993))
        try assertSameError(Float.self, .real(1e300))
        try assertSameError(Int.self, .real(3.5))
        try assertSameError(Int8.self, .integer(200))
        try assertSameError(Int16.self, .text("3"))
        try assertSameError(Int32.self, .integer(1 << 40))
        try assertSameError(Int64.self, blob)
        try assertSameError(UInt.self, .integer(-1))
        try assertSameError(UInt8.self, .integer(256))
        try assertSameError(UInt16.self, .real(.infinity))
        try assertSameError(UInt32.self, .null)
        try assertSameError(UInt64.self, .integer(-7))
        try assertSameError(Date.self, .text("not a date"))
        try assertSameError(Data.self, .integer(1))
        try assertSameError(UUID.self, .blob(Data([1, 2, 3])))
        try assertSameError(URL.self, .integer(5))
        try assertSameError(Decimal.self, .text("12abc"))
    }

    func testErrorsNameTheColumnTheStoredValueAndTheType() throws {
        try assertSameError(
            UInt8.self, .blob(Data([0xFF])),
            "typeMismatch [\"v\"]: Expected UInt8 but column \"v\" of table \"t\" holds BLOB <1 bytes>")
        try assertSameError(
            Decimal.self, .text("12abc"),
            "dataCorrupted [\"v\"]: Expected Decimal but column \"v\" of table \"t\" holds TEXT '12abc', "
                + "which is not a decimal number")
        try assertSameError(
            UInt32.self, .null, "valueNotFound [\"v\"]: Expected UInt32 but column \"v\" of table \"t\" holds NULL")
    }

    // MARK: Strategies and the Decodable reads

    func testADateReadsByTheFetchsDateStrategy() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(at)")
        try db.execute(sql: "INSERT INTO t VALUES (86400)")
        var decoder = RowDecoder()
        decoder.dateDecodingStrategy = .unixMilliseconds
        let both = try decodeBothWays(Stamp.self, db, "SELECT at FROM t", decoder: decoder)
        XCTAssertEqual(try both.row.get(), Stamp(at: Date(timeIntervalSince1970: 86.4)))
        XCTAssertEqual(try both.decodable.get(), Stamp(at: Date(timeIntervalSince1970: 86.4)))
        try db.execute(sql: "UPDATE t SET at = '1970-01-02'")
        let text = try decodeBothWays(Stamp.self, db, "SELECT at FROM t", decoder: decoder)
        XCTAssertEqual(errorText(text.row), errorText(text.decodable))
        XCTAssertEqual(
            errorText(text.row),
            "typeMismatch [\"at\"]: Expected Date but column \"at\" of table \"t\" holds TEXT '1970-01-02', "
                + "where a number of milliseconds was expected")
    }

    func testOtherDecodableTypesReadThroughTheDecodersRules() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(first, second, tags)")
        try db.execute(sql: #"INSERT INTO t VALUES ('calm', NULL, '["a","b"]')"#)
        let all = try decodeBothWays(Moods.self, db, "SELECT * FROM t")
        XCTAssertEqual(try all.row.get(), Moods(first: .calm, second: nil, tags: ["a", "b"]))
        XCTAssertEqual(try all.decodable.get(), try all.row.get())
        // An Optional by name that a raw SELECT leaves out is nil, as for the library's own types.
        let partial = try decodeBothWays(Moods.self, db, "SELECT first, tags FROM t", tableName: nil)
        XCTAssertEqual(try partial.row.get(), Moods(first: .calm, second: nil, tags: ["a", "b"]))
        let table = try decodeBothWays(Moods.self, db, "SELECT first, tags FROM t")
        XCTAssertEqual(
            errorText(table.row),
            "keyNotFound second: No column \"second\" in table \"t\"; the row has columns: \"first\", \"tags\"")
    }
}
