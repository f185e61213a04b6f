#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// The row decoder with coding keys that are not a plain `String` enum (the key table is made for any key type
/// of at most one byte, read by the key's byte), types that decode one another from one decoder, and keys read
/// twice or in an order of their own: every row reads its own columns.
final class PostgresRowDecoderKeyTypeTests: PostgresTestCase {
    private let lettersSQL =
        "SELECT * FROM (VALUES (1::bigint, 'one', 10::int4), (2, 'two', 20), (3, 'three', NULL)) AS t(a, b, c)"

    /// `Int`-raw keys, each read twice, the last first.
    struct IntKeyed: Decodable, Equatable {
        enum CodingKeys: Int, CodingKey { case a = 7, b = 3, c = 200 }
        var a: Int64
        var b: String
        var c: Int?
        init(a: Int64, b: String, c: Int?) { (self.a, self.b, self.c) = (a, b, c) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            c = try container.decodeIfPresent(Int.self, forKey: .c)
            b = try container.decode(String.self, forKey: .b)
            a = try container.decode(Int64.self, forKey: .a)
            XCTAssertEqual(try container.decode(String.self, forKey: .b), b)
            XCTAssertEqual(try container.decodeIfPresent(Int.self, forKey: .c), c)
        }
    }

    /// A key of one byte that is a struct, not an enum: its byte is the column's index in its name.
    struct ByteKey: CodingKey {
        let index: UInt8
        init(_ index: UInt8) { self.index = index }
        var stringValue: String { ["a", "b", "c", "zz"][Int(index % 4)] }
        init?(stringValue: String) {
            guard let index = ["a", "b", "c", "zz"].firstIndex(of: stringValue) else { return nil }
            self.index = UInt8(index)
        }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    struct ByteKeyed: Decodable, Equatable {
        var a: Int64
        var b: String
        var c: Int?
        var zz: String?
        init(a: Int64, b: String, c: Int?, zz: String?) { (self.a, self.b, self.c, self.zz) = (a, b, c, zz) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ByteKey.self)
            b = try container.decode(String.self, forKey: ByteKey(1))
            c = try container.decodeIfPresent(Int.self, forKey: ByteKey(2))
            a = try container.decode(Int64.self, forKey: ByteKey(0))
            zz = try container.decodeIfPresent(String.self, forKey: ByteKey(3))
        }
    }

    /// A key with an associated value, one byte in all: `.letter(true)` is "a", `.letter(false)` "b", `.other` "c".
    enum PayloadKey: CodingKey, Equatable {
        case letter(Bool)
        case other
        var stringValue: String {
            switch self {
            case .letter(let first): return first ? "a" : "b"
            case .other: return "c"
            }
        }
        init?(stringValue: String) {
            switch stringValue {
            case "a": self = .letter(true)
            case "b": self = .letter(false)
            case "c": self = .other
            default: return nil
            }
        }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    struct PayloadKeyed: Decodable, Equatable {
        var a: Int64
        var b: String
        var c: Int?
        init(a: Int64, b: String, c: Int?) { (self.a, self.b, self.c) = (a, b, c) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PayloadKey.self)
            c = try container.decodeIfPresent(Int.self, forKey: .other)
            a = try container.decode(Int64.self, forKey: .letter(true))
            b = try container.decode(String.self, forKey: .letter(false))
        }
    }

    /// A key of any string, as `AnyCodingKey` types are written: several words, so no key table.
    struct AnyKey: CodingKey {
        var stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    struct AnyKeyed: Decodable, Equatable {
        var values: [String: String]
        init(values: [String: String]) { self.values = values }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var values: [String: String] = [:]
            for key in container.allKeys.reversed() {
                values[key.stringValue] = try container.decodeIfPresent(String.self, forKey: key)
                    ?? container.decodeIfPresent(Int64.self, forKey: key).map(String.init)
            }
            self.values = values
        }
    }

