import Foundation
import XCTest

@testable import SQLiteRecord

/// Expected values come from Python's proleptic Gregorian `datetime` and, where marked, from SQLite's own
/// date functions run on a fresh in-memory database: the format exists to agree with them.
final class SQLiteDateFormatTests: XCTestCase {
    private func string(_ seconds: Double) -> String? {
        SQLiteDateFormat.string(from: Date(timeIntervalSince1970: seconds))
    }

    private func seconds(_ text: String) -> Double? {
        SQLiteDateFormat.date(from: text)?.timeIntervalSince1970
    }

    /// What SQLite's `strftime` returns for `sql` with one bound argument.
    private func sqliteText(_ db: Database, _ sql: String, _ argument: SQLiteValue) throws -> String? {
        let statement = try db.makeStatement(sql: sql)
        try statement.bind([argument])
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.string(at: 0)
    }

    // MARK: Printing

    func testPrintsUTCWithMilliseconds() {
        XCTAssertEqual(string(0), "1970-01-01 00:00:00.000")
        XCTAssertEqual(string(1_615_734_566), "2021-03-14 15:09:26.000")
        XCTAssertEqual(string(1_615_734_566.535), "2021-03-14 15:09:26.535")
        XCTAssertEqual(string(1_615_680_000), "2021-03-14 00:00:00.000")
        XCTAssertEqual(string(86_399.999), "1970-01-01 23:59:59.999")
        XCTAssertEqual(string(1_709_164_800), "2024-02-29 00:00:00.000")
    }

    func testRoundsToTheNearestMillisecond() {
        XCTAssertEqual(string(0.0004), "1970-01-01 00:00:00.000")
        XCTAssertEqual(string(0.0006), "1970-01-01 00:00:00.001")
        XCTAssertEqual(string(59.9996), "1970-01-01 00:01:00.000")
        XCTAssertEqual(string(-0.0004), "1970-01-01 00:00:00.000")
        XCTAssertEqual(string(-0.0006), "1969-12-31 23:59:59.999")
    }

    func testDatesBefore1970() {
        XCTAssertEqual(string(-0.001), "1969-12-31 23:59:59.999")
        XCTAssertEqual(string(-1), "1969-12-31 23:59:59.000")
        XCTAssertEqual(string(-86_400), "1969-12-31 00:00:00.000")
        XCTAssertEqual(string(-86_400.5), "1969-12-30 23:59:59.500")
        XCTAssertEqual(string(-14_182_940), "1969-07-20 20:17:40.000")
        XCTAssertEqual(string(-2_208_988_801), "1899-12-31 23:59:59.000")
        XCTAssertEqual(string(-4_861_728_000), "1815-12-10 00:00:00.000")
    }

    func testLeapYears() {
        // 2000 is a leap year (divisible by 400).
        XCTAssertEqual(string(951_782_400), "2000-02-29 00:00:00.000")
        XCTAssertEqual(string(951_782_399.999), "2000-02-28 23:59:59.999")
        XCTAssertEqual(string(951_868_800), "2000-03-01 00:00:00.000")
        // 1900 is not (divisible by 100, not by 400): February 28 is followed by March 1.
        XCTAssertEqual(string(-2_203_977_600), "1900-02-28 00:00:00.000")
        XCTAssertEqual(string(-2_203_891_200), "1900-03-01 00:00:00.000")
        XCTAssertEqual(string(-2_203_891_200.001), "1900-02-28 23:59:59.999")
        // 1600 is, 2100 is not.
        XCTAssertEqual(string(-11_670_998_400), "1600-02-29 00:00:00.000")
        XCTAssertEqual(string(-11_670_912_000), "1600-03-01 00:00:00.000")
        XCTAssertEqual(string(4_107_542_400), "2100-03-01 00:00:00.000")
        XCTAssertEqual(string(4_107_542_400 - 86_400), "2100-02-28 00:00:00.000")
    }

    func testYearsZeroToNineThousandNineHundredNinetyNine() {
        XCTAssertEqual(string(-62_167_219_200), "0000-01-01 00:00:00.000")
        XCTAssertEqual(string(253_402_300_799.999), "9999-12-31 23:59:59.999")
        XCTAssertEqual(string(253_402_300_799), "9999-12-31 23:59:59.000")
    }

    func testYear10000AndBeforeYearZeroAreNil() {
        XCTAssertNil(string(253_402_300_800))
        XCTAssertNil(string(253_402_300_799.9996), "rounds up into year 10000")
        XCTAssertNil(string(1e15))
        XCTAssertNil(string(-62_167_219_200.001))
        XCTAssertNil(string(-1e15))
        XCTAssertNil(string(.infinity))
        XCTAssertNil(string(-.infinity))
    }

