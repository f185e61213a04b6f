import Foundation
import XCTest

@testable import SQLiteRecord

// MARK: Key types the trail compares by their string, not their bytes

/// A key that holds a String: not plain data, so the trail compares its string.
private struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A key of plain data larger than 16 bytes: compared by its string.
private struct WideKey: CodingKey {
    var first: Int64
    var second: Int64
    var third: Int64
    var stringValue: String { "c\(first)" }
    var intValue: Int? { nil }
    init(_ number: Int64) { (first, second, third) = (number, number * 2, number * 3) }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// A key of plain data with padding between its fields (16 bytes, 7 of them padding).
private struct PaddedKey: CodingKey {
    var tag: UInt8
    var wide: UInt64
    var stringValue: String { "c\(tag)" }
    var intValue: Int? { nil }
    init(_ tag: UInt8) { (self.tag, wide) = (tag, UInt64(tag) << 40) }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct ThreeColumns: Equatable {
    var c1: Int
    var c2: String
    var c3: Double?
}

private struct NamedKeyRow: Decodable, Equatable {
    var columns: ThreeColumns
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NamedKey.self)
        columns = ThreeColumns(
            c1: try container.decode(Int.self, forKey: NamedKey("c1")),
            c2: try container.decode(String.self, forKey: NamedKey("c2")),
            c3: try container.decodeIfPresent(Double.self, forKey: NamedKey("c3")))
    }
}

private struct WideKeyRow: Decodable, Equatable {
    var columns: ThreeColumns
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WideKey.self)
        columns = ThreeColumns(
            c1: try container.decode(Int.self, forKey: WideKey(1)),
            c2: try container.decode(String.self, forKey: WideKey(2)),
            c3: try container.decodeIfPresent(Double.self, forKey: WideKey(3)))
    }
}

private struct PaddedKeyRow: Decodable, Equatable {
    var columns: ThreeColumns
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PaddedKey.self)
        columns = ThreeColumns(
            c1: try container.decode(Int.self, forKey: PaddedKey(1)),
            c2: try container.decode(String.self, forKey: PaddedKey(2)),
            c3: try container.decodeIfPresent(Double.self, forKey: PaddedKey(3)))
    }
}

/// Reads `circle_radius` or the two `rect_` columns, as `kind` says: a type that asks for other keys on
/// some rows.
private enum Shape: Decodable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)

    enum CodingKeys: String, CodingKey {
        case kind
        case radius = "circle_radius"
        case width = "rect_width"
        case height = "rect_height"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(String.self, forKey: .kind) == "circle" {
            self = .circle(radius: try container.decode(Double.self, forKey: .radius))
        } else {
            self = .rectangle(
                width: try container.decode(Double.self, forKey: .width),
                height: try container.decode(Double.self, forKey: .height))
        }
    }
}

/// Two types whose CodingKeys have the same bytes (case 0, case 1) for different columns, asked for in the
/// same order.
private struct XThenY: Decodable, Equatable {
    var x: Int
    var y: Int
}

private struct YThenX: Decodable, Equatable {
    var y: Int
    var x: Int
}

/// Twenty columns: more keys than the trail first has room for.
private struct Twenty: Decodable, Equatable {
    var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    var c10, c11, c12, c13, c14, c15, c16, c17, c18, c19: Int
}

// MARK: -