    func testKeysOfOtherTypesThanAStringEnumReadTheirOwnColumnsOnEveryRow() throws {
        let rows = try connection.query(lettersSQL)
        XCTAssertEqual(
            try rows.decode(IntKeyed.self),
            [IntKeyed(a: 1, b: "one", c: 10), IntKeyed(a: 2, b: "two", c: 20), IntKeyed(a: 3, b: "three", c: nil)])
        XCTAssertEqual(
            try rows.decode(ByteKeyed.self),
            [
                ByteKeyed(a: 1, b: "one", c: 10, zz: nil), ByteKeyed(a: 2, b: "two", c: 20, zz: nil),
                ByteKeyed(a: 3, b: "three", c: nil, zz: nil),
            ])
        XCTAssertEqual(
            try rows.decode(PayloadKeyed.self),
            [
                PayloadKeyed(a: 1, b: "one", c: 10), PayloadKeyed(a: 2, b: "two", c: 20),
                PayloadKeyed(a: 3, b: "three", c: nil),
            ])
        XCTAssertEqual(
            try rows.decode(AnyKeyed.self).map(\.values),
            [["a": "1", "b": "one", "c": "10"], ["a": "2", "b": "two", "c": "20"], ["a": "3", "b": "three"]])
        // The same rows one by one, and again in the first order: the tables each key type made stay its own.
        XCTAssertEqual(try rows[2].decode(PayloadKeyed.self), PayloadKeyed(a: 3, b: "three", c: nil))
        XCTAssertEqual(try rows[1].decode(ByteKeyed.self), ByteKeyed(a: 2, b: "two", c: 20, zz: nil))
        XCTAssertEqual(try rows[0].decode(IntKeyed.self), IntKeyed(a: 1, b: "one", c: 10))
    }

    /// One type's `init(from:)` decodes another from the same decoder: both key types on every row.
    struct Inner: Decodable, Equatable {
        var b: String
        var c: Int?
    }

    struct Outer: Decodable, Equatable {
        var a: Int64
        var inner: Inner
        var again: Inner
        enum CodingKeys: String, CodingKey { case a }
        init(a: Int64, inner: Inner) { (self.a, self.inner, self.again) = (a, inner, inner) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inner = try Inner(from: decoder)
            a = try container.decode(Int64.self, forKey: .a)
            again = try Inner(from: try container.superDecoder())
        }
    }

    func testATypeThatDecodesAnotherFromItsDecoderReadsBothOnEveryRow() throws {
        let rows = try connection.query(lettersSQL)
        let expected = [
            Outer(a: 1, inner: Inner(b: "one", c: 10)), Outer(a: 2, inner: Inner(b: "two", c: 20)),
            Outer(a: 3, inner: Inner(b: "three", c: nil)),
        ]
        XCTAssertEqual(try rows.decode(Outer.self), expected)
        XCTAssertEqual(try (0..<3).map { try rows[$0].decode(Outer.self) }, expected)
        XCTAssertEqual(try rows.decode(Inner.self).map(\.b), ["one", "two", "three"])
    }

