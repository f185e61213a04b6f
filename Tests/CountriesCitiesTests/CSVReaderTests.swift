import Foundation
import XCTest

@testable import CountriesCities

final class CSVReaderTests: XCTestCase {
    private func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    }

    private func parse(_ text: String) throws -> CSVTable {
        try CSVReader.parse(Data(text.utf8), fileName: "test.csv")
    }

    func testQuotedFieldsWithDoubledQuotesCommasAndLineBreaks() throws {
        let table = try CSVReader.read(contentsOf: fixture("quoted.csv"))
        XCTAssertEqual(table.header, ["geonameid", "name", "note"])
        XCTAssertEqual(
            table.records.map(\.fields),
            [
                ["1", "Poselok \"Klyazminskoe\"", "a, b"],
                ["2", "two\r\nlines", ""],
                ["3", "Zürich", "plain"],
            ])
        XCTAssertEqual(table.records.map(\.line), [2, 3, 5])
    }

    func testLFAndCRLFAndNoFinalLineEnd() throws {
        XCTAssertEqual(try parse("a,b\n1,2\n").records.map(\.fields), [["1", "2"]])
        XCTAssertEqual(try parse("a,b\r\n1,2\r\n").records.map(\.fields), [["1", "2"]])
        XCTAssertEqual(try parse("a,b\r\n1,2").records.map(\.fields), [["1", "2"]])
        XCTAssertEqual(try parse("a,b\r\n1,").records.map(\.fields), [["1", ""]])
        XCTAssertEqual(try parse("a,b\r\n\"\",\"\"\r\n").records.map(\.fields), [["", ""]])
    }

    func testNAStaysText() throws {
        XCTAssertEqual(try parse("iso,continent\nNA,NA\n").records.first?.fields, ["NA", "NA"])
    }

    func testMalformedFilesNameFileAndLine() {
        XCTAssertThrowsError(try CSVReader.read(contentsOf: fixture("unterminated.csv"))) { error in
            XCTAssertEqual(
                error as? CSVError,
                CSVError(fileName: "unterminated.csv", line: 3, message: "a quoted field is never closed"))
        }
        XCTAssertThrowsError(try CSVReader.read(contentsOf: fixture("short-record.csv"))) { error in
            XCTAssertEqual(
                error as? CSVError,
                CSVError(
                    fileName: "short-record.csv", line: 3,
                    message: "expected 3 fields as in the header, found 2"))
            XCTAssertEqual("\(error)", "short-record.csv, line 3: expected 3 fields as in the header, found 2")
        }
        XCTAssertThrowsError(try parse("a,b\n1,x\"y\n")) { error in
            XCTAssertEqual((error as? CSVError)?.line, 2)
        }
        XCTAssertThrowsError(try parse("a,b\n1,\"x\"y\n")) { error in
            XCTAssertEqual((error as? CSVError)?.line, 2)
        }
        XCTAssertThrowsError(try parse("")) { error in
            XCTAssertEqual((error as? CSVError)?.message, "the file is empty; expected a header line")
        }
        XCTAssertThrowsError(try CSVReader.parse(Data([0x61, 0x0A, 0xFF, 0x0A]), fileName: "bad.csv")) { error in
            XCTAssertEqual((error as? CSVError)?.message, "the file is not valid UTF-8")
        }
    }
}
