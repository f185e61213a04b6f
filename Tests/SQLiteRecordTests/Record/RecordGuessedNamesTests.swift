import Foundation
import SQLiteRecord
import XCTest

/// The calls people guess: the coding-key `where:` forms through the default store, and GRDB's names, which
/// fail to compile with an error that names this library's call.
final class RecordGuessedNamesTests: XCTestCase {
    enum Status: String, Codable, Sendable, CaseIterable { case open, done }

    struct Task: Record, Equatable, Sendable {
        var id: Int64?
        var name: String
        var listId: Int64
        var status: Status
        static let tableName = "tasks"
        enum CodingKeys: String, CodingKey {
            case id, name, status
            case listId = "list_id"
        }
    }

    override func tearDown() {
        RecordStore.reset()
        super.tearDown()
    }

    private func useStore() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Task.createTable(in: db)
            var tasks = [
                Task(id: nil, name: "x", listId: 1, status: .open), Task(id: nil, name: "y", listId: 1, status: .done),
                Task(id: nil, name: "x", listId: 2, status: .done),
            ]
            for index in tasks.indices { try tasks[index].insert(db) }
        }
        try RecordStore.use(queue)
    }

    func testStringAndCodingKeyDictionariesBothCompileAndGiveTheSameRows() throws {
        try useStore()
        XCTAssertEqual(try Task.fetch(where: ["name": "x"], orderBy: [.ascending("id")]).map(\.id), [1, 3])
        XCTAssertEqual(
            try Task.fetch(where: [Task.CodingKeys.name: "x"], orderBy: [.ascending("id")]).map(\.id), [1, 3])
        XCTAssertEqual(try Task.fetchOne(where: [Task.CodingKeys.listId: 2])?.id, 3)
        XCTAssertEqual(try Task.count(where: [Task.CodingKeys.status: Status.done]), 2)
        XCTAssertEqual(try Task.deleteAll(where: [Task.CodingKeys.listId: 1, .status: Status.open]), 1)
        XCTAssertEqual(try Task.count(where: ["list_id": 1]), 1)
    }

    func testCodingKeyDictionariesThroughTheDefaultStoreAwaiting() async throws {
        try useStore()
        let x = try await Task.fetch(where: [Task.CodingKeys.name: "x"], orderBy: [.descending("id")])
        XCTAssertEqual(x.map(\.id), [3, 1])
        let one = try await Task.fetchOne(where: [Task.CodingKeys.status: Status.open])
        XCTAssertEqual(one?.id, 1)
        let counted = try await Task.count(where: [Task.CodingKeys.listId: 1])
        XCTAssertEqual(counted, 2)
        let deleted = try await Task.deleteAll(where: [Task.CodingKeys.name: "x"])
        XCTAssertEqual(deleted, 2)
    }

    /// Each GRDB name a user types from habit is refused at compile time, naming this library's call (a
    /// fix-it renames it where only the name or a label differs). Compiles a snippet with `swiftc -typecheck`
    /// against the module this test was built with (a few seconds).
    func testGRDBNamesFailToCompileNamingOurCalls() throws {
        let snippet = """
            import SQLiteRecord
            struct Item: Record { var id: Int64?; var name: String; static let tableName = "items" }
            func use(_ db: Database) throws {
                _ = try Item.fetchAll(db)
                _ = try Item.fetchOne(db, key: 1)
                _ = try Item.fetchOne(db, key: ["name": "x"])
                _ = try Item.fetchOne(db)
                _ = try Item.fetchCount(db)
                _ = try Item.fetchSet(db)
                _ = try Item.fetchCursor(db)
                _ = try Item.fetchAll(db, keys: [1])
                _ = try Item.fetchAll(db, ids: [1])
                _ = try Item.deleteOne(db, key: 1)
                _ = try Item.deleteOne(db, id: 1)
                _ = try Item.exists(db, key: 1)
                _ = try Item.all().fetchAll(db)
                _ = try Item.all().fetchCount(db)
                _ = try Item.all().fetchSet(db)
            }
            """
        let errors = try typecheckErrors(snippet)
        XCTAssertEqual(
            errors,
            [
                "4: 'fetchAll' has been renamed to 'fetch(_:)': SQLiteRecord's name for GRDB's fetchAll(_:)",
                "5: 'fetchOne(_:key:)' has been renamed to 'fetchOne(_:id:)': SQLiteRecord's name for GRDB's "
                    + "fetchOne(_:key:)",
                "6: 'fetchOne(_:key:)' has been renamed to 'fetchOne(_:where:)': SQLiteRecord's name for GRDB's "
                    + "fetchOne(_:key:) with column values: try Item.fetchOne(db, where: [\"email\": email])",
                "7: 'fetchOne' is unavailable: SQLiteRecord reads one record by id with fetchOne(_:id:), by values "
                    + "with fetchOne(_:where:), and the first of a request with Item.all().fetchOne(db)",
                "8: 'fetchCount' has been renamed to 'count(_:)': SQLiteRecord's name for GRDB's fetchCount(_:)",
                "9: 'fetchSet' is unavailable: SQLiteRecord's call is fetch(_:), an array: Set(try Item.fetch(db)) "
                    + "for a Hashable record",
                "10: 'fetchCursor' is unavailable: SQLiteRecord's cursor comes from a request: "
                    + "try Item.all().fetchCursor(db)",
                "11: 'fetchAll(_:keys:)' has been renamed to 'fetch(_:ids:)': SQLiteRecord's name for GRDB's "
                    + "fetchAll(_:keys:)",
                "12: 'fetchAll(_:ids:)' has been renamed to 'fetch(_:ids:)': SQLiteRecord's name for GRDB's "
                    + "fetchAll(_:ids:)",
                "13: 'deleteOne(_:key:)' has been renamed to 'delete(_:id:)': SQLiteRecord's name for GRDB's "
                    + "deleteOne(_:key:)",
                "14: 'deleteOne(_:id:)' has been renamed to 'delete(_:id:)': SQLiteRecord's name for GRDB's "
                    + "deleteOne(_:id:)",
                "15: 'exists(_:key:)' has been renamed to 'exists(_:id:)': SQLiteRecord's name for GRDB's "
                    + "exists(_:key:)",
                "16: 'fetchAll' has been renamed to 'fetch(_:)': SQLiteRecord's name for GRDB's fetchAll(_:)",
                "17: 'fetchCount' has been renamed to 'count(_:)': SQLiteRecord's name for GRDB's fetchCount(_:)",
                "18: 'fetchSet' is unavailable: SQLiteRecord's call is fetch(_:), an array: "
                    + "Set(try request.fetch(db)) for a Hashable record",
            ])
    }

    /// The errors `swiftc -typecheck` reports for `source`, as `line: message`, once each.
    private func typecheckErrors(_ source: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guessed-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // The test binary sits beside the Modules folder of the build that made it (.build or .build-pg).
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = products.pathExtension == "xctest" ? products.deletingLastPathComponent() : products
        let modules = binary.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("SQLiteRecord.swiftmodule").path)
        else {
            throw XCTSkip("no SQLiteRecord.swiftmodule beside the test binary (\(binary.path)) to compile against")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "-I",
            root.appendingPathComponent("Sources/CSQLiteRecord").path, file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0, output)
        var seen: [String] = []
        for line in output.split(separator: "\n") where line.hasPrefix(file.path + ":") {
            // snippet.swift:4:18: error: message
            let parts = line.dropFirst(file.path.count + 1).split(separator: ":", maxSplits: 3)
            guard parts.count == 4, parts[2] == " error" else { continue }
            let entry = "\(parts[0]): " + parts[3].dropFirst()
            if !seen.contains(entry) { seen.append(entry) }
        }
        return seen
    }
}
