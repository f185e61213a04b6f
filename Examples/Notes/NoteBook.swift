import Foundation
import SQLiteRecord

/// The notes database and what the commands do with it: each call is one read or one transaction.
///
/// Where the legacy app read a property list whole, searched it for a date string and wrote it all back,
/// each call here touches only the note it names, found through the unique index on `date`.
struct NoteBook {
    /// The database; its `notes` table exists once ``init(queue:dates:)`` returned.
    let queue: DatabaseQueue
    /// How dates are typed and shown.
    let dates: NoteDateFormat

    /// How many seconds after the current one ``add(_:at:)`` looks for a date no note has.
    static let addSearchLimit = 3_600

    /// Uses `queue`, creating the `notes` table, its index and its full-text index when it has none (a
    /// database made before `search` existed gets the full-text index of the notes it holds).
    /// - Throws: `DatabaseError` when the database cannot be written.
    init(queue: DatabaseQueue, dates: NoteDateFormat) throws {
        self.queue = queue
        self.dates = dates
        try queue.write { db in
            try Note.createTable(db)
            if try !db.tableExists(Note.fullTextTableName) { try Note.createFullTextIndex(in: db) }
        }
    }

    /// The notes that contain every word of `text` (accents and case folded; quotes and operators are
    /// plain text), best match first, each with its text and the matched words between `[` and `]`.
    /// - Throws: `DatabaseError`, or `DecodingError` for a row another tool stored badly.
    func search(_ text: String) throws -> [FullTextMatch<Note>] {
        try queue.read { db in
            try Note.search(text).fetchMatches(db, excerpt: .highlight(Column("content"), open: "[", close: "]"))
        }
    }

    /// Saves a new note dated `now` to the second, or the first following second no note has (so that
    /// notes added in quick succession keep distinct dates).
    /// - Returns: the saved note, with its id and date.
    /// - Throws: ``NotesError/noFreeDate(after:)`` when the next ``addSearchLimit`` seconds are all taken;
    ///   `DatabaseError` when the database cannot be written.
    @discardableResult
    func add(_ content: String, at now: Date = Date()) throws -> Note {
        try queue.write { db in
            var date = Note.wholeSeconds(now)
            for _ in 0..<Self.addSearchLimit {
                if try Note.fetchOne(db, where: ["date": date]) == nil {
                    var note = Note(id: nil, date: date, content: content)
                    try note.save(db)
                    return note
                }
                date += 1
            }
            throw NotesError.noFreeDate(after: dates.string(from: now))
        }
    }

    /// Every note, oldest first.
    /// - Throws: `DatabaseError`, or `DecodingError` for a row another tool stored badly.
    func all() throws -> [Note] {
        try queue.read { db in try Note.fetch(db, orderBy: [.ascending("date")]) }
    }

    /// How often ``observeAll()`` checks for notes another process changed, in seconds.
    static let otherProcessesInterval: TimeInterval = 0.2

    /// Every note, oldest first, now and again after each change to the notes table: this process's
    /// writes at once, another process's within ``otherProcessesInterval``.
    func observeAll() -> AsyncValueObservation<[Note]> {
        Note.all().order(Column("date"))
            .observation()
            .checkingOtherConnections(every: Self.otherProcessesInterval)
            .values(in: queue)
    }

    /// The note dated `text` (`yyyy-MM-dd HH:mm:ss` local time, or ISO 8601).
    /// - Throws: ``NotesError/noteNotFound(_:)``, or a date error from ``NoteDateFormat/date(from:)``.
    func note(dated text: String) throws -> Note {
        let date = try dates.date(from: text)
        guard let note = try queue.read({ db in try Note.fetchOne(db, where: ["date": date]) }) else {
            throw NotesError.noteNotFound(text)
        }
        return note
    }

    /// Replaces the content of the note dated `text`; its date stays. Only the `content` column is written
    /// (`updateChanges`), and nothing when the text is the same: another writer's change to the row's other
    /// columns is kept.
    /// - Returns: the note as saved.
    /// - Throws: ``NotesError/noteNotFound(_:)``, or a date error from ``NoteDateFormat/date(from:)``.
    @discardableResult
    func edit(dated text: String, content: String) throws -> Note {
        let date = try dates.date(from: text)
        return try queue.write { db in
            guard var note = try Note.fetchOne(db, where: ["date": date]) else {
                throw NotesError.noteNotFound(text)
            }
            try note.updateChanges(db) { $0.content = content }
            return note
        }
    }

    /// Deletes the note dated `text`.
    /// - Returns: the date of the note deleted.
    /// - Throws: ``NotesError/noteNotFound(_:)``, or a date error from ``NoteDateFormat/date(from:)``.
    @discardableResult
    func remove(dated text: String) throws -> Date {
        let date = try dates.date(from: text)
        let removed = try queue.write { db in try Note.deleteAll(db, where: ["date": date]) }
        guard removed > 0 else { throw NotesError.noteNotFound(text) }
        return date
    }
}
