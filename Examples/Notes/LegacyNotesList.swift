import Foundation
import SQLiteRecord

/// One entry of the legacy app's property list, exactly as it stores it: the date as local
/// `yyyy-MM-dd HH:mm:ss` text, and the content.
struct LegacyNote: Codable, Equatable {
    /// Local time, `yyyy-MM-dd HH:mm:ss`.
    var date: String
    /// The note's text.
    var content: String
}

/// The legacy app's file: a property list (XML or binary) holding an array of dictionaries with a "date"
/// string and a "content" string, the form `-[NSArray writeToFile:atomically:]` produces. Other keys an
/// entry may have are ignored.
enum LegacyNotesList {
    /// Reads every entry of the property list at `url` and turns its date into a `Date`, checking all of
    /// them before anything is returned, so that an import can stop before it writes anything.
    /// - Returns: the notes, without ids, in the file's order.
    /// - Throws: ``NotesError/invalidEntry(file:index:reason:)`` naming the first entry with a missing key,
    ///   a value that is not a string or a date that cannot be read (with the reason
    ///   ``NoteDateFormat/date(from:)`` gives); ``NotesError/notANotesList(file:reason:)`` when the file is
    ///   not a property list holding an array; ``NotesError/cannotRead(path:reason:)`` when it cannot be read.
    static func read(contentsOf url: URL, dates: NoteDateFormat) throws -> [Note] {
        let file = url.lastPathComponent
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw NotesError.cannotRead(path: url.path, reason: "it is a folder")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw NotesError.cannotRead(path: url.path, reason: systemReason(error))
        }
        let entries: [LegacyNote]
        do {
            entries = try PropertyListDecoder().decode([LegacyNote].self, from: data)
        } catch let error as DecodingError {
            throw describe(error, file: file)
        }
        return try entries.enumerated().map { index, entry in
            do {
                return Note(id: nil, date: try dates.date(from: entry.date), content: entry.content)
            } catch let error as NotesError {
                throw NotesError.invalidEntry(file: file, index: index, reason: "\"date\": \(error)")
            }
        }
    }

    /// Writes `notes` to `url` as an XML property list in the legacy format, dates in local time, replacing
    /// any file there atomically: the list goes to a temporary file in the same folder, which is then
    /// renamed over `url`, so a reader (or a crash) never sees half a file.
    /// - Throws: ``NotesError/cannotWrite(path:reason:)`` with the system's reason when the temporary file
    ///   cannot be written or renamed; `url` is then as it was.
    static func write(_ notes: [Note], to url: URL, dates: NoteDateFormat) throws {
        let entries = notes.map { LegacyNote(date: dates.string(from: $0.date), content: $0.content) }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let data = try encoder.encode(entries)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw NotesError.cannotWrite(path: url.path, reason: systemReason(error))
        }
        // rename(2) replaces the destination in one step; FileManager.moveItem refuses an existing file.
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw NotesError.cannotWrite(path: url.path, reason: reason)
        }
    }

    /// The system's reason in Foundation's file error ("No such file or directory"), without its domain and
    /// user-info dump.
    private static func systemReason(_ error: any Error) -> String {
        let error = error as NSError
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError } ?? error
        if underlying.domain == NSPOSIXErrorDomain, let code = Int32(exactly: underlying.code) {
            return String(cString: strerror(code))
        }
        return error.localizedDescription
    }

    /// The property-list decoder's error as one sentence naming the entry it is about.
    private static func describe(_ error: DecodingError, file: String) -> NotesError {
        switch error {
        case .keyNotFound(let key, let context):
            guard let index = context.codingPath.first?.intValue else {
                return .notANotesList(file: file, reason: context.debugDescription)
            }
            return .invalidEntry(file: file, index: index, reason: "the key \"\(key.stringValue)\" is missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            guard let index = context.codingPath.first?.intValue else {
                return .notANotesList(file: file, reason: context.debugDescription)
            }
            guard let key = context.codingPath.dropFirst().first else {
                return .invalidEntry(file: file, index: index, reason: "it is not a dictionary")
            }
            return .invalidEntry(file: file, index: index, reason: "\"\(key.stringValue)\" is not a string")
        case .dataCorrupted(let context):
            return .notANotesList(file: file, reason: context.debugDescription)
        @unknown default:
            return .notANotesList(file: file, reason: "\(error)")
        }
    }
}

/// Moving off the legacy property list: `notes import` and `notes export`.
extension NoteBook {
    /// What an import did.
    struct ImportSummary: Equatable {
        /// Notes saved.
        var imported: Int
        /// Entries not saved because a note with their date exists (in the database, or earlier in the file).
        var skipped: Int
    }

    /// Saves every note of the legacy property list at `url` in one transaction. Every entry is read and
    /// checked before the database is touched; a note whose date is taken is skipped and counted, so that
    /// importing the same file twice adds nothing the second time.
    /// - Returns: how many notes were saved and how many skipped.
    /// - Throws: ``NotesError/invalidEntry(file:index:reason:)`` or ``NotesError/notANotesList(file:reason:)``
    ///   from ``LegacyNotesList/read(contentsOf:dates:)``, with nothing saved; `DatabaseError` when the
    ///   database cannot be written (the transaction is rolled back).
    @discardableResult
    func importList(from url: URL) throws -> ImportSummary {
        let notes = try LegacyNotesList.read(contentsOf: url, dates: dates)
        return try queue.write { db in
            var summary = ImportSummary(imported: 0, skipped: 0)
            for var note in notes {
                if try Note.fetchOne(db, where: ["date": note.date]) != nil {
                    summary.skipped += 1
                    continue
                }
                try note.insert(db)
                summary.imported += 1
            }
            return summary
        }
    }

    /// Writes every note, oldest first, to `url` in the legacy format (XML property list, local dates),
    /// atomically, so the old app can read it.
    /// - Returns: how many notes were written.
    /// - Throws: as ``LegacyNotesList/write(_:to:dates:)``, or `DatabaseError` when the notes cannot be read.
    @discardableResult
    func exportList(to url: URL) throws -> Int {
        let notes = try all()
        try LegacyNotesList.write(notes, to: url, dates: dates)
        return notes.count
    }
}