    func testPrintingAgreesWithSQLiteStrftime() throws {
        let db = try Database()
        let timestamps: [Double] = [
            0, -0.001, 0.001, 1, -1, 1_615_734_566.535, 1_615_734_566, -14_182_940, 951_782_400, 951_782_399.999,
            -2_203_891_200, -2_203_977_600, -11_670_998_400, 1_709_164_800, 4_107_542_400, -4_861_728_000,
            253_402_300_799.999, -62_167_219_200, 1_234_567_890.123, -1_234_567_890.877,
        ]
        for timestamp in timestamps {
            let expected = try sqliteText(
                db, "SELECT strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')", .real(timestamp))
            XCTAssertEqual(string(timestamp), expected, "\(timestamp)")
        }
    }

    // MARK: Parsing

    func testParsesEveryForm() throws {
        let cases: [(String, Double)] = [
            ("2021-03-14", 1_615_680_000),
            ("2021-03-14 15:09", 1_615_734_540),
            ("2021-03-14 15:09:26", 1_615_734_566),
            ("2021-03-14 15:09:26.535", 1_615_734_566.535),
            ("2021-03-14 15:09:26.5", 1_615_734_566.5),
            ("2021-03-14 15:09:26.123456", 1_615_734_566.123456),
            ("2021-03-14T15:09", 1_615_734_540),
            ("2021-03-14T15:09:26", 1_615_734_566),
            ("2021-03-14T15:09:26.535", 1_615_734_566.535),
            ("2021-03-14 15:09Z", 1_615_734_540),
            ("2021-03-14 15:09:26Z", 1_615_734_566),
            ("2021-03-14 15:09:26z", 1_615_734_566),
            ("2021-03-14T15:09:26.535Z", 1_615_734_566.535),
            ("2021-03-14 15:09+02:00", 1_615_734_540 - 7_200),
            ("2021-03-14 15:09:26+02:00", 1_615_734_566 - 7_200),
            ("2021-03-14T15:09:26-05:30", 1_615_734_566 + 19_800),
            // ISO 8601's other offsets, as DateFormatter's Z pattern and other tools write them.
            ("2021-03-14 15:09:26+0000", 1_615_734_566),
            ("2021-03-14T15:09:26+0530", 1_615_734_566 - 19_800),
            ("2021-03-14T15:09:26-0800", 1_615_734_566 + 28_800),
            ("2021-03-14 15:09:26+05", 1_615_734_566 - 18_000),
            ("2021-03-14T15:09:26.25-03", 1_615_734_566.25 + 10_800),
            ("2021-03-14 15:09:26.535-05:30", 1_615_734_566.535 + 19_800),
            ("2021-03-14 00:30:00+02:00", 1_615_680_000 + 1_800 - 7_200),
            ("1970-01-01", 0),
            ("1969-12-31 23:59:59.999", -0.001),
            ("1900-03-01", -2_203_891_200),
            ("2000-02-29", 951_782_400),
            ("1600-02-29", -11_670_998_400),
            ("0000-01-01", -62_167_219_200),
            ("9999-12-31 23:59:59.999", 253_402_300_799.999),
        ]
        for (text, expected) in cases {
            let parsed = try XCTUnwrap(seconds(text), "'\(text)'")
            XCTAssertEqual(parsed, expected, accuracy: 1e-4, "'\(text)'")
        }
    }

    func testParsingAgreesWithSQLite() throws {
        let db = try Database()
        let texts = [
            "2021-03-14", "2021-03-14 15:09", "2021-03-14 15:09:26", "2021-03-14 15:09:26.535",
            "2021-03-14T15:09:26", "2021-03-14T15:09:26Z", "2021-03-14T15:09:26.5z", "2021-03-14 15:09:26+02:00",
            "2021-03-14 15:09:26-05:30",
            "2021-03-14 23:30:00-05:30", "1969-07-20 20:17:40.123", "2000-02-29 12:00", "1900-03-01",
            "0000-01-01 00:00", "9999-12-31 23:59:59.999",
        ]
        for text in texts {
            let expected = try sqliteText(db, "SELECT strftime('%Y-%m-%d %H:%M:%f', ?)", .text(text))
            XCTAssertNotNil(expected, "SQLite reads '\(text)'")
            let parsed = try XCTUnwrap(SQLiteDateFormat.date(from: text), "'\(text)'")
            XCTAssertEqual(SQLiteDateFormat.string(from: parsed), expected, "'\(text)'")
        }
    }

