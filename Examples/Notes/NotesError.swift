/// The Notes sample's own failures, each a sentence for one line of standard error.
enum NotesError: Error, Equatable, CustomStringConvertible {
    /// The command line is not one the tool takes; the text says what is wrong.
    case usage(String)
    /// Text that is neither `yyyy-MM-dd HH:mm:ss` nor ISO 8601, or names a day no calendar has.
    case invalidDate(String)
    /// A well-formed local time that does not exist in the zone: the clocks skip it (daylight saving).
    case nonexistentLocalTime(String, timeZone: String)
    /// No note has the date the user gave (as typed).
    case noteNotFound(String)
    /// A note's date has a fraction of a second; notes are found by their date to the second.
    case fractionalSeconds(String)
    /// Every second from the given date on, as far as the tool looks, already has a note.
    case noFreeDate(after: String)
    /// A legacy property list that is not an array of dictionaries.
    case notANotesList(file: String, reason: String)
    /// An entry of a legacy property list that cannot be imported: its index (0-based, as the list holds
    /// it) and why. Nothing of the file is imported.
    case invalidEntry(file: String, index: Int, reason: String)

    /// A legacy property list could not be read; `reason` is the system's.
    case cannotRead(path: String, reason: String)
    /// The exported file could not be written or moved into place; `reason` is the system's.
    case cannotWrite(path: String, reason: String)

    /// The message, in one line (a note's content never appears in it).
    var description: String {
        switch self {
        case .usage(let message):
            return message
        case .invalidDate(let text):
            return "\"\(text)\" is not a date: use yyyy-MM-dd HH:mm:ss (local time, such as 2024-03-31 10:30:00) "
                + "or ISO 8601 (2024-03-31T08:30:00Z)"
        case .nonexistentLocalTime(let text, let timeZone):
            return "\(text) does not exist in \(timeZone): the clocks skip it (a daylight-saving change); "
                + "give a time outside the gap, or ISO 8601 with an offset"
        case .noteNotFound(let text):
            return "no note has the date \(text)"
        case .fractionalSeconds(let text):
            return "the note's date \(text) has a fraction of a second; notes are dated in whole seconds"
        case .noFreeDate(let text):
            return "every second from \(text) on already has a note"
        case .notANotesList(let file, let reason):
            return "\(file) is not a notes list (an array of dictionaries with \"date\" and \"content\"): \(reason)"
        case .invalidEntry(let file, let index, let reason):
            return "\(file), entry \(index): \(reason); nothing was imported"
        case .cannotRead(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
