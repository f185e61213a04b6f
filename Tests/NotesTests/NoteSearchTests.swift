import Foundation
import SQLiteRecord
import XCTest

@testable import Notes

/// `notes search WORDS`: the shipped notes found by their words, best match first, highlighted.
final class NoteSearchTests: XCTestCase {
    private func makeShippedBook() throws -> NoteBook {
        let book = try NotesFixtures.makeBook()
        for note in NotesFixtures.shippedNotes {
            try book.add(note.content, at: Date(timeIntervalSince1970: note.seconds))
        }
        return book
    }

    private func lines(_ text: String, _ book: NoteBook) throws -> [String] {
        try book.search(text).map { book.dates.string(from: $0.record.date) + "  " + $0.excerpt }
    }

    func testSearchFindsWordsWithAnyAccentsBestMatchFirst() throws {
        let book = try makeShippedBook()
        XCTAssertEqual(
            try lines("clocks europe", book),
            [
                "2024-03-30 21:10:00  [Clocks] go forward tonight in most of [Europe].",
                "2024-10-27 12:00:00  [Clocks] went back last night in most of [Europe].",
            ])
        XCTAssertEqual(
            try lines("creme brulee", book),
            ["2024-01-19 18:40:00  [Crème] [brûlée]: 4 egg yolks, 500 ml cream, 80 g sugar."])
        XCTAssertEqual(try lines("zoe KOLN", book), ["2024-02-02 12:05:30  Call [Zoë] about the [Köln] trip."])
        XCTAssertEqual(
            try lines("cafe", book), ["2024-05-27 09:00:00  [Cafe\u{301}] opening hours changed (decomposed accent)."])
        XCTAssertEqual(try lines("хлеб", book), ["2024-04-22 16:00:00  Заметка по-русски: купить [хлеб]."])
        XCTAssertEqual(
            try lines("bread pain", book), ["2024-11-11 10:00:00  Buy [bread]: 2 × baguette, 1 × [pain] de campagne."])
    }

    func testOperatorsAndQuotesAreWords() throws {
        let book = try makeShippedBook()
        XCTAssertEqual(try lines("milk -", book), ["2024-03-11 10:20:00  Shopping list:\n- flour\n- eggs\n- [milk]"])
        XCTAssertEqual(
            try lines("AND", book),
            ["2024-04-03 13:30:00  Compare: 3 < 5 & 7 > 2, [and] <b>bold</b> is not markup here."])
        XCTAssertEqual(try lines("NEAR eggs", book), [])
        XCTAssertEqual(try lines("\"", book), [])
        XCTAssertEqual(try lines("", book), [])
    }

    func testSearchCommandEndToEnd() throws {
        XCTAssertEqual(
            try NotesCommand.parse(["search", "clocks", "europe"]), NotesCommand(action: .search(text: "clocks europe"))
        )
        XCTAssertThrowsError(try NotesCommand.parse(["search"])) { error in
            XCTAssertEqual(error as? NotesError, .usage("search takes WORDS, not 0 arguments"))
        }
        let folder = try NotesFixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.sqlite").path
        var output: [String] = []
        let paris = try NotesFixtures.paris()
        try Notes.run(NotesCommand(databasePath: path, action: .add(text: "Call Zoë about Köln")), timeZone: paris) {
            _ in
        }
        try Notes.run(NotesCommand(databasePath: path, action: .search(text: "zoe")), timeZone: paris) {
            output.append($0)
        }
        try Notes.run(NotesCommand(databasePath: path, action: .search(text: "lyon")), timeZone: paris) {
            output.append($0)
        }
        XCTAssertEqual(output.count, 2)
        XCTAssertTrue(output[0].hasSuffix("  Call [Zoë] about Köln"), output[0])
        XCTAssertEqual(output[1], "No note contains \"lyon\"")
    }
}
