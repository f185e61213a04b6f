import Foundation
import XCTest

@testable import SQLiteRecord

/// Errors from record calls and opens that say what went wrong and what to do: the column whose parent row is
/// missing, the full-text index to create, the file that was expected, no internal SQL.
final class RecordErrorAdviceTests: XCTestCase {
    private struct Member: Record {
        var id: Int64?
        var name: String
    }

    private struct Note: FullTextSearchable {
        var id: Int64?
        var body: String
        static let tableName = "notes"
        static let fullTextIndex = FullTextIndex(columns: ["body"])
    }

    private let missingParent =
        "FOREIGN KEY constraint failed (City's column \"country_id\" (its value is left out: "
        + "Database.Options.showsArgumentsInErrors shows it) refers to no row of \"countries\" (\"id\"): save the "
        + "parent row first, in the same transaction or before it, or set \"country_id\" to nil)"

    private func makeDatabase(options: Database.Options = .init()) throws -> Database {
        let db = try Database(path: ":memory:", options: options)
        try db.execute(sql: WorldFixtures.schema)
        return db
    }

    func testAnInsertNamesTheColumnWhoseParentIsMissing() throws {
        let db = try makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.insert(db)
        // The first insert of the type makes its plan, the next ones reuse it.
        for attempt in 0..<3 {
            var city = City(id: nil, countryId: 42, name: "Nowhere", population: 1, foundedAt: nil)
            XCTAssertThrowsError(try city.insert(db), "attempt \(attempt)") { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
                XCTAssertEqual((error as? DatabaseError)?.message, missingParent)
            }
            XCTAssertNil(city.id)
            var paris = City(id: nil, countryId: france.id, name: "Paris", population: 1, foundedAt: nil)
            try paris.insert(db)
        }
        XCTAssertEqual(
            try db.scalar(Int.self, sql: "SELECT count(*) FROM cities WHERE country_id = ?", arguments: [france.id]), 3)
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM cities WHERE country_id = 42"), 0)
    }

    func testAnUpdateAndASaveInsideATransaction() throws {
        let db = try makeDatabase(options: .init(showsArgumentsInErrors: true))
        try db.transaction {
            var france = Country(id: nil, name: "France", iso: "FR", population: 1)
            try france.save(db)
            var paris = City(id: nil, countryId: france.id, name: "Paris", population: 1, foundedAt: nil)
            try paris.save(db)
            paris.countryId = 7
            XCTAssertThrowsError(try paris.save(db)) { error in
                XCTAssertEqual(
                    (error as? DatabaseError)?.message,
                    "FOREIGN KEY constraint failed (City's column \"country_id\" = 7 refers to no row of "
                        + "\"countries\" (\"id\"): save the parent row first, in the same transaction or before it, "
                        + "or set \"country_id\" to nil)")
            }
            // The failing statement is undone; the transaction's earlier rows stay.
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT country_id FROM cities"), france.id.map(Int.init))
        }
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM countries"), 1)
    }

    func testSaveOnAMissingTableQuotesNoInternalSQL() throws {
        let db = try Database()
        var member = Member(id: nil, name: "Ann")
        var upserted = Member(id: 1, name: "Ann")
        for (name, call) in [("save", { try member.save(db) }), ("upsert", { _ = try upserted.upsert(db) })] {
            XCTAssertThrowsError(try call(), name) { error in
                XCTAssertEqual(
                    "\(error)",
                    "SQLite error 1 (SQL logic error): no such table: member (the table of Member: create it with "
                        + "Member.createTable(in:) or in a DatabaseMigrator migration, or set Member.tableName to the "
                        + "table's name)", name)
            }
        }
    }

    func testAMissingFullTextTableSaysHowToCreateIt() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        XCTAssertThrowsError(try Note.search("paris").fetch(db)) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "no such table: notes_fts (the full-text index of Note: create it with try "
                    + "Note.createFullTextIndex(in: db), or in a DatabaseMigrator with "
                    + "migrator.registerFullTextIndex(\"...\", for: Note.self), which also fills it from the rows "
                    + "already there)")
        }
        try Note.createFullTextIndex(in: db)
        XCTAssertEqual(try Note.search("paris").fetch(db).count, 0)
    }

    func testOpeningAFolderOrAFileThatIsNotADatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("advice-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let folderMessage =
            "cannot open database at \(folder.path): unable to open database file (\(folder.path) is a folder: "
            + "expected the path of a database file, such as \(folder.path)/db.sqlite, which SQLite creates when "
            + "it is missing)"
        XCTAssertThrowsError(try Database(path: folder.path)) { error in
            XCTAssertEqual("\(error)", "SQLite error 14 (unable to open database file): " + folderMessage)
        }
        XCTAssertThrowsError(try DatabaseQueue(path: folder.path)) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, folderMessage)
        }
        let text = folder.appendingPathComponent("notes.txt")
        let bytes = Data(String(repeating: "not a database. ", count: 10).utf8)
        try bytes.write(to: text)
        let textMessage =
            "cannot open database at \(text.path): file is not a database (the file of 160 bytes does not start "
            + "with the header \"SQLite format 3\": expected an SQLite 3 database file, or a path where none "
            + "exists yet, which SQLite creates; an encrypted database needs the key its library sets before the "
            + "first statement)"
        XCTAssertThrowsError(try Database(path: text.path)) { error in
            XCTAssertEqual("\(error)", "SQLite error 26 (file is not a database): " + textMessage)
        }
        XCTAssertThrowsError(try DatabasePool(path: text.path)) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, textMessage)
        }
        XCTAssertEqual(try Data(contentsOf: text), bytes)
    }
}
