import Foundation
import SQLiteRecord

/// `notes [--db PATH] add TEXT | list | show DATE | edit DATE TEXT | remove DATE | import FILE.plist |
/// export FILE.plist | watch`: dated notes in SQLite, and the way in and out of the legacy property list.
@main
struct Notes {
    /// The folder of the application-support directory that holds the default database.
    static let folderName = "SQLiteRecord.Notes"
    /// The default database's file name.
    static let databaseFileName = "notes.sqlite"

    /// Runs the command line; an error is one line on standard error and exit status 1.
    static func main() async {
        do {
            let command = try NotesCommand.parse(Array(CommandLine.arguments.dropFirst()))
            if command.action == .watch {
                // Standard output may be a pipe (another program reading the lines): write each line at once,
                // past print's buffer.
                try await watch(
                    command, timeZone: .current,
                    output: { line in
                        FileHandle.standardOutput.write(Data((line + "\n").utf8))
                    })
            } else {
                try run(command, timeZone: .current, output: { print($0) })
            }
        } catch {
            let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            FileHandle.standardError.write(Data("notes: error: \(line)\n".utf8))
            exit(1)
        }
    }

    /// Opens the database `command` names (or the default one) and runs the command, writing what it
    /// prints through `output`, one call per line.
    /// - Parameters:
    ///   - command: what to run, on which database.
    ///   - timeZone: the zone local dates are typed and shown in (the process's in `main`, which honours `TZ`).
    ///   - environment: where ``RecordStore/open(name:folder:environment:)`` reads `XDG_DATA_HOME` and `HOME`
    ///     when `--db` is not given.
    ///   - output: receives each line of standard output.
    /// - Throws: ``NotesError``, `DatabaseError`, or Foundation's error when the default folder cannot be
    ///   created.
    static func run(
        _ command: NotesCommand, timeZone: TimeZone,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        output: (String) -> Void
    ) throws {
        if command.action == .help {
            output(NotesCommand.usage)
            return
        }
        let book = try openBook(command, timeZone: timeZone, environment: environment)
        let dates = book.dates
        switch command.action {
        case .add(let text):
            let note = try book.add(text)
            output("Added the note of \(dates.string(from: note.date))")
        case .search(let text):
            let matches = try book.search(text)
            if matches.isEmpty { output("No note contains \"\(text)\"") }
            for match in matches {
                output("\(dates.string(from: match.record.date))  \(match.excerpt)")
            }
        case .list:
            for note in try book.all() {
                output("\(dates.string(from: note.date))  \(note.content)")
            }
        case .show(let date):
            let note = try book.note(dated: date)
            output(dates.string(from: note.date))
            output(note.content)
        case .edit(let date, let text):
            let note = try book.edit(dated: date, content: text)
            output("Edited the note of \(dates.string(from: note.date))")
        case .remove(let date):
            let removed = try book.remove(dated: date)
            output("Removed the note of \(dates.string(from: removed))")
        case .importList(let path):
            let summary = try book.importList(from: URL(fileURLWithPath: path))
            output(
                "Imported \(summary.imported) note\(summary.imported == 1 ? "" : "s") from \(path); skipped "
                    + "\(summary.skipped) whose date already had a note")
        case .exportList(let path):
            let count = try book.exportList(to: URL(fileURLWithPath: path))
            output("Exported \(count) note\(count == 1 ? "" : "s") to \(path)")
        case .watch:
            throw NotesError.usage("watch runs until interrupted: use Notes.watch, not Notes.run")
        case .help:
            output(NotesCommand.usage)
        }
    }

    /// Opens the notes database `command` names, or the default one.
    /// - Throws: as ``run(_:timeZone:environment:output:)``.
    static func openBook(
        _ command: NotesCommand, timeZone: TimeZone, environment: [String: String]
    ) throws -> NoteBook {
        let queue: DatabaseQueue
        if let path = command.databasePath {
            queue = try RecordStore.open(path: path)
        } else {
            queue = try RecordStore.open(name: databaseFileName, folder: folderName, environment: environment)
        }
        return try NoteBook(queue: queue, dates: NoteDateFormat(timeZone: timeZone))
    }

    /// `notes watch`: prints the notes list, then prints it again each time the notes change, whoever
    /// changes them (this process, or `notes add` in another terminal, found within
    /// ``NoteBook/otherProcessesInterval``). Each list starts with a line `-- N notes`. Runs until the
    /// process is interrupted, or the task that calls it is cancelled.
    /// - Throws: as ``run(_:timeZone:environment:output:)``, or what reading the notes throws.
    static func watch(
        _ command: NotesCommand, timeZone: TimeZone,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        output: @Sendable (String) -> Void
    ) async throws {
        let book = try openBook(command, timeZone: timeZone, environment: environment)
        let dates = book.dates
        for try await notes in book.observeAll() {
            output("-- \(notes.count) note\(notes.count == 1 ? "" : "s")")
            for note in notes {
                output("\(dates.string(from: note.date))  \(note.content)")
            }
        }
    }
}

