#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The ends of the value table: Decimals of every digit Foundation's Decimal holds, and dates at the ends of
/// TIMESTAMPTZ's range, each saved and read back with plain SQL.
final class PostgresValueRangeTests: PostgresTestCase {
    struct Amount: Record, Equatable {
        var id: Int64?
        var value: Decimal
        static let tableName = "amounts"
    }

    struct Event: Record, Equatable {
        var id: Int64?
        var moment: Date
        static let tableName = "events"
    }

    /// 2^128 - 1: the largest mantissa a Decimal holds, 39 digits.
    private static let largestMantissa = "340282366920938463463374607431768211455"

    func testDecimalsOfEveryDigitDecimalHoldsReadBackExactly() throws {
        try Amount.createTable(in: connection)
        let mantissa = try XCTUnwrap(Decimal(string: Self.largestMantissa))
        let values = [
            mantissa,
            try XCTUnwrap(Decimal(string: "12345678901234567890123456789012345678.9")),
            try XCTUnwrap(Decimal(string: "-1234567890123456789012345678901234567890")),
            try XCTUnwrap(Decimal(string: "-0.000000000000000000000000000000000000000000000001234")),
            Decimal(sign: .plus, exponent: 127, significand: mantissa),
            Decimal(sign: .minus, exponent: -128, significand: mantissa),
        ]
        var records = values.map { Amount(id: nil, value: $0) }
        try Amount.insertAll(connection, &records)
        let texts = [
            Self.largestMantissa,
            "12345678901234567890123456789012345678.9",
            "-1234567890123456789012345678901234567890",
            "-0.000000000000000000000000000000000000000000000001234",
            Self.largestMantissa + String(repeating: "0", count: 127),
            "-0." + String(repeating: "0", count: 89) + Self.largestMantissa,
        ]
        XCTAssertEqual(values.map(\.description), texts)
        XCTAssertEqual(try connection.query("SELECT value::text FROM amounts ORDER BY id").decode(String.self), texts)
        let read = try Amount.fetch(connection, orderBy: [.ascending("id")])
        XCTAssertEqual(read, records)
        XCTAssertEqual(read.map(\.value.description), texts)
    }

    func testANumericWithMoreDigitsThanDecimalHoldsIsAnError() throws {
        try connection.execute(
            """
            CREATE TABLE amounts (id BIGINT PRIMARY KEY, value NUMERIC NOT NULL);
            INSERT INTO amounts VALUES (1, 340282366920938463463374607431768211456),
                (2, 1234567890123456789012345678901234567891), (3, -0.1234567890123456789012345678901234567891)
            """)
        let rows = try connection.query("SELECT value FROM amounts ORDER BY id")
        let stored = [
            "340282366920938463463374607431768211456", "1234567890123456789012345678901234567891",
            "-0.1234567890123456789012345678901234567891",
        ]
        for (index, text) in stored.enumerated() {
            XCTAssertThrowsError(try rows[index].decode(Decimal.self, column: "value")) { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(
                    context.debugDescription,
                    "Expected Decimal but column \"value\" holds NUMERIC \(text), more significant digits than "
                        + "Decimal holds (a mantissa below 2^128)")
            }
        }
        XCTAssertThrowsError(try Amount.fetchOne(connection, id: 2)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["value"])
        }
    }

    func testDatesAtTheEndsOfTimestamptzAreStored() throws {
        try Event.createTable(in: connection)
        // 4714-11-24 00:00:00 UTC BC (PostgreSQL's first instant) and 294276-12-31 00:00:00 UTC.
        var records = [
            Event(id: nil, moment: Date(timeIntervalSince1970: -210_866_803_200)),
            Event(id: nil, moment: Date(timeIntervalSince1970: 9_224_317_929_600)),
        ]
        try Event.insertAll(connection, &records)
        XCTAssertEqual(
            try connection.query("SELECT moment::text FROM events ORDER BY id").decode(String.self),
            ["4714-11-24 00:00:00+00 BC", "294276-12-31 00:00:00+00"])
        XCTAssertEqual(
            try connection.query("SELECT extract(epoch FROM moment)::bigint FROM events ORDER BY id")
                .decode(Int64.self),
            [-210_866_803_200, 9_224_317_929_600])
        XCTAssertEqual(try Event.fetch(connection, orderBy: [.ascending("id")]), records)
    }

    func testADateBeyondTimestamptzIsAnErrorNamingTheTableColumnAndValue() throws {
        try Event.createTable(in: connection)
        // 294277-01-01 00:00:00 UTC, the first instant after the range, and one second before its start.
        for (seconds, text) in [(9_224_318_016_000.0, "9224318016000.0"), (-210_866_803_201.0, "-210866803201.0")] {
            var event = Event(id: nil, moment: Date(timeIntervalSince1970: seconds))
            let message =
                "column \"moment\" of table \"events\": the date \(text) (unix seconds) is beyond TIMESTAMPTZ's range, "
                + "4713 BC to 294276 AD"
            XCTAssertThrowsError(try event.insert(connection)) { error in
                guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(context.codingPath.map(\.stringValue), ["moment"])
                XCTAssertEqual(context.debugDescription, message)
            }
            var batch = [Event(id: nil, moment: Date(timeIntervalSince1970: 0)), event]
            XCTAssertThrowsError(try Event.insertAll(connection, &batch)) { error in
                guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(context.debugDescription, message)
            }
            XCTAssertEqual(batch.map(\.id), [nil, nil])
            // A filter value is refused as a filter's, on both engines: the table, the column, the type, why.
            XCTAssertThrowsError(try Event.fetch(connection, where: ["moment": event.moment])) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .invalidQueryValue(
                        table: "events", column: "moment", type: "Date",
                        reason: "the date \(text) (unix seconds) is beyond TIMESTAMPTZ's range, 4713 BC to 294276 AD"))
            }
            XCTAssertThrowsError(try PostgresValue(event.moment)) { error in
                guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(try text("SELECT count(*)::text FROM events"), "0")
    }
}
#endif
