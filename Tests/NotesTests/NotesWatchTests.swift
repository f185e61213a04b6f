import Foundation
import XCTest

@testable import Notes

/// `notes watch` in one process while `notes add`, `edit` and `remove` run in others: the watcher prints
/// the list again after each, exactly as `notes list` prints it, under a `-- N notes` line.
final class NotesWatchTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try NotesFixtures.makeTemporaryFolder()
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testParsesWatch() throws {
        XCTAssertEqual(try NotesCommand.parse(["watch"]), NotesCommand(action: .watch))
        XCTAssertThrowsError(try NotesCommand.parse(["watch", "now"])) { error in
            XCTAssertEqual(error as? NotesError, .usage("watch takes no arguments, not 1 argument"))
        }
    }

    func testWatcherPrintsTheListAgainAfterEachChangeOfAnotherProcess() async throws {
        let notes = try NotesExecutable.find()
        let database = folder.appendingPathComponent("watched.sqlite").path
        let watcher = Process()
        watcher.executableURL = notes
        watcher.arguments = ["--db", database, "watch"]
        watcher.environment = ["TZ": "UTC"]
        let lines = LineCollector()
        let pipe = Pipe()
        watcher.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
        try watcher.run()
        defer {
            watcher.terminate()
            watcher.waitUntilExit()
            pipe.fileHandleForReading.readabilityHandler = nil
        }
        try await waitForLines(lines, count: 1)
        XCTAssertEqual(lines.lines, ["-- 0 notes"])

        _ = try runNotes(notes, ["--db", database, "add", "Buy milk"])
        try await waitForLines(lines, count: 3)
        let listed = try runNotes(notes, ["--db", database, "list"])
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(lines.lines, ["-- 0 notes", "-- 1 note"] + listed)

        let date = String(listed[0].prefix(19))
        _ = try runNotes(notes, ["--db", database, "edit", date, "Buy oat milk"])
        try await waitForLines(lines, count: 5)
        XCTAssertEqual(lines.lines.suffix(2), ["-- 1 note", "\(date)  Buy oat milk"])

        _ = try runNotes(notes, ["--db", database, "remove", date])
        try await waitForLines(lines, count: 6)
        XCTAssertEqual(lines.lines.last, "-- 0 notes")
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(lines.lines.count, 6)
    }

    /// Runs `notes` with `arguments` in a process of its own (TZ=UTC) and returns the lines it printed.
    private func runNotes(_ notes: URL, _ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = notes
        process.arguments = arguments
        process.environment = ["TZ": "UTC"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "notes \(arguments)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func waitForLines(_ lines: LineCollector, count: Int) async throws {
        let deadline = Date().addingTimeInterval(10)
        while lines.lines.count < count {
            guard Date() < deadline else {
                XCTFail("the watcher printed \(lines.lines), not \(count) lines, within 10 s")
                return
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

/// The lines a process printed, gathered from its pipe's handler thread. NSLock guards both buffers.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()
    private var complete: [String] = []

    func append(_ data: Data) {
        lock.lock()
        pending.append(data)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
        }
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return complete
    }
}

/// Where the `notes` executable is: beside the test bundle in the build products folder.
enum NotesExecutable {
    static func find() throws -> URL {
        var folders: [URL] = []
        for bundle in [Bundle.main, Bundle(for: BundleMarker.self)] {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
            if let executable = bundle.executableURL { folders.append(executable.deletingLastPathComponent()) }
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent("notes")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        struct NotFound: Error, CustomStringConvertible { let description: String }
        throw NotFound(description: "the notes executable was not found in \(folders.map(\.path)); swift build first")
    }

    private final class BundleMarker {}
}
