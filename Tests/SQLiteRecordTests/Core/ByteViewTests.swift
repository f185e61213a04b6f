import Foundation
import XCTest

@testable import SQLiteRecord

/// ``ByteView``'s invariant: every read stays inside the bytes it was given. The views here are made over
/// arrays exactly as long as the bytes, or over SQLite's own text, so a read past the end is a heap
/// overflow that the address sanitizer reports (`Scripts/sanitizers.sh asan`); without it the tests check
/// the values read.
final class ByteViewTests: XCTestCase {
    /// `count` copies of `byte` in an array of exactly that capacity.
    private func exact(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            initialized = bytes.count
        }
    }

    func testEmptyTextFromSQLiteAndFromNULL() throws {
        let db = try Database()
        let statement = try db.makeStatement(sql: "SELECT '', NULL, CAST(x'' AS TEXT)")
        XCTAssertTrue(try statement.step())
        for index in Int32(0)...2 {
            statement.row.withUTF8(at: index) { view in
                XCTAssertEqual(view.count, 0)
                XCTAssertTrue(view.isEmpty)
                XCTAssertTrue(view.isASCII)
                XCTAssertTrue(view.isValidUTF8)
                XCTAssertEqual(view.string, "")
                XCTAssertEqual(view.validatedString, "")
                XCTAssertTrue(view.elementsEqual(utf8Of: ""))
                XCTAssertFalse(view.elementsEqual(utf8Of: "a"))
                XCTAssertEqual(view.extracting(0..<0).count, 0)
            }
            XCTAssertEqual(StatementColumn(statement.row, at: index).validatedString, "")
        }
        ByteView.withBytes(of: [UInt8]()) { view in
            XCTAssertEqual(view.count, 0)
            XCTAssertEqual(view.validatedString, "")
            XCTAssertEqual(Array(view), [])
        }
    }

    /// Text that holds a NUL of its own: the one-pass read (which stops at a NUL) must not cut it short,
    /// and the view ends at SQLite's count, not at the NUL.
    func testTextHoldingNULReadsWhole() throws {
        let db = try Database()
        let statement = try db.makeStatement(
            sql: "SELECT CAST(x'610062' AS TEXT), CAST(x'00' AS TEXT), CAST(x'E69DB100E4BAAC' AS TEXT)")
        XCTAssertTrue(try statement.step())
        statement.row.withUTF8(at: 0) { view in
            XCTAssertEqual(Array(view), [0x61, 0x00, 0x62])
            XCTAssertEqual(view.validatedString, "a\u{0}b")
            XCTAssertTrue(view.elementsEqual(utf8Of: "a\u{0}b"))
            XCTAssertFalse(view.elementsEqual(utf8Of: "a"))
        }
        XCTAssertEqual(statement.row.validatedString(at: 1), "\u{0}")
        XCTAssertEqual(statement.row.validatedString(at: 2), "東\u{0}京")
        XCTAssertTrue(statement.row.holds(.text("東\u{0}京"), at: 2))
        XCTAssertFalse(statement.row.holds(.text("東"), at: 2))
    }

    /// Invalid UTF-8 is refused by `validatedString` and repaired by `string`, at every length the ASCII
    /// check reads in words (8, 4, 2 and 1 bytes), with the bad byte last: exactly at the end of the array.
    func testInvalidUTF8AtTheLastByteOfEveryLength() {
        for count in 1...40 {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            bytes[count - 1] = 0xFF
            ByteView.withBytes(of: exact(bytes)) { view in
                XCTAssertFalse(view.isASCII, "\(count)")
                XCTAssertFalse(view.isValidUTF8, "\(count)")
                XCTAssertNil(view.validatedString, "\(count)")
                XCTAssertEqual(view.string, String(repeating: "a", count: count - 1) + "\u{FFFD}")
            }
            // A lead byte cut off by the end: the check must not look past it for its continuation.
            bytes[count - 1] = 0xE6
            ByteView.withBytes(of: exact(bytes)) { view in XCTAssertFalse(view.isValidUTF8, "\(count)") }
            bytes[count - 1] = UInt8(ascii: "b")
            ByteView.withBytes(of: exact(bytes)) { view in
                XCTAssertTrue(view.isASCII, "\(count)")
                XCTAssertEqual(view.validatedString, String(repeating: "a", count: count - 1) + "b")
            }
        }
    }

    func testInvalidUTF8FromSQLiteIsRefused() throws {
        let db = try Database()
        let statement = try db.makeStatement(sql: "SELECT CAST(x'61FF62' AS TEXT), CAST(x'C0AF' AS TEXT)")
        XCTAssertTrue(try statement.step())
        XCTAssertNil(statement.validatedString(at: 0))
        XCTAssertEqual(statement.string(at: 0), "a\u{FFFD}b")
        XCTAssertNil(statement.validatedString(at: 1))
        XCTAssertEqual(statement.withUTF8(at: 1) { Array($0) }, [0xC0, 0xAF])
    }

    func testSlicesAndDigits() {
        ByteView.withBytes(of: exact(Array("id=2024;".utf8))) { view in
            let digits = view.extracting(3..<7)
            XCTAssertEqual(digits.count, 4)
            XCTAssertEqual(digits[0], UInt8(ascii: "2"))
            XCTAssertEqual(digits.digits(at: 0, count: 4), 2024)
            XCTAssertEqual(view.digits(at: 3, count: 4), 2024)
            XCTAssertEqual(view.digits(at: 2, count: 3), -1, "= is no digit")
            XCTAssertEqual(view.digits(at: 4, count: 4), -1, "; is no digit")
            XCTAssertEqual(view.extracting(7...).string, ";")
            XCTAssertEqual(view.extracting(8...).count, 0)
            XCTAssertFalse(digits.isFollowedByNUL)
        }
    }

    /// A date parsed from a slice that ends the array: the stored form, the general form, and every
    /// truncation of it, which must be refused without a read past the slice.
    func testADateParsedFromASliceReadsOnlyTheSlice() throws {
        let text = "2024-02-29 23:59:58.125"
        let expected = try XCTUnwrap(SQLiteDateFormat.date(from: text))
        XCTAssertEqual(expected.timeIntervalSince1970, 1_709_251_198.125)
        ByteView.withBytes(of: exact(Array(("id:" + text).utf8))) { view in
            XCTAssertEqual(SQLiteDateFormat.date(fromUTF8: view.extracting(3...)), expected)
        }
        for length in 0..<text.utf8.count {
            let cut = Array(text.utf8.prefix(length))
            let parsed = ByteView.withBytes(of: exact(cut)) { SQLiteDateFormat.date(fromUTF8: $0) }
            // A date with hours and minutes, or whole seconds, or a date alone, is a valid shorter form.
            let valid = [10, 16, 19, 21, 22].contains(length)
            XCTAssertEqual(parsed != nil, valid, "\(String(decoding: cut, as: UTF8.self))")
        }
        ByteView.withBytes(of: exact(Array("2024-02-29T23:59:58+0530".utf8))) { view in
            XCTAssertEqual(SQLiteDateFormat.date(fromUTF8: view)?.timeIntervalSince1970, 1_709_251_198 - 19_800)
        }
    }

    /// The date printed on the stack is the text `string(from:)` returns; no text form means no call.
    func testADatesTextOnTheStack() {
        let date = Date(timeIntervalSince1970: 1_709_251_198.125)
        XCTAssertEqual(SQLiteDateFormat.withText(of: date) { $0.string }, "2024-02-29 23:59:58.125")
        XCTAssertEqual(SQLiteDateFormat.withText(of: date) { $0.string }, SQLiteDateFormat.string(from: date))
        XCTAssertNil(SQLiteDateFormat.withText(of: Date(timeIntervalSince1970: .infinity)) { _ in XCTFail() })
    }

    /// A UUID parsed from a slice: braces stripped by slicing, and every truncation refused.
    func testAUUIDParsedFromASliceReadsOnlyTheSlice() throws {
        let text = "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"
        let expected = try XCTUnwrap(UUID(uuidString: text))
        ByteView.withBytes(of: exact(Array(("key={" + text + "}").utf8))) { view in
            XCTAssertEqual(UUIDText.parse(utf8: view.extracting(5..<41)), expected)
            XCTAssertEqual(UUIDText.parse(utf8: view.extracting(4...)), expected)
        }
        for length in 0..<text.utf8.count {
            let cut = exact(Array(text.utf8.prefix(length)))
            XCTAssertNil(ByteView.withBytes(of: cut) { UUIDText.parse(utf8: $0) }, "\(length)")
        }
        let compact = text.replacingOccurrences(of: "-", with: "")
        ByteView.withBytes(of: exact(Array(compact.utf8))) { view in
            XCTAssertEqual(UUIDText.parse(utf8: view), expected)
            XCTAssertNil(UUIDText.parse(utf8: view.extracting(0..<31)))
        }
        XCTAssertEqual(UUIDText.withLowercaseUTF8(expected) { Array($0) }, Array(text.utf8))
        XCTAssertEqual(
            expected.sqliteBlob,
            Data([0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F]))
    }

    /// The prepare tail of a script with a comment at its very end, and text bound from a view.
    func testPrepareTailsAndBoundText() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('a'); -- the end")
        let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
        try ByteView.withBytes(of: exact(Array("東京".utf8))) { try statement.bind(utf8: $0, at: 1) }
        try statement.step()
        statement.reset()
        try ByteView.withBytes(of: []) { try statement.bind(utf8: $0, at: 1) }
        try statement.step()
        let rows = try db.makeStatement(sql: "SELECT v, typeof(v) FROM t ORDER BY rowid")
        var values: [String] = []
        while try rows.step() { values.append("\(rows.string(at: 0)):\(rows.string(at: 1))") }
        XCTAssertEqual(values, ["a:text", "東京:text", ":text"])
        XCTAssertThrowsError(try db.makeStatement(sql: "SELECT 1; SELECT 2")) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
        }
        XCTAssertNoThrow(try db.makeStatement(sql: "SELECT 1; -- only a comment after"))
    }
}
