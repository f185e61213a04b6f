import Foundation
import SQLiteRecord
import XCTest

@testable import Notes

/// `notes import`: the legacy property list into the database, all or nothing.
final class PropertyListImportTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try NotesFixtures.makeTemporaryFolder()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testImportOfTheShippedListGivesItsTwentyNotesExactly() throws {
        let book = try NotesFixtures.makeBook()
        let summary = try book.importList(from: NotesFixtures.shippedList)
        XCTAssertEqual(summary, NoteBook.ImportSummary(imported: 20, skipped: 0))
        let notes = try book.all()
        XCTAssertEqual(notes.count, 20)
        XCTAssertEqual(notes.map(\.date.timeIntervalSince1970), NotesFixtures.shippedNotes.map(\.seconds))
        XCTAssertEqual(
            NotesFixtures.bytes(notes.map(\.content)), NotesFixtures.bytes(NotesFixtures.shippedNotes.map(\.content)))
        XCTAssertEqual(notes.map(\.id), (1...20).map { Int64($0) })
        XCTAssertTrue(notes.contains { $0.content.contains("3 < 5 & 7 > 2") })
    }

    func testTheDateColumnHoldsUTCTextInWholeSeconds() throws {
        let book = try NotesFixtures.makeBook()
        try book.importList(from: NotesFixtures.shippedList)
        let first = try book.queue.read { db in
            try db.scalar(String.self, sql: "SELECT date FROM notes ORDER BY date LIMIT 1")
        }
        XCTAssertEqual(first, "2024-01-08 08:15:00.000")
        let unique = try book.queue.read { db in
            try db.scalar(Int.self, sql: "SELECT \"unique\" FROM pragma_index_list('notes') WHERE name = 'notes_date'")
        }
        XCTAssertEqual(unique, 1)
    }

    func testAMissingKeyAtIndexSevenAbortsTheImport() throws {
        var entries = NotesFixtures.shippedEntries()
        entries[7].removeValue(forKey: "content")
        let file = folder.appendingPathComponent("missing.plist")
        try NotesFixtures.writeList(entries, format: .xml, to: file)
        let book = try NotesFixtures.makeBook()
        XCTAssertThrowsError(try book.importList(from: file)) { error in
            XCTAssertEqual(
                error as? NotesError,
                .invalidEntry(file: "missing.plist", index: 7, reason: "the key \"content\" is missing"))
            XCTAssertTrue("\(error)".contains("7"), "\(error)")
        }
        XCTAssertEqual(try book.all().count, 0)
    }

    func testAnUnparsableDateAtIndexSevenAbortsTheImport() throws {
        for date in ["2024-04-31 13:30:00", "April 3rd", "2024-03-31 02:30:00"] {
            var entries = NotesFixtures.shippedEntries()
            entries[7]["date"] = date
            let file = folder.appendingPathComponent("bad-date.plist")
            try? FileManager.default.removeItem(at: file)
            try NotesFixtures.writeList(entries, format: .xml, to: file)
            let book = try NotesFixtures.makeBook()
            XCTAssertThrowsError(try book.importList(from: file)) { error in
                guard case .invalidEntry(let name, let index, let reason)? = error as? NotesError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(name, "bad-date.plist")
                XCTAssertEqual(index, 7)
                XCTAssertTrue(reason.contains(date), reason)
                XCTAssertTrue("\(error)".contains("entry 7"), "\(error)")
            }
            XCTAssertEqual(try book.all().count, 0, date)
        }
    }

    func testAValueThatIsNotAStringNamesItsEntry() throws {
        var entries = NotesFixtures.shippedEntries()
        entries[3]["date"] = Date(timeIntervalSince1970: 0)
        let file = folder.appendingPathComponent("typed.plist")
        try NotesFixtures.writeList(entries, format: .xml, to: file)
        XCTAssertThrowsError(try NotesFixtures.makeBook().importList(from: file)) { error in
            XCTAssertEqual(
                error as? NotesError, .invalidEntry(file: "typed.plist", index: 3, reason: "\"date\" is not a string"))
        }
    }

    func testAFileThatIsNotAListIsRefused() throws {
        let dictionary = folder.appendingPathComponent("dictionary.plist")
        try PropertyListSerialization.data(fromPropertyList: ["date": "x"], format: .xml, options: 0)
            .write(to: dictionary)
        let text = folder.appendingPathComponent("text.plist")
        try Data("<html>not a plist</html>".utf8).write(to: text)
        for file in [dictionary, text] {
            XCTAssertThrowsError(try NotesFixtures.makeBook().importList(from: file)) { error in
                guard case .notANotesList(let name, _)? = error as? NotesError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, file.lastPathComponent)
            }
        }
    }

    func testImportingTwiceDoesNotDuplicateAndCountsTheSkipped() throws {
        let book = try NotesFixtures.makeBook()
        try book.add("Written before the import", at: Date(timeIntervalSince1970: 1_704_701_700))
        let first = try book.importList(from: NotesFixtures.shippedList)
        XCTAssertEqual(first, NoteBook.ImportSummary(imported: 19, skipped: 1))
        let second = try book.importList(from: NotesFixtures.shippedList)
        XCTAssertEqual(second, NoteBook.ImportSummary(imported: 0, skipped: 20))
        let notes = try book.all()
        XCTAssertEqual(notes.count, 20)
        // The note that was there first keeps its content.
        XCTAssertEqual(notes.first?.content, "Written before the import")
    }

    func testTwoEntriesWithOneDateImportTheFirst() throws {
        let entries: [[String: Any]] = [
            ["date": "2024-05-01 10:00:00", "content": "first"],
            ["date": "2024-05-01T08:00:00Z", "content": "same instant"],
        ]
        let file = folder.appendingPathComponent("twice.plist")
        try NotesFixtures.writeList(entries, format: .xml, to: file)
        let book = try NotesFixtures.makeBook()
        XCTAssertEqual(try book.importList(from: file), NoteBook.ImportSummary(imported: 1, skipped: 1))
        XCTAssertEqual(try book.all().map(\.content), ["first"])
    }

    func testABinaryPropertyListImports() throws {
        let file = folder.appendingPathComponent("binary.plist")
        try NotesFixtures.writeList(NotesFixtures.shippedEntries(), format: .binary, to: file)
        XCTAssertEqual(try Data(contentsOf: file).prefix(6), Data("bplist".utf8))
        let book = try NotesFixtures.makeBook()
        XCTAssertEqual(try book.importList(from: file), NoteBook.ImportSummary(imported: 20, skipped: 0))
        let notes = try book.all()
        XCTAssertEqual(notes.map(\.date.timeIntervalSince1970), NotesFixtures.shippedNotes.map(\.seconds))
        XCTAssertEqual(
            NotesFixtures.bytes(notes.map(\.content)), NotesFixtures.bytes(NotesFixtures.shippedNotes.map(\.content)))
    }

    func testExtraKeysInAnEntryAreIgnored() throws {
        let entries: [[String: Any]] = [["date": "2024-05-01 10:00:00", "content": "kept", "color": 3]]
        let file = folder.appendingPathComponent("extra.plist")
        try NotesFixtures.writeList(entries, format: .xml, to: file)
        let book = try NotesFixtures.makeBook()
        XCTAssertEqual(try book.importList(from: file), NoteBook.ImportSummary(imported: 1, skipped: 0))
    }
}