/// The column lookup's key trail finds each key's column by position after the first row. These tests
/// decode several rows through one statement, so the second and later rows go through the trail, with key
/// types it compares by bytes and key types it compares by string.
final class KeyTrailTests: XCTestCase {
    private func threeColumnDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(c1 INTEGER, c2 TEXT, c3 REAL)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', NULL), (3, 'three', 3.5)")
        return db
    }

    private let threeRows = [
        ThreeColumns(c1: 1, c2: "one", c3: 1.5), ThreeColumns(c1: 2, c2: "two", c3: nil),
        ThreeColumns(c1: 3, c2: "three", c3: 3.5),
    ]

    func testKeysThatAreNotPlainDataDecodeEveryRow() throws {
        let db = try threeColumnDatabase()
        let rows = try db.fetchAll(NamedKeyRow.self, sql: "SELECT * FROM t ORDER BY c1")
        XCTAssertEqual(rows.map(\.columns), threeRows)
        // Twice through the cached statement, whose trail the first fetch left.
        XCTAssertEqual(try db.fetchAll(NamedKeyRow.self, sql: "SELECT * FROM t ORDER BY c1").map(\.columns), threeRows)
    }

    func testPlainDataKeysLargerThanSixteenBytesDecodeEveryRow() throws {
        let db = try threeColumnDatabase()
        XCTAssertEqual(try db.fetchAll(WideKeyRow.self, sql: "SELECT * FROM t ORDER BY c1").map(\.columns), threeRows)
    }

    func testPlainDataKeysWithPaddingDecodeEveryRow() throws {
        let db = try threeColumnDatabase()
        XCTAssertEqual(
            try db.fetchAll(PaddedKeyRow.self, sql: "SELECT * FROM t ORDER BY c1").map(\.columns), threeRows)
    }

    func testErrorOnALaterRowNamesTheKeyOfEachKind() throws {
        let db = try threeColumnDatabase()
        try db.execute(sql: "UPDATE t SET c2 = NULL WHERE c1 = 3")
        for type in [NamedKeyRow.self, WideKeyRow.self, PaddedKeyRow.self] as [any Decodable.Type] {
            XCTAssertThrowsError(try db.fetchAll(type, sql: "SELECT * FROM t ORDER BY c1")) { error in
                guard case DecodingError.valueNotFound(_, let context) = error else {
                    return XCTFail("\(type): expected valueNotFound, got \(error)")
                }
                XCTAssertEqual(context.codingPath.map(\.stringValue), ["c2"], "\(type)")
            }
        }
    }

    func testTypeThatAsksForOtherKeysOnSomeRows() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE shapes(id INTEGER, kind TEXT, circle_radius REAL, rect_width REAL, rect_height REAL)")
        try db.execute(
            sql: """
                INSERT INTO shapes VALUES (1, 'circle', 2, NULL, NULL), (2, 'rect', NULL, 3, 4),
                    (3, 'rect', NULL, 5, 6), (4, 'circle', 7, NULL, NULL), (5, 'circle', 8, NULL, NULL)
                """)
        let shapes = try db.fetchAll(Shape.self, sql: "SELECT * FROM shapes ORDER BY id")
        XCTAssertEqual(
            shapes,
            [
                .circle(radius: 2), .rectangle(width: 3, height: 4), .rectangle(width: 5, height: 6),
                .circle(radius: 7), .circle(radius: 8),
            ])
    }

    func testTwoKeyTypesWithTheSameBytesOnOneStatement() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(x INTEGER, y INTEGER)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)")
        let statement = try db.makeStatement(sql: "SELECT * FROM t ORDER BY x")
        let decoder = RowDecoder()
        var decoded: [String] = []
        while try statement.step() {
            if decoded.count % 2 == 0 {
                let row = try decoder.decode(XThenY.self, from: statement)
                decoded.append("x\(row.x) y\(row.y)")
            } else {
                // Its first key, `y`, has the bytes of XThenY's first key, `x`, and names another column.
                let row = try decoder.decode(YThenX.self, from: statement)
                decoded.append("x\(row.x) y\(row.y)")
            }
        }
        XCTAssertEqual(decoded, ["x1 y10", "x2 y20", "x3 y30", "x4 y40"])
    }

    func testMoreKeysThanTheTrailFirstHolds() throws {
        let db = try Database()
        let names = (0..<20).map { "c\($0)" }
        try db.execute(sql: "CREATE TABLE t(\(names.joined(separator: ", ")))")
        for row in 0..<3 {
            let values = (0..<20).map { String(row * 100 + $0) }
            try db.execute(sql: "INSERT INTO t VALUES (\(values.joined(separator: ", ")))")
        }
        let rows = try db.fetchAll(Twenty.self, sql: "SELECT * FROM t ORDER BY c0")
        XCTAssertEqual(rows.map(\.c19), [19, 119, 219])
        XCTAssertEqual(rows.map(\.c0), [0, 100, 200])

        try db.execute(sql: "UPDATE t SET c19 = 'nineteen' WHERE c0 = 200")
        XCTAssertThrowsError(try db.fetchAll(Twenty.self, sql: "SELECT * FROM t ORDER BY c0")) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else {
                return XCTFail("expected typeMismatch, got \(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["c19"])
            XCTAssertTrue(context.debugDescription.contains("column \"c19\""), context.debugDescription)
        }
    }
}
