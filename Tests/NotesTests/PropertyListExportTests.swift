import Foundation
import SQLiteRecord
import XCTest

@testable import Notes

/// `notes export`: the database back to the legacy format, written atomically.
final class PropertyListExportTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try NotesFixtures.makeTemporaryFolder()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testExportThenReimportRoundTripsEveryContentByteForByte() throws {
        let book = try NotesFixtures.makeBook()
        try book.importList(from: NotesFixtures.shippedList)
        let file = folder.appendingPathComponent("exported.plist")
        XCTAssertEqual(try book.exportList(to: file), 20)

        let again = try NotesFixtures.makeBook()
        XCTAssertEqual(try again.importList(from: file), NoteBook.ImportSummary(imported: 20, skipped: 0))
        let original = try book.all()
        let reimported = try again.all()
        XCTAssertEqual(reimported.map(\.date), original.map(\.date))
        XCTAssertEqual(NotesFixtures.bytes(reimported.map(\.content)), NotesFixtures.bytes(original.map(\.content)))
        XCTAssertEqual(
            NotesFixtures.bytes(reimported.map(\.content)),
            NotesFixtures.bytes(NotesFixtures.shippedNotes.map(\.content)))
    }

    func testTheExportIsAnXMLListOfLocalDateStrings() throws {
        let book = try NotesFixtures.makeBook()
        try book.importList(from: NotesFixtures.shippedList)
        let file = folder.appendingPathComponent("exported.plist")
        try book.exportList(to: file)

        let data = try Data(contentsOf: file)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).hasPrefix("<?xml"))
        var format = PropertyListSerialization.PropertyListFormat.binary
        let list = try XCTUnwrap(
            PropertyListSerialization.propertyList(from: data, options: [], format: &format) as? [[String: String]])
        XCTAssertEqual(format, .xml)
        XCTAssertEqual(list.map { $0["date"] }, NotesFixtures.shippedNotes.map(\.local))
        XCTAssertEqual(list.map { Set($0.keys) }, Array(repeating: ["date", "content"], count: 20))
    }

    func testTheExportReplacesAnExistingFileAndLeavesNoTemporaryFile() throws {
        let book = try NotesFixtures.makeBook()
        try book.add("Only note", at: Date(timeIntervalSince1970: 1_704_701_700))
        let file = folder.appendingPathComponent("notes.plist")
        try Data("old contents".utf8).write(to: file)
        XCTAssertEqual(try book.exportList(to: file), 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["notes.plist"])
        let entries = try PropertyListDecoder().decode([LegacyNote].self, from: Data(contentsOf: file))
        XCTAssertEqual(entries, [LegacyNote(date: "2024-01-08 09:15:00", content: "Only note")])
    }

    func testAnExportIntoAMissingFolderFailsAndWritesNothing() throws {
        let book = try NotesFixtures.makeBook()
        let file = folder.appendingPathComponent("missing/notes.plist")
        XCTAssertThrowsError(try book.exportList(to: file))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testAnEmptyDatabaseExportsAnEmptyList() throws {
        let file = folder.appendingPathComponent("empty.plist")
        XCTAssertEqual(try NotesFixtures.makeBook().exportList(to: file), 0)
        XCTAssertEqual(try PropertyListDecoder().decode([LegacyNote].self, from: Data(contentsOf: file)), [])
    }
}
