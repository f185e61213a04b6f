import Foundation
import SQLiteRecord
import XCTest

@testable import Notes

/// add, list, show, edit and remove, found by date.
final class NoteBookTests: XCTestCase {
    func testAddShowEditRemove() throws {
        let book = try NotesFixtures.makeBook()
        let added = try book.add("Buy milk", at: Date(timeIntervalSince1970: 1_719_815_400.9))
        XCTAssertEqual(added, Note(id: 1, date: Date(timeIntervalSince1970: 1_719_815_400), content: "Buy milk"))

        XCTAssertEqual(try book.note(dated: "2024-07-01 08:30:00"), added)
        XCTAssertEqual(try book.note(dated: "2024-07-01T06:30:00Z"), added)

        let edited = try book.edit(dated: "2024-07-01 08:30:00", content: "Buy oat milk")
        XCTAssertEqual(edited.content, "Buy oat milk")
        XCTAssertEqual(edited.date, added.date)
        XCTAssertEqual(try book.all(), [edited])

        XCTAssertEqual(try book.remove(dated: "2024-07-01 08:30:00"), added.date)
        XCTAssertEqual(try book.all(), [])
    }

    func testEditWritesOnlyTheContentColumn() throws {
        let book = try NotesFixtures.makeBook()
        let added = try book.add("Buy milk", at: Date(timeIntervalSince1970: 1_719_815_400))
        // A write that names `date` would fail: edit must set `content` alone.
        try book.queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE content_writes (n INTEGER NOT NULL); INSERT INTO content_writes VALUES (0);
                    CREATE TRIGGER notes_date_frozen BEFORE UPDATE OF date ON notes
                    BEGIN SELECT RAISE(ABORT, 'date written'); END;
                    CREATE TRIGGER notes_content_written AFTER UPDATE OF content ON notes
                    BEGIN UPDATE content_writes SET n = n + 1; END;
                    """)
        }
        let edited = try book.edit(dated: "2024-07-01 08:30:00", content: "Buy oat milk")
        XCTAssertEqual(edited, Note(id: added.id, date: added.date, content: "Buy oat milk"))
        try book.edit(dated: "2024-07-01 08:30:00", content: "Buy oat milk")  // the same text: nothing written
        XCTAssertEqual(try book.queue.read { db in try db.scalar(Int.self, sql: "SELECT n FROM content_writes") }, 1)
        XCTAssertEqual(try book.all(), [edited])
    }

    func testEditOrRemoveOfAMissingDateIsAnErrorAndChangesNothing() throws {
        let book = try NotesFixtures.makeBook()
        let kept = try book.add("Kept", at: Date(timeIntervalSince1970: 1_719_815_400))
        XCTAssertThrowsError(try book.edit(dated: "2024-07-01 08:30:01", content: "x")) { error in
            XCTAssertEqual(error as? NotesError, .noteNotFound("2024-07-01 08:30:01"))
            XCTAssertEqual("\(error)", "no note has the date 2024-07-01 08:30:01")
        }
        XCTAssertThrowsError(try book.remove(dated: "2024-07-01 08:30:01")) { error in
            XCTAssertEqual(error as? NotesError, .noteNotFound("2024-07-01 08:30:01"))
        }
        XCTAssertThrowsError(try book.note(dated: "2024-07-01 08:30:01")) { error in
            XCTAssertEqual(error as? NotesError, .noteNotFound("2024-07-01 08:30:01"))
        }
        XCTAssertEqual(try book.all(), [kept])
    }

    func testADateInTheDaylightSavingGapIsAnErrorNamingIt() throws {
        let book = try NotesFixtures.makeBook()
        for call in [
            { _ = try book.note(dated: "2024-03-31 02:30:00") },
            { _ = try book.edit(dated: "2024-03-31 02:30:00", content: "x") },
            { _ = try book.remove(dated: "2024-03-31 02:30:00") },
        ] {
            XCTAssertThrowsError(try call()) { error in
                XCTAssertEqual(
                    error as? NotesError, .nonexistentLocalTime("2024-03-31 02:30:00", timeZone: "Europe/Paris"))
            }
        }
    }

    func testNotesAddedInOneSecondGetTheFollowingSeconds() throws {
        let book = try NotesFixtures.makeBook()
        let now = Date(timeIntervalSince1970: 1_719_815_400.2)
        let dates = try (0..<3).map { try book.add("note \($0)", at: now).date.timeIntervalSince1970 }
        XCTAssertEqual(dates, [1_719_815_400, 1_719_815_401, 1_719_815_402])
    }

    func testTheUniqueIndexRefusesASecondNoteWithTheSameDate() throws {
        let book = try NotesFixtures.makeBook()
        try book.add("first", at: Date(timeIntervalSince1970: 1_719_815_400))
        var duplicate = Note(id: nil, date: Date(timeIntervalSince1970: 1_719_815_400), content: "second")
        XCTAssertThrowsError(try book.queue.write { db in try duplicate.save(db) }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintUnique)
        }
        XCTAssertNil(duplicate.id)
    }

    func testANoteWithAFractionOfASecondIsNotSaved() throws {
        let book = try NotesFixtures.makeBook()
        var note = Note(id: nil, date: Date(timeIntervalSince1970: 1_719_815_400.5), content: "x")
        XCTAssertThrowsError(try book.queue.write { db in try note.save(db) }) { error in
            guard case .fractionalSeconds? = error as? NotesError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try book.all(), [])
    }
}
