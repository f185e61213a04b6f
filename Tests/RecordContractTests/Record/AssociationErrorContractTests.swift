import Foundation
import SQLiteRecord
import XCTest

/// An association whose foreign key column the convention does not guess: every call that meets it says to
/// name the column with `using:`, on every engine.
final class AssociationErrorContractTests: RecordContractTestCase {
    /// A child whose foreign key is `owner_book`, where the convention guesses `book_id`.
    struct Note: Record, Equatable, Sendable {
        var id: Int64?
        var ownerBook: Int64?
        var text: String
        static let tableName = "notes"
        static let book = belongsTo(Book.self)
        static let parentAssociations: [any ParentAssociation] = [book]
        enum CodingKeys: String, CodingKey {
            case id, text
            case ownerBook = "owner_book"
        }
    }

    private struct NoteWithBook: Decodable, Sendable {
        var note: Note
        var book: Book
    }

    private struct BookWithNotes: Decodable, Sendable {
        var book: Book
        var notes: [Note]
    }

    private static let notes = Book.hasMany(Note.self)

    private func makeTables(_ engine: any ContractEngine) throws {
        try engine.createTable(Book.self)
        try engine.execute(
            engine.isSQLite
                ? "CREATE TABLE notes (id INTEGER PRIMARY KEY, owner_book INTEGER REFERENCES books (id), text TEXT NOT NULL)"
                : "CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, owner_book BIGINT REFERENCES books (id), text TEXT NOT NULL)"
        )
        try engine.execute("INSERT INTO books (title, pages) VALUES ('Dune', 412)")
        try engine.execute("INSERT INTO notes (owner_book, text) VALUES (1, 'spice')")
    }

    private func reason(_ thrown: (any Error)?) -> String? {
        guard case .invalidAssociation(_, let reason)? = thrown as? RecordError else {
            XCTFail("expected invalidAssociation, got \(String(describing: thrown))")
            return nil
        }
        return reason
    }

    func testAGuessedForeignKeyThatIsNotThereSaysUsing() {
        onEachEngine { engine in
            try makeTables(engine)
            let hint = " (name the foreign key with `using:`)"
            let joined = error {
                _ = try engine.write { db in try Note.including(required: Note.book).fetch(db, as: NoteWithBook.self) }
            }
            XCTAssertEqual(
                reason(joined),
                "table \"notes\" has no column \"book_id\"; its columns are: \"id\", \"owner_book\", \"text\"" + hint)
            let eager = error {
                _ = try engine.write { db in try Book.including(all: Self.notes).fetch(db, as: BookWithNotes.self) }
            }
            XCTAssertEqual(
                reason(eager),
                "table \"notes\" has no column \"book_id\"; its columns are: \"id\", \"owner_book\", \"text\"" + hint)
            let parent = error {
                let note = Note(id: 1, ownerBook: 1, text: "spice")
                _ = try engine.write { db in try note.request(for: Note.book).fetchOne(db) }
            }
            let encodes = "Note encodes no \"book_id\" column; it encodes \"id\", \"text\", \"owner_book\""
            XCTAssertEqual(reason(parent), encodes + hint)
            let children = error {
                var book = Book(id: nil, title: "Emma", pages: 474, isbn: nil)
                var notes = [Note(id: nil, ownerBook: nil, text: "a")]
                try engine.write { db in try book.save(db, children: &notes) }
            }
            XCTAssertEqual(reason(children), encodes + hint)
            let child = error {
                let book = Book(id: 1, title: "Dune", pages: 412, isbn: nil)
                _ = try engine.write { db in try book.request(for: Self.notes).fetch(db) }
            }
            XCTAssertEqual(
                reason(child),
                "table \"notes\" has no column \"book_id\"; its columns are: \"id\", \"owner_book\", \"text\"" + hint)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
        }
    }
}
