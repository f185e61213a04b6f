import Foundation
import XCTest

@testable import SQLiteRecord

/// One column `v` of every kind, read through `init(row:)` by index; the same type's `init(from:)` reads it
/// through the decoder, so every test below can compare the two.
private struct Value<V: Decodable & Equatable>: FetchableRecord, Equatable {
    var v: V
}

extension Value {
    init(row: borrowing FetchedRow) throws { v = try row[0, as: V.self] }
}

/// Reads column `v` by name through the concrete subscripts.
private struct Named: FetchableRecord, Equatable {
    var int16: Int16
    var text: String?
    enum CodingKeys: String, CodingKey {
        case int16 = "v"
        case text = "w"
    }
}

extension Named {
    init(row: borrowing FetchedRow) throws {
        int16 = try row["v", as: Int16.self]
        text = try row["w", as: String?.self]
    }
}

private enum Color: String, Codable, Equatable {
    case red, green
}

private struct Address: Codable, Equatable {
    var street: String
}

/// A row of every concrete type the subscripts read, by index and by name alike.
private struct Everything: FetchableRecord, Equatable {
    var bool: Bool
    var string: String
    var double: Double
    var float: Float
    var int: Int
    var int8: Int8
    var uint64: UInt64
    var date: Date
    var data: Data
    var uuid: UUID
    var url: URL
    var decimal: Decimal
    var color: Color
    var address: Address
    var missing: Int?

    static let columns = [
        "bool", "string", "double", "float", "int", "int8", "uint64", "date", "data", "uuid", "url", "decimal", "color",
        "address",
    ]

    init(row: borrowing FetchedRow) throws {
        if row.hasColumn("by_name") {
            bool = try row["bool", as: Bool.self]
            string = try row["STRING", as: String.self]
            double = try row["double", as: Double.self]
            float = try row["float", as: Float.self]
            int = try row["int", as: Int.self]
            int8 = try row["int8", as: Int8.self]
            uint64 = try row["uint64", as: UInt64.self]
            date = try row["date", as: Date.self]
            data = try row["data", as: Data.self]
            uuid = try row["uuid", as: UUID.self]
            url = try row["url", as: URL.self]
            decimal = try row["decimal", as: Decimal.self]
            color = try row["color", as: Color.self]
            address = try row["address", as: Address.self]
            missing = try row["missing", as: Int?.self]
        } else {
            bool = try row[0, as: Bool.self]
            string = try row[1, as: String.self]
            double = try row[2, as: Double.self]
            float = try row[3, as: Float.self]
            int = try row[4, as: Int.self]
            int8 = try row[5, as: Int8.self]
            uint64 = try row[6, as: UInt64.self]
            date = try row[7, as: Date.self]
            data = try row[8, as: Data.self]
            uuid = try row[9, as: UUID.self]
            url = try row[10, as: URL.self]
            decimal = try row[11, as: Decimal.self]
            color = try row[12, as: Color.self]
            address = try row[13, as: Address.self]
            missing = nil
        }
    }
}

/// Reads a third column that rows of two do not have.
private struct Third: FetchableRecord {
    var v: Int
    init(row: borrowing FetchedRow) throws { v = try row[2, as: Int.self] }
}

/// An Optional column that partial SELECTs leave out.
private struct Partial: FetchableRecord, Equatable {
    var v: Int
    var w: String?
}

extension Partial {
    init(row: borrowing FetchedRow) throws {
        v = try row["v", as: Int.self]
        w = try row["w", as: String?.self]
    }
}

/// Reads its columns in one order on even rows and the other on odd ones, and spells them in either case.
private struct Flip: FetchableRecord, Equatable {
    var a: Int
    var b: Int
}

extension Flip {
    init(row: borrowing FetchedRow) throws {
        // The trail of names must follow the order of each row, never answer from a stale entry.
        if try row["A", as: Int.self] % 2 == 1 {
            b = try row["b", as: Int.self]
            a = try row["a", as: Int.self]
        } else {
            a = try row["a", as: Int.self]
            b = try row["B", as: Int.self]
        }
    }
}

/// What a row says about its columns.
private struct Shape: FetchableRecord, Equatable {
    var names: [String]
    var count: Int
    var hasV: Bool
    var hasX: Bool
}

