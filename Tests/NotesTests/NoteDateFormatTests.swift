import Foundation
import XCTest

@testable import Notes

/// Local `yyyy-MM-dd HH:mm:ss` and ISO 8601 dates, in a pinned time zone (Europe/Paris), daylight-saving
/// gaps and overlaps included.
final class NoteDateFormatTests: XCTestCase {
    private func paris() throws -> NoteDateFormat {
        NoteDateFormat(timeZone: try NotesFixtures.paris())
    }

    func testReadsLocalTimeInTheGivenZoneWinterAndSummer() throws {
        let format = try paris()
        XCTAssertEqual(try format.date(from: "2024-01-08 09:15:00").timeIntervalSince1970, 1_704_701_700)
        XCTAssertEqual(try format.date(from: "2024-07-01 08:30:00").timeIntervalSince1970, 1_719_815_400)
        // The same text in another zone is another instant.
        let tokyo = NoteDateFormat(timeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Tokyo")))
        XCTAssertEqual(try tokyo.date(from: "2024-01-08 09:15:00").timeIntervalSince1970, 1_704_672_900)
    }

    func testWritesLocalTimeInTheGivenZone() throws {
        let format = try paris()
        XCTAssertEqual(format.string(from: Date(timeIntervalSince1970: 1_704_701_700)), "2024-01-08 09:15:00")
        XCTAssertEqual(format.string(from: Date(timeIntervalSince1970: 1_719_815_400)), "2024-07-01 08:30:00")
        XCTAssertEqual(format.string(from: Date(timeIntervalSince1970: 1_719_815_400.75)), "2024-07-01 08:30:00")
    }

    func testReadsISO8601WithZOrAnOffset() throws {
        let format = try paris()
        XCTAssertEqual(try format.date(from: "2024-07-01T06:30:00Z").timeIntervalSince1970, 1_719_815_400)
        XCTAssertEqual(try format.date(from: "2024-07-01T08:30:00+02:00").timeIntervalSince1970, 1_719_815_400)
        XCTAssertEqual(try format.date(from: "2024-07-01T01:30:00-0500").timeIntervalSince1970, 1_719_815_400)
        // Without an offset ISO 8601 is local time.
        XCTAssertEqual(try format.date(from: "2024-07-01T08:30:00").timeIntervalSince1970, 1_719_815_400)
    }

    func testAGapInLocalTimeIsAnErrorNamingTheTimeAndZone() throws {
        let format = try paris()
        XCTAssertThrowsError(try format.date(from: "2024-03-31 02:30:00")) { error in
            XCTAssertEqual(
                error as? NotesError, .nonexistentLocalTime("2024-03-31 02:30:00", timeZone: "Europe/Paris"))
            XCTAssertTrue("\(error)".contains("2024-03-31 02:30:00"), "\(error)")
            XCTAssertTrue("\(error)".contains("Europe/Paris"), "\(error)")
        }
        // The seconds either side of the gap exist.
        XCTAssertEqual(try format.date(from: "2024-03-31 01:59:59").timeIntervalSince1970, 1_711_846_799)
        XCTAssertEqual(try format.date(from: "2024-03-31 03:00:00").timeIntervalSince1970, 1_711_846_800)
        // The same instant is reachable in UTC.
        XCTAssertEqual(try format.date(from: "2024-03-31T01:30:00Z").timeIntervalSince1970, 1_711_848_600)
    }

    func testARepeatedLocalTimeIsItsFirstOccurrence() throws {
        let format = try paris()
        // 02:30 happens at +02:00 and again at +01:00 on 2024-10-27: the text alone means the first.
        XCTAssertEqual(try format.date(from: "2024-10-27 02:30:00").timeIntervalSince1970, 1_729_989_000)
        XCTAssertEqual(try format.date(from: "2024-10-27T02:30:00+01:00").timeIntervalSince1970, 1_729_992_600)
    }

    func testRejectsTextThatIsNotADate() throws {
        let format = try paris()
        for text in [
            "", "yesterday", "2024-02-30 10:00:00", "2023-02-29 10:00:00", "2024-13-01 10:00:00",
            "2024-01-01 24:00:00", "2024-01-01 10:60:00", "2024-01-01 10:00:60", "2024-01-01 10:00",
            "2024-01-01 10:00:00.5", "2024-01-01T10:00:00.500Z", "2024-01-01 10:00:00 ", " 2024-01-01 10:00:00",
            "2024/01/01 10:00:00", "2024-01-01T10:00:00+2:00", "2024-01-01T10:00:00+24:00", "２０２４-01-01 10:00:00",
        ] {
            XCTAssertThrowsError(try format.date(from: text), "\"\(text)\"") { error in
                XCTAssertEqual(error as? NotesError, .invalidDate(text))
            }
        }
    }

    func testLeapDayExists() throws {
        XCTAssertEqual(try paris().date(from: "2024-02-29 17:45:10").timeIntervalSince1970, 1_709_225_110)
    }
}
