import Foundation
import SQLiteRecord
import XCTest

@testable import Notes

/// The command line: parsing by hand, and each command run end to end on a database file.
final class NotesCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try NotesFixtures.makeTemporaryFolder()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testParsesEveryCommand() throws {
        XCTAssertEqual(try NotesCommand.parse(["add", "Buy milk"]), NotesCommand(action: .add(text: "Buy milk")))
        XCTAssertEqual(
            try NotesCommand.parse(["--db", "n.sqlite", "list"]),
            NotesCommand(databasePath: "n.sqlite", action: .list))
        XCTAssertEqual(
            try NotesCommand.parse(["show", "2024-01-08 09:15:00"]),
            NotesCommand(action: .show(date: "2024-01-08 09:15:00")))
        XCTAssertEqual(
            try NotesCommand.parse(["edit", "2024-01-08 09:15:00", "New"]),
            NotesCommand(action: .edit(date: "2024-01-08 09:15:00", text: "New")))
        XCTAssertEqual(
            try NotesCommand.parse(["remove", "2024-01-08T08:15:00Z"]),
            NotesCommand(action: .remove(date: "2024-01-08T08:15:00Z")))
        XCTAssertEqual(
            try NotesCommand.parse(["import", "a.plist"]), NotesCommand(action: .importList(path: "a.plist")))
        XCTAssertEqual(
            try NotesCommand.parse(["export", "b.plist"]), NotesCommand(action: .exportList(path: "b.plist")))
        XCTAssertEqual(try NotesCommand.parse(["--help"]), NotesCommand(action: .help))
        XCTAssertEqual(try NotesCommand.parse(["--", "add", "-x"]), NotesCommand(action: .add(text: "-x")))
        XCTAssertEqual(try NotesCommand.parse(["add", "-x"]), NotesCommand(action: .add(text: "-x")))
    }

    func testRefusesMalformedCommandLinesInOneLine() {
        let cases: [([String], String)] = [
            ([], "a command is missing: add, list, search, show, edit, remove, import, export or watch (see notes --help)"),
            (["--db"], "--db needs a file path"),
            (["--verbose", "list"], "unknown option \"--verbose\" (see notes --help)"),
            (["frobnicate"], "unknown command \"frobnicate\" (see notes --help)"),
            (["add", "Buy", "milk"], "add takes TEXT, not 2 arguments; quote a TEXT of several words"),
            (["list", "all"], "list takes no arguments, not 1 argument"),
            (["edit", "2024-01-08 09:15:00"], "edit takes DATE TEXT, not 1 argument; quote a TEXT of several words"),
        ]
        for (arguments, message) in cases {
            XCTAssertThrowsError(try NotesCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(error as? NotesError, .usage(message))
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    func testRunsEachCommandOnADatabaseFile() throws {
        let database = folder.appendingPathComponent("notes.sqlite").path
        let exported = folder.appendingPathComponent("out.plist").path
        let paris = try NotesFixtures.paris()
        func run(_ arguments: String...) throws -> [String] {
            var lines: [String] = []
            try Notes.run(
                NotesCommand.parse(["--db", database] + arguments), timeZone: paris, output: { lines.append($0) })
            return lines
        }
        XCTAssertEqual(
            try run("import", NotesFixtures.shippedList.path),
            ["Imported 20 notes from \(NotesFixtures.shippedList.path); skipped 0 whose date already had a note"])
        XCTAssertEqual(
            try run("import", NotesFixtures.shippedList.path),
            ["Imported 0 notes from \(NotesFixtures.shippedList.path); skipped 20 whose date already had a note"])
        let listed = try run("list")
        XCTAssertEqual(listed.count, 20)
        XCTAssertEqual(listed.first, "2024-01-08 09:15:00  Renew the library card before Friday.")
        XCTAssertEqual(
            try run("show", "2024-04-03 13:30:00"),
            ["2024-04-03 13:30:00", "Compare: 3 < 5 & 7 > 2, and <b>bold</b> is not markup here."])
        XCTAssertEqual(
            try run("edit", "2024-04-03T11:30:00Z", "Edited"), ["Edited the note of 2024-04-03 13:30:00"])
        XCTAssertEqual(try run("show", "2024-04-03 13:30:00"), ["2024-04-03 13:30:00", "Edited"])
        XCTAssertEqual(try run("remove", "2024-04-03 13:30:00"), ["Removed the note of 2024-04-03 13:30:00"])
        XCTAssertThrowsError(try run("remove", "2024-04-03 13:30:00")) { error in
            XCTAssertEqual("\(error)", "no note has the date 2024-04-03 13:30:00")
        }
        XCTAssertEqual(try run("export", exported), ["Exported 19 notes to \(exported)"])
        let added = try run("add", "Fresh")
        XCTAssertEqual(added.count, 1)
        XCTAssertTrue(added[0].hasPrefix("Added the note of "), added[0])
        XCTAssertEqual(try run("list").count, 20)
    }

    func testWithoutDbTheDatabaseIsInTheApplicationSupportDirectory() throws {
        #if os(Linux)
            let environment = ["XDG_DATA_HOME": folder.path, "HOME": "/nonexistent"]
            var lines: [String] = []
            try Notes.run(
                NotesCommand(action: .add(text: "Hello")), timeZone: try NotesFixtures.paris(),
                environment: environment, output: { lines.append($0) })
            RecordStore.reset()
            let expected = folder.appendingPathComponent("SQLiteRecord.Notes/notes.sqlite").path
            XCTAssertTrue(FileManager.default.fileExists(atPath: expected), expected)
            let queue = try DatabaseQueue(path: expected)
            XCTAssertEqual(try queue.read { db in try Note.fetch(db).map(\.content) }, ["Hello"])
        #else
            throw XCTSkip("Apple platforms take Application Support from FileManager, not the environment")
        #endif
    }
}
