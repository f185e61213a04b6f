#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// The row decoder's column lookup (made for a result's first row, reused for the others), its in-place reads
/// of the common types, and the record encoder's parameter slots.
final class PostgresRowDecoderTests: PostgresTestCase {
    struct Town: Record, Equatable {
        var id: Int64?
        var name: String
        var population: Int
        var area: Double
        var isCapital: Bool
        var foundedAt: Date
        var motto: String?
        static let tableName = "towns"
        enum CodingKeys: String, CodingKey {
            case id, name, population, area, motto
            case isCapital = "is_capital"
            case foundedAt = "founded_at"
        }
    }

    /// Reads its keys in an order that depends on the row: a lookup learnt on the first row must not give
    /// a later row another key's column.
    struct Shuffled: Decodable, Equatable {
        var a: Int64
        var b: String
        var c: Int64
        enum CodingKeys: String, CodingKey { case a, b, c }
        init(a: Int64, b: String, c: Int64) {
            self.a = a
            self.b = b
            self.c = c
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let c = try container.decode(Int64.self, forKey: .c)
            if c % 2 == 0 {
                a = try container.decode(Int64.self, forKey: .a)
                b = try container.decode(String.self, forKey: .b)
            } else {
                b = try container.decode(String.self, forKey: .b)
                a = try container.decode(Int64.self, forKey: .a)
            }
            self.c = c
        }
    }

    struct OnlyB: Decodable, Equatable {
        var b: String
    }

    /// Writes its keys in the reverse of the properties' order, one of them only when set.
    struct Reversed: Record, Equatable {
        var id: Int64?
        var first: String
        var second: Int64
        var third: Double?
        static let tableName = "reversed"
        enum CodingKeys: String, CodingKey { case id, first, second, third }
        init(id: Int64?, first: String, second: Int64, third: Double?) {
            self.id = id
            self.first = first
            self.second = second
            self.third = third
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(Int64.self, forKey: .id)
            first = try container.decode(String.self, forKey: .first)
            second = try container.decode(Int64.self, forKey: .second)
            third = try container.decodeIfPresent(Double.self, forKey: .third)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(third, forKey: .third)
            try container.encode(second, forKey: .second)
            try container.encode(first, forKey: .first)
            try container.encodeIfPresent(id, forKey: .id)
        }
    }

    private func makeTowns() throws {
        try Town.createTable(in: connection)
        for (index, name) in ["Lyon", "Nice", "Brest"].enumerated() {
            var town = Town(
                id: nil, name: name, population: 100_000 * (index + 1), area: 47.87 + Double(index), isCapital: index == 1,
                foundedAt: Date(timeIntervalSince1970: 1_000_000_000.25 + Double(index)),
                motto: index == 0 ? nil : "motto \(index)")
            try town.insert(connection)
        }
    }

    func testColumnsInAnotherOrderThanTheKeysReadEveryRow() throws {
        try makeTowns()
        let towns = try Town.fetch(
            connection,
            sql: "SELECT motto, founded_at, is_capital, area, population, name, id FROM towns ORDER BY id")
        XCTAssertEqual(towns.map(\.name), ["Lyon", "Nice", "Brest"])
        XCTAssertEqual(towns.map(\.id), [1, 2, 3])
        XCTAssertEqual(towns.map(\.population), [100_000, 200_000, 300_000])
        XCTAssertEqual(towns.map(\.area), [47.87, 48.87, 49.87])
        XCTAssertEqual(towns.map(\.isCapital), [false, true, false])
        XCTAssertEqual(towns.map(\.motto), [nil, "motto 1", "motto 2"])
        XCTAssertEqual(towns.map(\.foundedAt.timeIntervalSince1970), [1_000_000_000.25, 1_000_000_001.25, 1_000_000_002.25])
        XCTAssertEqual(try Town.fetch(connection), towns)
    }

