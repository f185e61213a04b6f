import Dispatch
import Foundation
import SQLiteRecord
import XCTest

/// Defects a first-time user found by hostile input: each test pins the fix.
final class UserReportedDefectsTests: XCTestCase {
    override func tearDown() {
        RecordStore.reset()
    }

    func testAPrimaryKeyColumnTheTableLacksIsAnErrorNotAnEmptyResult() throws {
        struct CityTypo: Record {
            var id: Int64?
            var name: String
            static let tableName = "cr"
            enum CodingKeys: String, CodingKey {
                case id = "city_id"
                case name
            }
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cr(city_id INTEGER PRIMARY KEY, name TEXT); INSERT INTO cr VALUES (1, 'a')")
        // Without primaryKeyColumn the key column is "id", which the table lacks: an error that names both,
        // before any SQL runs, never a comparison with the text 'id'.
        for call in [
            { _ = try CityTypo.fetchOne(db, id: 1) }, { _ = try CityTypo.exists(db, id: 1) },
            { _ = try CityTypo(id: 1, name: "b").delete(db) },
        ] as [() throws -> Void] {
            XCTAssertThrowsError(try call()) { error in
                XCTAssertEqual(
                    error as? RecordError, .unknownColumn(table: "cr", column: "id", columns: ["city_id", "name"]))
            }
        }
    }

    func testANestedWriteThroughAnotherDispatchQueueThrowsInsteadOfDeadlocking() throws {
        let queue = try DatabaseQueue()
        let hop = DispatchQueue(label: "hop")
        try queue.write { _ in
            XCTAssertThrowsError(try hop.sync { try queue.write { _ in } }) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            }
            XCTAssertThrowsError(try hop.sync { try queue.read { _ in } })
        }
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT 1") }, 1)
    }

    func testInvalidUTF8TextIsAnErrorNotAReplacement() throws {
        struct Named: Decodable {
            var name: String
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(name TEXT); INSERT INTO t VALUES (CAST(x'61FF62' AS TEXT))")
        XCTAssertThrowsError(try db.fetchOne(Named.self, sql: "SELECT name FROM t")) { error in
            guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                context.debugDescription,
                "Expected String but column \"name\" holds TEXT 'a\u{FFFD}b', which is not valid UTF-8")
        }
    }

    func testNaNIsRefusedWhenBoundNeverStoredAsNull() throws {
        struct Scored: Record {
            var id: Int64?
            var score: Double
            static let tableName = "scored"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE scored(id INTEGER PRIMARY KEY, score REAL)")
        XCTAssertThrowsError(try db.execute(sql: "INSERT INTO scored(score) VALUES (?)", arguments: [Double.nan])) {
            error in XCTAssertEqual((error as? DatabaseError)?.resultCode, .mismatch)
        }
        XCTAssertThrowsError(try Scored.count(db, where: ["score": Double.nan]))
        XCTAssertEqual(try Scored.count(db), 0)
    }

    func testANaNDateErrorCanBePrinted() throws {
        struct Event: Record {
            var id: Int64?
            var at: Date
            static let tableName = "events"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE events(id INTEGER PRIMARY KEY, at TEXT)")
        var event = Event(id: nil, at: Date(timeIntervalSince1970: .nan))
        XCTAssertThrowsError(try event.save(db)) { error in
            XCTAssertEqual("\(error)".contains("Cannot store a NaN date in column \"at\" of table \"events\""), true)
        }
    }

    func testABodyThatCommitsItselfGetsAClearErrorAndCommitsNothing() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        XCTAssertThrowsError(try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1); COMMIT") }) {
            error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintCommitHook)
            XCTAssertTrue(
                (error as? DatabaseError)?.message.contains("so it would have committed on its own") == true)
        }
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM t") }, 0)
    }

    func testDecimalURLAndEnumsWorkInFilters() throws {
        enum Status: String, Codable, SQLiteValueConvertible { case active, retired }
        struct Account: Record, Equatable {
            var id: Int64?
            var balance: Decimal
            var site: URL
            var status: Status
            static let tableName = "accounts"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance TEXT, site TEXT, status TEXT)")
        let site = try XCTUnwrap(URL(string: "https://example.org/a"))
        var account = Account(id: nil, balance: try XCTUnwrap(Decimal(string: "19.99")), site: site, status: .active)
        try account.save(db)
        XCTAssertEqual(try Account.fetch(db, where: ["balance": Decimal(string: "19.99")]), [account])
        XCTAssertEqual(try Account.fetch(db, where: ["site": site, "status": Status.active]), [account])
        XCTAssertEqual(try Account.count(db, where: ["status": Status.retired]), 0)
    }

    func testABadTemplateNeverReachesTheDestination() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-template-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bad = folder.appendingPathComponent("bad.sqlite")
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: bad)
        let destination = folder.appendingPathComponent("copy/world.sqlite")
        XCTAssertThrowsError(try RecordStore.open(copyingTemplate: bad, to: destination)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .notADatabase)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: destination.deletingLastPathComponent().path), [])

        // A WAL template whose last commit is still in its -wal file: the copy includes it.
        let good = folder.appendingPathComponent("good.sqlite")
        let writer = try Database(path: good.path, options: Database.Options(journalMode: .wal))
        try writer.execute(sql: "CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('Ada')")
        XCTAssertTrue(FileManager.default.fileExists(atPath: good.path + "-wal"))
        let queue = try RecordStore.open(copyingTemplate: good, to: destination)
        XCTAssertEqual(try queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM people") }, ["Ada"])
        _ = writer
    }
}

final class ColumnNameCaseTests: XCTestCase {
    func testColumnNamesMatchCaseInsensitivelyInASCIIOnly() throws {
        struct Accent: Record {
            var id: Int64?
            var é: Int
            static let tableName = "accents"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE accents(id INTEGER PRIMARY KEY, \"é\" INTEGER, Name TEXT)")
        var row = Accent(id: nil, é: 1)
        try row.save(db)
        XCTAssertEqual(try Accent.count(db, where: ["é": 1]), 1)
        XCTAssertEqual(try Accent.count(db, where: ["NAME": nil]), 1, "ASCII letters fold, as in SQLite")
        // SQLite does not fold "É" to "é": the check refuses it instead of letting SQLite fail on it.
        XCTAssertThrowsError(try Accent.count(db, where: ["É": 1])) { error in
            guard case .unknownColumn(_, let column, _)? = error as? RecordError else { return XCTFail("\(error)") }
            XCTAssertEqual(column, "É")
        }
    }
}