/// A parsed `notes` command line: the database option and one command.
struct NotesCommand: Equatable {
    /// What to do.
    enum Action: Equatable {
        /// `add TEXT`: a new note dated now.
        case add(text: String)
        /// `list`: every note, oldest first.
        case list
        /// `search WORDS`: the notes holding every word, best match first, the words highlighted.
        case search(text: String)
        /// `show DATE`: one note.
        case show(date: String)
        /// `edit DATE TEXT`: new text for one note.
        case edit(date: String, text: String)
        /// `remove DATE`: delete one note.
        case remove(date: String)
        /// `import FILE.plist`: the legacy list into the database.
        case importList(path: String)
        /// `export FILE.plist`: the database into the legacy format.
        case exportList(path: String)
        /// `watch`: the list, then the list again after each change, until interrupted.
        case watch
        /// `-h`, `--help` or `help`: the usage text.
        case help
    }

    /// `--db PATH`: the database file; nil for the default in the application-support directory.
    var databasePath: String?
    /// The command.
    var action: Action

    /// What `notes --help` prints.
    static let usage = """
        usage: notes [--db PATH] COMMAND
          add TEXT              save a note dated now (to the second)
          list                  every note, oldest first
          search WORDS          the notes that contain every word (any case, any accents), best match first,
                                the words between [ and ]
          show DATE             the note with that date
          edit DATE TEXT        replace the text of the note with that date
          remove DATE           delete the note with that date
          import FILE.plist     save the notes of a legacy property list (XML or binary); dates taken are skipped
          export FILE.plist     write every note to a property list the legacy app reads (replaced atomically)
          watch                 print the list, then again each time a note is added, edited or removed
                                (by any process), until interrupted
        DATE is yyyy-MM-dd HH:mm:ss in local time (quote it: "2024-03-31 10:30:00") or ISO 8601
        (2024-03-31T08:30:00Z, 2024-03-31T10:30:00+02:00).
        --db PATH  the database file (default: notes.sqlite in the SQLiteRecord.Notes folder of the
                   application-support directory: $XDG_DATA_HOME or ~/.local/share on Linux,
                   ~/Library/Application Support on Apple platforms). `--` ends the options, for a TEXT
                   that starts with "-".
        """

    /// Reads the arguments after the program name: options (`--db PATH`, `-h`/`--help`, `--`) come before
    /// the command, then the command's own arguments, exactly as many as it takes.
    /// - Throws: ``NotesError/usage(_:)`` saying what is wrong, in one line.
    static func parse(_ arguments: [String]) throws -> NotesCommand {
        var remaining = arguments[...]
        var databasePath: String?
        options: while let first = remaining.first, first.hasPrefix("-") {
            remaining.removeFirst()
            switch first {
            case "--db":
                guard let path = remaining.popFirst(), !path.isEmpty else {
                    throw NotesError.usage("--db needs a file path")
                }
                databasePath = path
            case "-h", "--help":
                return NotesCommand(databasePath: databasePath, action: .help)
            case "--":
                break options
            default:
                throw NotesError.usage("unknown option \"\(first)\" (see notes --help)")
            }
        }
        guard let name = remaining.popFirst() else {
            throw NotesError.usage(
                "a command is missing: add, list, search, show, edit, remove, import, export or watch (see notes --help)")
        }
        let operands = Array(remaining)
        func take(_ names: String...) throws -> [String] {
            guard operands.count == names.count else {
                let wanted = names.isEmpty ? "no arguments" : names.joined(separator: " ")
                throw NotesError.usage(
                    "\(name) takes \(wanted), not \(operands.count) argument\(operands.count == 1 ? "" : "s")"
                        + (names.contains("TEXT") ? "; quote a TEXT of several words" : ""))
            }
            return operands
        }
        let action: Action
        switch name {
        case "add":
            action = .add(text: try take("TEXT")[0])
        case "list":
            _ = try take()
            action = .list
        case "search":
            guard !operands.isEmpty else { throw NotesError.usage("search takes WORDS, not 0 arguments") }
            action = .search(text: operands.joined(separator: " "))
        case "show":
            action = .show(date: try take("DATE")[0])
        case "edit":
            let values = try take("DATE", "TEXT")
            action = .edit(date: values[0], text: values[1])
        case "remove":
            action = .remove(date: try take("DATE")[0])
        case "import":
            action = .importList(path: try take("FILE.plist")[0])
        case "export":
            action = .exportList(path: try take("FILE.plist")[0])
        case "watch":
            _ = try take()
            action = .watch
        case "help":
            action = .help
        default:
            throw NotesError.usage("unknown command \"\(name)\" (see notes --help)")
        }
        return NotesCommand(databasePath: databasePath, action: action)
    }
}