    /// A class hierarchy decoding its base class through `superDecoder()`.
    class Base: Decodable {
        let a: Int64
        enum CodingKeys: String, CodingKey { case a }
        required init(from decoder: any Decoder) throws {
            a = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .a)
        }
    }

    final class Derived: Base {
        let b: String
        enum DerivedKeys: String, CodingKey { case b }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DerivedKeys.self)
            b = try container.decode(String.self, forKey: .b)
            try super.init(from: container.superDecoder())
        }
    }

    func testASubclassDecodingItsBaseThroughSuperDecoderReadsEveryRow() throws {
        let rows = try connection.query(lettersSQL)
        let derived = try rows.decode(Derived.self)
        XCTAssertEqual(derived.map(\.a), [1, 2, 3])
        XCTAssertEqual(derived.map(\.b), ["one", "two", "three"])
    }

    /// A record that keeps its decoder, fetched by id one after the other with a struct of the same table
    /// (one SQL text, one column layout, whose decoding a lookup by id keeps).
    struct Plain: Record, Equatable {
        var id: Int64?
        var name: String
        static let tableName = "keepers"
    }

    final class KeptDecoder: Record {
        var id: Int64?
        var name: String
        let decoder: (any Decoder)?
        static let tableName = "keepers"
        enum CodingKeys: String, CodingKey { case id, name }
        init(name: String) {
            self.name = name
            decoder = nil
        }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(Int64.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            self.decoder = decoder
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(name, forKey: .name)
        }
        func keptName() throws -> String {
            try XCTUnwrap(decoder).container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }
    }

    func testADecoderKeptByALookupByIdStillReadsItsRowAfterOtherLookups() throws {
        try Plain.createTable(in: connection)
        for name in ["ada", "bob", "cy"] {
            var plain = Plain(id: nil, name: name)
            try plain.insert(connection)
        }
        XCTAssertEqual(try Plain.fetchOne(connection, id: 1)?.name, "ada")
        let first = try XCTUnwrap(KeptDecoder.fetchOne(connection, id: 2))
        XCTAssertEqual(try Plain.fetchOne(connection, id: 3)?.name, "cy")
        let second = try XCTUnwrap(KeptDecoder.fetchOne(connection, id: 1))
        XCTAssertEqual(try Plain.fetchOne(connection, id: 3)?.name, "cy")
        XCTAssertEqual(try first.keptName(), "bob")
        XCTAssertEqual(try second.keptName(), "ada")
        XCTAssertEqual(try KeptDecoder.fetch(connection).map { try $0.keptName() }, ["ada", "bob", "cy"])
    }

    /// Decoders kept by the rows of `where:` fetches read those rows after later fetches of the same SQL
    /// text, whose decoding the connection keeps between calls (moved off their rows).
    func testDecodersKeptByWhereFetchesReadTheirRowsAfterLaterFetchesOfTheSameText() throws {
        try Plain.createTable(in: connection)
        for name in ["ada", "bob", "bob", "cy"] {
            var plain = Plain(id: nil, name: name)
            try plain.insert(connection)
        }
        let bobs = try KeptDecoder.fetch(connection, where: ["name": "bob"], orderBy: [.ascending("id")])
        XCTAssertEqual(try Plain.fetch(connection, where: ["name": "cy"]).map(\.id), [4])
        let ada = try KeptDecoder.fetch(connection, where: ["name": "ada"], orderBy: [.ascending("id")])
        XCTAssertEqual(try KeptDecoder.fetch(connection, where: ["name": "cy"], orderBy: [.ascending("id")]).count, 1)
        XCTAssertEqual(try bobs.map { try $0.keptName() }, ["bob", "bob"])
        XCTAssertEqual(bobs.map(\.id), [2, 3])
        XCTAssertEqual(try ada.map { try $0.keptName() }, ["ada"])
    }

    /// A result's layout that no connection keeps goes away with its rows once they are decoded, every row
    /// and one, though it keeps their decoding for its next result: the kept decoding holds no reference back
    /// to it.
    func testALayoutNoConnectionKeepsIsFreedAfterItsRowsAreDecoded() throws {
        weak var freed: PostgresColumnLayout?
        try {
            let layout = PostgresColumnLayout(names: ["a", "b", "c"])
            let values = [PostgresValue(Int64(7)), try PostgresValue(text: "seven"), PostgresValue(Int64(70))]
            var parameters = PostgresParameters()
            for value in values { parameters.append(value) }
            let rows = PostgresRows(
                result: try PostgresResult.row(nameBytes: layout.nameBytes, parameters), sql: "SELECT 7",
                layout: layout)
            XCTAssertEqual(try rows.decode(IntKeyed.self), [IntKeyed(a: 7, b: "seven", c: 70)])
            XCTAssertEqual(try rows[0].decode(IntKeyed.self), IntKeyed(a: 7, b: "seven", c: 70))
            freed = layout
        }()
        XCTAssertNil(freed)
    }

    /// Raw SQL: NULL in every typed column, integers of every width into `Int`, dates of both timestamp types
    /// far from now, an empty string, a column named twice, no row, no column.
    struct Typed: Decodable, Equatable {
        var i2: Int?
        var i4: Int?
        var i8: Int?
        var f: Double?
        var flag: Bool?
        var at: Date?
        var atz: Date?
        var s: String?
        var missing: String?
    }

    func testRawSQLReadsNullsWidthsFarDatesAndEmptyStrings() throws {
        let rows = try connection.query(
            """
            SELECT * FROM (VALUES
              ((-32768)::int2, (-2147483648)::int4, (-9223372036854775808)::int8, -0.0::float8, false,
               '0001-01-01 00:00:00'::timestamp, '9999-12-31 23:59:59.999999+00'::timestamptz, ''::text),
              (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              (32767, 2147483647, 9223372036854775807, 1e308, true, '1969-12-31 23:59:59.5',
               '2000-01-01 00:00:00+00', 'x')
            ) AS t(i2, i4, i8, f, flag, at, atz, s)
            """)
        let typed = try rows.decode(Typed.self)
        XCTAssertEqual(typed.map(\.i2), [-32768, nil, 32767])
        XCTAssertEqual(typed.map(\.i4), [-2_147_483_648, nil, 2_147_483_647])
        XCTAssertEqual(typed.map(\.i8), [Int.min, nil, Int.max])
        XCTAssertEqual(typed.map(\.flag), [false, nil, true])
        XCTAssertEqual(typed.map(\.s), ["", nil, "x"])
        XCTAssertEqual(typed.map(\.missing), [nil, nil, nil])
        XCTAssertEqual(
            typed.map { $0.at?.timeIntervalSince1970 }, [-62_135_596_800, nil, -0.5])
        XCTAssertEqual(
            typed.map { $0.atz?.timeIntervalSince1970 }, [253_402_300_799.999999, nil, 946_684_800])
        XCTAssertEqual(typed[0].f?.sign, .minus)

        let twice = try connection.query("SELECT 1::bigint AS a, 'x'::text AS b, 2::bigint AS a")
        XCTAssertEqual(try twice.decode(IntKeyed.self), [IntKeyed(a: 1, b: "x", c: nil)])
        XCTAssertEqual(try twice[0].decode(IntKeyed.self), IntKeyed(a: 1, b: "x", c: nil))

        XCTAssertEqual(try connection.query("SELECT 1::bigint AS a WHERE false").decode(IntKeyed.self), [])
        let noColumns = try connection.query("SELECT FROM (VALUES (1), (2)) AS t(x)")
        XCTAssertEqual(noColumns.count, 2)
        XCTAssertEqual(try noColumns.decode(Typed.self).map(\.s), [nil, nil])
        XCTAssertThrowsError(try noColumns.decode(IntKeyed.self)) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "b")
            XCTAssertEqual(context.debugDescription, "No column \"b\" in the row; it has ")
        }
    }

    func testATenMegabyteTextReadsWhole() throws {
        let big = String(repeating: "abcdefghij", count: 1_000_000)
        let rows = try connection.query("SELECT repeat('abcdefghij', 1000000) AS s, 1::int2 AS i2")
        let typed = try rows[0].decode(Typed.self)
        XCTAssertEqual(typed.s?.utf8.count, 10_000_000)
        XCTAssertEqual(typed.s, big)
        XCTAssertEqual(typed.i2, 1)
    }

    /// Keeps its keyed container (boxed on the first row, of a key type of one byte) or, for an any-string key
    /// type, a container no box holds.
    final class ContainerKeeper: Decodable {
        enum CodingKeys: String, CodingKey { case a, b }
        let container: KeyedDecodingContainer<CodingKeys>
        let anyContainer: KeyedDecodingContainer<AnyKey>
        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: CodingKeys.self)
            anyContainer = try decoder.container(keyedBy: AnyKey.self)
        }
        func values() throws -> String {
            "\(try container.decode(Int64.self, forKey: .a)) \(try container.decode(String.self, forKey: .b)) "
                + (try anyContainer.decode(String.self, forKey: AnyKey("b")))
        }
    }

    /// Containers kept past the rows whose result nobody else holds any more, read after other queries ran on
    /// the connection (one of them the same SQL text, whose layout the kept containers' reader shares).
    func testContainersKeptPastAResultNobodyHoldsReadTheirRowsAfterOtherQueries() throws {
        let keepers = try connection.query(lettersSQL).decode(ContainerKeeper.self)
        let one = try connection.query(lettersSQL + " WHERE a = 2")[0].decode(ContainerKeeper.self)
        XCTAssertEqual(try connection.query(lettersSQL).decode(Inner.self).map(\.b), ["one", "two", "three"])
        XCTAssertEqual(try connection.query("SELECT 5::bigint AS a, 'five' AS b").decode(ContainerKeeper.self).count, 1)
        XCTAssertEqual(try keepers.map { try $0.values() }, ["1 one one", "2 two two", "3 three three"])
        XCTAssertEqual(try one.values(), "2 two two")
    }
}
#endif
