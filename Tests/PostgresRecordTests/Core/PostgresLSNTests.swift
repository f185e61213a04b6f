#if PostgreSQL
import PostgresRecord
import XCTest

final class PostgresLSNTests: XCTestCase {
    func testTheServersTextReadsAsOneNumberAndWritesBackTheSame() throws {
        let position = try XCTUnwrap(PostgresLSN("16/B374D848"))
        XCTAssertEqual(position.rawValue, 0x16_B374_D848)
        XCTAssertEqual(position.description, "16/B374D848")
        XCTAssertEqual(PostgresLSN("0/0")?.rawValue, 0)
        XCTAssertEqual(PostgresLSN("ffffffff/ffffffff")?.rawValue, UInt64.max)
        XCTAssertEqual(PostgresLSN(rawValue: 0x1_0000_0001).description, "1/1")
    }

    func testOtherTextIsNoPosition() {
        for text in ["", "0", "/0", "0/", "1/2/3", "G/0", "+1/0", "-1/0", " 1/0", "123456789/0", "0/123456789"] {
            XCTAssertNil(PostgresLSN(text), text)
        }
    }

    func testPositionsOrderAsTheLogDoesAcrossTheHalves() throws {
        let early = try XCTUnwrap(PostgresLSN("0/FFFFFFFF"))
        let late = try XCTUnwrap(PostgresLSN("1/0"))
        XCTAssertLessThan(early, late)
        XCTAssertEqual(late.rawValue - early.rawValue, 1)
    }
}
#endif