    func testAKeyOrderThatChangesFromRowToRowReadsTheRightColumns() throws {
        let rows = try connection.query(
            "SELECT * FROM (VALUES (1::bigint, 'one', 2::bigint), (3, 'three', 5), (4, 'four', 6), (7, 'seven', 7)) AS t(a, b, c)")
        XCTAssertEqual(
            try rows.decode(Shuffled.self),
            [
                Shuffled(a: 1, b: "one", c: 2), Shuffled(a: 3, b: "three", c: 5), Shuffled(a: 4, b: "four", c: 6),
                Shuffled(a: 7, b: "seven", c: 7),
            ])
        // The same rows as another type, whose keys have another key type.
        XCTAssertEqual(try rows.decode(OnlyB.self).map(\.b), ["one", "three", "four", "seven"])
        XCTAssertEqual(try rows[2].decode(Int64.self, column: "C"), 6)
    }

    /// The same SQL text, run unnamed, returns other columns once another session altered the table: the
    /// layout kept from its earlier results (their names and key order) must not read the new ones.
    func testTheSameSQLAfterAnotherSessionReorderedItsColumnsReadsTheNewColumns() throws {
        let unnamed = try PostgresConnection(configuration: configuration(namedStatements: false))
        try unnamed.execute("CREATE TABLE letters (a bigint, b text, c bigint)")
        try unnamed.execute("INSERT INTO letters VALUES (1, 'one', 2), (4, 'four', 6)")
        let sql = "SELECT * FROM letters ORDER BY c"
        let expected = [Shuffled(a: 1, b: "one", c: 2), Shuffled(a: 4, b: "four", c: 6)]
        XCTAssertEqual(try unnamed.query(sql).decode(Shuffled.self), expected)
        XCTAssertEqual(try unnamed.query(sql).decode(Shuffled.self), expected)
        // Column a moves to the end: `SELECT *` now gives b, c, a.
        try connection.execute(
            """
            ALTER TABLE letters ADD COLUMN moved bigint; UPDATE letters SET moved = a;
            ALTER TABLE letters DROP COLUMN a; ALTER TABLE letters RENAME COLUMN moved TO a
            """)
        let rows = try unnamed.query(sql)
        XCTAssertEqual(rows.columnNames, ["b", "c", "a"])
        XCTAssertEqual(try rows.decode(Shuffled.self), expected)
    }

    func testAMissingColumnNamesItAndTheRowsColumnsOnEveryRow() throws {
        try makeTowns()
        let rows = try connection.query("SELECT id, name FROM towns ORDER BY id")
        for index in 0..<rows.count {
            XCTAssertThrowsError(try rows[index].decode(Town.self)) { error in
                guard case DecodingError.keyNotFound(let key, let context) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(key.stringValue, "population")
                XCTAssertEqual(context.debugDescription, "No column \"population\" in the row; it has \"id\", \"name\"")
            }
        }
    }

