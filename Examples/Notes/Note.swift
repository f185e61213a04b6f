import Foundation
import SQLiteRecord

/// A row of the `notes` table: one dated note. The date is how users find a note, so it is unique (a
/// UNIQUE index) and whole seconds; it is stored as the library's default UTC text
/// (`2024-03-31 08:30:00.000`), which sorts and works with SQLite's date functions.
struct Note: Record, Equatable, Sendable {
    /// The rowid; nil until saved.
    var id: Int64?
    /// When the note was written, to the second; unique.
    var date: Date
    /// The note's text, kept exactly (any Unicode, line breaks, `&<>`).
    var content: String

    /// "notes".
    static let tableName = "notes"

    /// The table and its unique index on `date`; `IF NOT EXISTS`, so running it on every open is harmless.
    static let schema = """
        CREATE TABLE IF NOT EXISTS notes (
            id INTEGER PRIMARY KEY,
            date TEXT NOT NULL,
            content TEXT NOT NULL
        );
        CREATE UNIQUE INDEX IF NOT EXISTS notes_date ON notes(date);
        """

    /// Creates the table and index when the database does not have them yet.
    /// - Throws: `DatabaseError` when the database cannot be written.
    static func createTable(_ db: Database) throws {
        try db.execute(sql: schema)
    }

    /// `date` without its fraction of a second: the date a note made at that moment gets.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Refuses a date with a fraction of a second: two notes in the same second would otherwise slip past
    /// the unique index (their texts differ in the milliseconds) and no typed date could find either.
    /// - Throws: ``NotesError/fractionalSeconds(_:)``.
    func willSave(_ db: some DatabaseConnection) throws {
        guard date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970 else {
            throw NotesError.fractionalSeconds("\(date.timeIntervalSince1970) s since 1970")
        }
    }
}

/// Notes are searched by the words of their text (`notes search WORDS`), through an FTS5 index on
/// `content` with accents and case folded.
extension Note: FullTextSearchable {
    static let fullTextIndex = FullTextIndex(columns: ["content"])
}