extension Shape {
    init(row: borrowing FetchedRow) throws {
        names = row.columnNames
        count = row.count
        hasV = row.hasColumn("V")
        hasX = row.hasColumn("x")
    }
}

final class FetchedRowTests: XCTestCase {
    private struct NoRow: Error {}

    /// Decodes the first row of `sql` as `type` twice, through `init(row:)` and through `init(from:)`, as a
    /// fetch from table `t` (or raw SQL, with `tableName` nil) would.
    private func decodeBothWays<T: FetchableRecord>(
        _ type: T.Type, _ db: Database, _ sql: String, tableName: String? = "t"
    ) throws -> (row: Result<T, any Error>, decodable: Result<T, any Error>) {
        let statement = try db.makeStatement(sql: sql)
        guard try statement.step() else { throw NoRow() }
        let viaRow = RowDecodingContext(
            statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil)
        let viaDecodable = RowDecodingContext(
            statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil)
        viaDecodable.ignoresRowInitializers = true
        return (Result { try viaRow.decodeRow(type) }, Result { try viaDecodable.decodeRow(type) })
    }

    /// The error `result` holds, as text with its coding path.
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

    private func table(_ value: SQLiteValue, declaredType: String = "") throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v \(declaredType), w TEXT)")
        try db.execute(sql: "INSERT INTO t(v) VALUES (?)", arguments: [value])
        return db
    }

    // MARK: Values

    func testEveryConcreteTypeReadsAsTheDecoderReadsIt() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(" + Everything.columns.joined(separator: ", ") + ")")
        try db.execute(
            sql: "INSERT INTO t VALUES (1, 'Paris', 2.5, 0.25, 42, -8, 18446744073709551615 - 1, "
                + "'2024-05-01 12:30:00.250', x'0102', '5B1A43A2-5BBE-4B49-9A24-3D8F5D2C66A0', "
                + "'https://example.com/a?b=1', '19.99', 'green', '{\"street\":\"Rue de Rivoli\"}')")
        // 18446744073709551615 - 1 is REAL in SQLite, which UInt64 cannot hold exactly: replace it.
        try db.execute(sql: "UPDATE t SET uint64 = 7")
        let byIndex = try decodeBothWays(Everything.self, db, "SELECT * FROM t", tableName: nil)
        let value = try byIndex.row.get()
        XCTAssertEqual(value, try byIndex.decodable.get())
        XCTAssertEqual(value.string, "Paris")
        XCTAssertEqual(value.float, 0.25)
        XCTAssertEqual(value.int8, -8)
        XCTAssertEqual(value.uint64, 7)
        XCTAssertEqual(value.date, Date(timeIntervalSince1970: 1_714_566_600.25))
        XCTAssertEqual(value.data, Data([1, 2]))
        XCTAssertEqual(value.uuid, UUID(uuidString: "5B1A43A2-5BBE-4B49-9A24-3D8F5D2C66A0"))
        XCTAssertEqual(value.url, URL(string: "https://example.com/a?b=1"))
        XCTAssertEqual(value.decimal, Decimal(string: "19.99"))
        XCTAssertEqual(value.color, .green)
        XCTAssertEqual(value.address, Address(street: "Rue de Rivoli"))
        // By name, with a name spelled in another case and an Optional column the raw SELECT lacks.
        let byName = try decodeBothWays(Everything.self, db, "SELECT *, 1 AS by_name FROM t", tableName: nil)
        XCTAssertEqual(try byName.row.get(), value)
    }

    func testNumbersConvertExactlyOrThrowTheDecodersError() throws {
        let cases: [(SQLiteValue, String)] = [
            (.integer(70_000), "dataCorrupted"), (.real(3.0), "value"), (.real(3.5), "dataCorrupted"),
            (.text("3"), "typeMismatch"), (.blob(Data([1])), "typeMismatch"), (.null, "valueNotFound"),
        ]
        for (stored, expected) in cases {
            let both = try decodeBothWays(Named.self, try table(stored), "SELECT * FROM t")
            XCTAssertEqual(errorText(both.row), errorText(both.decodable), "\(stored)")
            if expected == "value" {
                XCTAssertEqual(try both.row.get(), Named(int16: 3, text: nil))
            } else {
                XCTAssertTrue(
                    errorText(both.row)?.hasPrefix(expected) == true, "\(stored): \(errorText(both.row) ?? "")")
            }
        }
    }

    func testAnOutOfRangeValueNamesColumnTableAndType() throws {
        let both = try decodeBothWays(Named.self, try table(.integer(70_000)), "SELECT * FROM t")
        XCTAssertEqual(
            errorText(both.row),
            "dataCorrupted [\"v\"]: Expected Int16 but column \"v\" of table \"t\" holds INTEGER 70000, out of range")
    }

    func testByIndexTheCodingPathIsTheColumnName() throws {
        let both = try decodeBothWays(Value<Int16>.self, try table(.null), "SELECT v FROM t")
        XCTAssertEqual(errorText(both.row), errorText(both.decodable))
        XCTAssertEqual(
            errorText(both.row), "valueNotFound [\"v\"]: Expected Int16 but column \"v\" of table \"t\" holds NULL")
    }

    func testBoolAndDateTextConvertAsTheDecoderDoes() throws {
        for text in ["yes", "F", "2", ""] {
            let both = try decodeBothWays(Value<Bool>.self, try table(.text(text)), "SELECT v FROM t")
            XCTAssertEqual(errorText(both.row), errorText(both.decodable), text)
            if case .success(let value) = both.row { XCTAssertEqual(value, try both.decodable.get()) }
        }
        for text in ["2024-05-01", "2024-05-01T12:30:00+0200", "not a date", ""] {
            let both = try decodeBothWays(Value<Date>.self, try table(.text(text)), "SELECT v FROM t")
            XCTAssertEqual(errorText(both.row), errorText(both.decodable), text)
            if case .success(let value) = both.row { XCTAssertEqual(value, try both.decodable.get()) }
        }
    }

    func testAnUnknownRawValueIsTheDecodersError() throws {
        let both = try decodeBothWays(Value<Color>.self, try table(.text("blue")), "SELECT v FROM t")
        XCTAssertEqual(errorText(both.row), errorText(both.decodable))
        XCTAssertNotNil(errorText(both.row))
    }

    // MARK: Columns that are not there

    func testAnIndexPastTheLastColumnIsKeyNotFound() throws {
        let both = try decodeBothWays(
            Value<Int>.self, try table(.integer(1)), "SELECT v, w FROM t WHERE 0 = 1 UNION ALL SELECT v, w FROM t")
        XCTAssertEqual(try both.row.get(), Value(v: 1))
        let third = try decodeBothWays(Third.self, try table(.integer(1)), "SELECT v, w FROM t")
        XCTAssertEqual(
            errorText(third.row),
            "keyNotFound 2: No column 2 in the row of table \"t\"; it has 2 column(s): \"v\", \"w\"")
    }

    func testAMissingNameIsKeyNotFoundExceptForAnOptionalInRawSQL() throws {
        let db = try table(.integer(5))
        let raw = try decodeBothWays(Partial.self, db, "SELECT v FROM t", tableName: nil)
        XCTAssertEqual(try raw.row.get(), Partial(v: 5, w: nil))
        XCTAssertEqual(try raw.decodable.get(), Partial(v: 5, w: nil))
        let table = try decodeBothWays(Partial.self, db, "SELECT v FROM t")
        XCTAssertEqual(
            errorText(table.row), "keyNotFound w: No column \"w\" in table \"t\"; the row has columns: \"v\"")
        let missing = try decodeBothWays(Partial.self, db, "SELECT w FROM t", tableName: nil)
        XCTAssertEqual(errorText(missing.row), "keyNotFound v: No column \"v\" in the row; the row has columns: \"w\"")
    }

    func testNamesMatchAsSQLiteMatchesThemAndTheTrailFollowsChangingOrders() throws {
        let db = try Database()
        let rows = try db.fetchAll(
            Flip.self, sql: "SELECT 1 AS a, 10 AS b UNION ALL SELECT 2, 20 UNION ALL SELECT 3, 30")
        XCTAssertEqual(rows, [Flip(a: 1, b: 10), Flip(a: 2, b: 20), Flip(a: 3, b: 30)])
    }

    func testTheRowListsItsColumns() throws {
        let db = try Database()
        XCTAssertEqual(
            try db.fetchOne(Shape.self, sql: "SELECT 1 AS v, 2 AS w"),
            Shape(names: ["v", "w"], count: 2, hasV: true, hasX: false))
    }
}