    func testRejectsWhatIsNotADate() {
        let texts = [
            "", " ", "not a date", "2021", "2021-03", "21-03-14", "2021-3-14", "2021-03-4", "2021/03/14",
            "2021-02-30", "2021-02-29", "1900-02-29", "2100-02-29", "2021-04-31", "2021-13-01", "2021-00-10",
            "2021-03-00", "2021-03-32", "2021-03-14 24:00", "2021-03-14 12:60", "2021-03-14 12:00:60",
            "2021-03-14 12", "2021-03-14 12:", "2021-03-14 12:00:", "2021-03-14 12:00:00.", "2021-03-14x",
            "2021-03-14X12:00", "2021-03-14 12:00+2", "2021-03-14 12:00+020", "2021-03-14 12:00+02:",
            "2021-03-14 12:00+24:00",
            "2021-03-14 12:00+2400", "2021-03-14 12:00+0260", "2021-03-14 12:00+02:00:00", "2021-03-14 12:00+02:0",
            "2021-03-14 12:00Q", "2021-03-14 12:00:00Z trailing", "２０２１-03-14",
        ]
        for text in texts {
            XCTAssertNil(SQLiteDateFormat.date(from: text), "'\(text)'")
        }
    }

    /// The form the library writes is read by a path of its own: the same `Date`, to the last bit, as the
    /// general parse gives for the same fields written with a `T` (which only the general parse reads).
    func testTheStoredFormReadsAsTheGeneralParseDoes() throws {
        let texts = [
            "2021-03-14 15:09:26.535", "1970-01-01 00:00:00.000", "1969-12-31 23:59:59.999", "2000-02-29 23:59:59.001",
            "0000-01-01 00:00:00.000", "9999-12-31 23:59:59.999", "2020-09-13 12:26:40.500", "1600-02-29 12:34:56.789",
        ]
        for text in texts {
            let stored = try XCTUnwrap(SQLiteDateFormat.date(from: text), "'\(text)'")
            let general = try XCTUnwrap(SQLiteDateFormat.date(from: text.replacingOccurrences(of: " ", with: "T")))
            XCTAssertEqual(
                stored.timeIntervalSince1970.bitPattern, general.timeIntervalSince1970.bitPattern, "'\(text)'")
        }
        XCTAssertEqual(SQLiteDateFormat.date(from: "2021-03-14 15:09:26.535")?.timeIntervalSince1970, 1_615_734_566.535)
    }

    /// Texts of the stored form's length and separators that are no date: each field is checked as the general
    /// parse checks it.
    func testRejectsStoredFormTextsThatAreNotDates() {
        let texts = [
            "2021-02-29 00:00:00.000", "2021-13-01 00:00:00.000", "2021-00-01 00:00:00.000", "2021-04-31 00:00:00.000",
            "2021-03-00 00:00:00.000", "2021-03-14 24:00:00.000", "2021-03-14 12:60:00.000", "2021-03-14 12:00:60.000",
            "2021-03-14 12:00:00.00a", "202a-03-14 12:00:00.000", "2021-03-14 1/:00:00.000", "2021-03-14 12:00:0:.000",
            "2021-03-14T12:00:00.00 ", "2021-03-14 12:00:00,000", "-021-03-14 12:00:00.000",
        ]
        for text in texts {
            XCTAssertNil(SQLiteDateFormat.date(from: text), "'\(text)'")
        }
    }

    func testParsesUTF8Bytes() {
        let bytes = Array("2021-03-14 15:09:26".utf8)
        let date = bytes.withUnsafeBufferPointer { SQLiteDateFormat.date(fromUTF8: $0) }
        XCTAssertEqual(date?.timeIntervalSince1970, 1_615_734_566)
        let empty = [UInt8]().withUnsafeBufferPointer { SQLiteDateFormat.date(fromUTF8: $0) }
        XCTAssertNil(empty)
    }

    // MARK: Round trips

    func testStringRoundTrips() throws {
        let texts = [
            "1970-01-01 00:00:00.000", "2021-03-14 15:09:26.535", "1969-12-31 23:59:59.999", "2000-02-29 00:00:00.000",
            "1900-03-01 00:00:00.000", "1600-02-29 12:34:56.789", "0000-01-01 00:00:00.000", "9999-12-31 23:59:59.999",
            "0001-01-01 00:00:00.001", "1815-12-10 06:07:08.090",
        ]
        for text in texts {
            let date = try XCTUnwrap(SQLiteDateFormat.date(from: text), "'\(text)'")
            XCTAssertEqual(SQLiteDateFormat.string(from: date), text)
        }
    }

    func testDateRoundTrips() throws {
        let timestamps: [Double] = [
            0, 1_615_734_566.535, -0.001, -14_182_940.25, 951_782_400, -2_203_891_200, -62_167_219_200,
            253_402_300_799.999, 1_000_000_000.001,
        ]
        for timestamp in timestamps {
            let text = try XCTUnwrap(string(timestamp), "\(timestamp)")
            let parsed = try XCTUnwrap(seconds(text), text)
            XCTAssertEqual(parsed, timestamp, accuracy: 1e-4, text)
        }
    }
}