    func testValuesTheInPlaceReadsLeaveGiveTheValueTablesErrors() throws {
        struct Numbers: Decodable {
            var count: Int
            var flag: Bool
        }
        let rows = try connection.query(
            "SELECT * FROM (VALUES (12::int4, true), (NULL, false), (12.5::numeric, true), (7, NULL)) AS t(count, flag)")
        let first = try rows[0].decode(Numbers.self)
        XCTAssertEqual(first.count, 12)
        XCTAssertEqual(first.flag, true)
        XCTAssertThrowsError(try rows[1].decode(Numbers.self)) { error in
            guard case DecodingError.valueNotFound(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "Expected Int but column \"count\" is NULL")
        }
        let text = try connection.query("SELECT 'abc'::text AS count, 1::int8 AS flag")
        XCTAssertThrowsError(try text[0].decode(Numbers.self)) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "Expected Int but column \"count\" holds TEXT 'abc'")
        }
        let fraction = try connection.query("SELECT 12.5::numeric AS count, true AS flag")
        XCTAssertThrowsError(try fraction[0].decode(Numbers.self)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(
                context.debugDescription, "Expected Int but column \"count\" holds NUMERIC 12.5, which has a fractional part")
        }
        let integerFlag = try connection.query("SELECT 1::int4 AS count, 2::int8 AS flag")
        XCTAssertThrowsError(try integerFlag[0].decode(Numbers.self)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "Expected Bool but column \"flag\" holds BIGINT 2, neither 0 nor 1")
        }
    }

    func testKeysWrittenInAnotherOrderGoToTheirColumns() throws {
        try Reversed.createTable(in: connection)
        var full = Reversed(id: nil, first: "a", second: 2, third: 3.5)
        try full.insert(connection)
        var partial = Reversed(id: nil, first: "b", second: 4, third: nil)
        try partial.insert(connection)
        var records = [Reversed(id: nil, first: "c", second: 6, third: 7.25), Reversed(id: nil, first: "d", second: 8, third: nil)]
        try Reversed.insertAll(connection, &records)
        XCTAssertEqual(
            try text("SELECT string_agg(concat_ws(',', id, first, second, coalesce(third::text, 'NULL')), ' ' ORDER BY id) FROM reversed"),
            "1,a,2,3.5 2,b,4,NULL 3,c,6,7.25 4,d,8,NULL")
        full.third = nil
        full.first = "z"
        try full.update(connection)
        XCTAssertEqual(try text("SELECT concat_ws(',', first, coalesce(third::text, 'NULL')) FROM reversed WHERE id = 1"), "z,NULL")
        XCTAssertEqual(try Reversed.fetchOne(connection, id: 1), full)
    }

    func testATextWithANulCharacterNamesItsKey() throws {
        try Town.createTable(in: connection)
        var town = Town(
            id: nil, name: "Ly\u{0}on", population: 1, area: 1, isCapital: false, foundedAt: Date(timeIntervalSince1970: 0),
            motto: nil)
        XCTAssertThrowsError(try town.insert(connection)) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["name"])
            XCTAssertEqual(
                context.debugDescription,
                "column \"name\" of table \"towns\": PostgreSQL text cannot hold a NUL character (U+0000)")
        }
        XCTAssertEqual(try text("SELECT count(*)::text FROM towns"), "0")
    }

    /// Keeps its keyed container, or its decoder, and reads through it only after the fetch.
    final class Keeper: Decodable {
        enum CodingKeys: String, CodingKey { case a, b }
        let container: KeyedDecodingContainer<CodingKeys>?
        let decoder: (any Decoder)?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if try container.decode(Int64.self, forKey: .a) % 2 == 0 {
                self.container = nil
                self.decoder = decoder
            } else {
                self.container = container
                self.decoder = nil
            }
        }
        func values() throws -> String {
            let container = try self.container ?? XCTUnwrap(decoder).container(keyedBy: CodingKeys.self)
            return "\(try container.decode(Int64.self, forKey: .a)) \(try container.decode(String.self, forKey: .b))"
        }
    }

    func testAContainerOrDecoderKeptPastItsRowStillReadsItsRow() throws {
        let rows = try connection.query(
            "SELECT * FROM (VALUES (1::bigint, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five')) AS t(a, b)")
        let keepers = try rows.decode(Keeper.self)
        XCTAssertEqual(try keepers.map { try $0.values() }, ["1 one", "2 two", "3 three", "4 four", "5 five"])
        XCTAssertEqual(try rows.decode(OnlyB.self).map(\.b), ["one", "two", "three", "four", "five"])
    }

    func testRowsDecodedOutOfOrderThroughOneDecoderReadTheirOwnRows() throws {
        let rows = try connection.query(
            "SELECT * FROM (VALUES (1::bigint, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five')) AS t(a, b)")
        var decoder = PostgresRowsDecoder(rows, columnNames: nil, jsonDecoder: JSONDecoder())
        let keepers = try [4, 0, 3, 2].map { try decoder.decode(Keeper.self, row: $0) }
        XCTAssertEqual(try keepers.map { try $0.values() }, ["5 five", "1 one", "4 four", "3 three"])
        XCTAssertEqual(try [1, 4].map { try decoder.decode(OnlyB.self, row: $0).b }, ["two", "five"])
    }
}
#endif
