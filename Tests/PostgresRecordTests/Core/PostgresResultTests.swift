#if PostgreSQL
import Foundation
import PostgresRecord
import XCTest

/// Values read from a server's binary results, whose size is the server's to choose.
final class PostgresResultTests: PostgresTestCase {
    struct Thirds: Decodable {
        var c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12: String
    }

    /// `numeric` of the largest display scale PostgreSQL keeps (16,383 figures after the point), twelve
    /// columns of it: each text is built in time linear in its figures. Building it counted the fraction's
    /// characters at every base-10000 digit appended (about 34 million steps for one such value): this row
    /// took 2 to 3 s, and a fuzzer's row of such values over 10 s.
    func testNumericsOfTheLargestDisplayScaleReadInLinearTime() throws {
        let columns = (1...12).map { "('0.' || repeat('3', 16383))::numeric AS c\($0)" }
        let rows = try connection.query("SELECT " + columns.joined(separator: ", "))
        let start = Date()
        let thirds = try rows[0].decode(Thirds.self)
        let seconds = Date().timeIntervalSince(start)
        let third = "0." + String(repeating: "3", count: 16_383)
        XCTAssertEqual(thirds.c1, third)
        XCTAssertEqual(thirds.c12, third)
        XCTAssertLessThan(seconds, 0.5)
    }

    /// The text of a `numeric` is the server's own: its sign, every figure of its weight and its scale.
    func testNumericTextIsTheServers() throws {
        let values = [
            "-12.3400", "0.00012", "100000000.5", "0.000", "0", "-0.5", "99990000", "12345678901234567890.0001",
            "0.1000000000000000000000000000000000000001",
        ]
        let sql = "SELECT " + values.enumerated().map { "'\($1)'::numeric AS c\($0)" }.joined(separator: ", ")
        let rows = try connection.query(sql)
        let texts = try values.indices.map { try rows[0].decode(String.self, at: $0) }
        XCTAssertEqual(texts, values)
        XCTAssertEqual(try connection.query("SELECT '-0.00'::numeric")[0].decode(String.self, at: 0), "0.00")
    }
}
#endif
