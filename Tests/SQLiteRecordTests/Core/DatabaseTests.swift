import Foundation
import SQLiteRecord
import XCTest

final class DatabaseTests: XCTestCase {
    func testSQLErrorCarriesCodeMessageAndSQL() throws {
        let db = try Database()
        XCTAssertThrowsError(try db.execute(sql: "SELECT * FROM nowhere")) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .error)
            XCTAssertEqual(error.message, "no such table: nowhere")
            XCTAssertEqual(error.sql, "SELECT * FROM nowhere")
            XCTAssertEqual(
                error.description,
                "SQLite error 1 (SQL logic error): no such table: nowhere - while executing: SELECT * FROM nowhere")
        }
    }

    func testConstraintErrorHasTheExtendedCodeAndMatchesItsPrimaryCode() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        do {
            try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: [nil])
            XCTFail("expected a NOT NULL violation")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .constraintNotNull)
            XCTAssertEqual(error.resultCode.primary, .constraint)
            XCTAssertTrue(ResultCode.constraint ~= error.resultCode)
            XCTAssertFalse(ResultCode.constraintUnique ~= error.resultCode)
            XCTAssertEqual(error.message, "NOT NULL constraint failed: t.name")
            XCTAssertEqual(error.sql, "INSERT INTO t(name) VALUES (?)")
        }
    }

    func testExecuteRunsScriptsAndSpreadsArgumentsOverTheirStatements() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE t(a, b); -- a comment
                INSERT INTO t VALUES (?, ?);
                INSERT INTO t VALUES (?, 'fixed');
                """,
            arguments: [1, "one", 2])
        let statement = try db.makeStatement(sql: "SELECT a, b FROM t ORDER BY a")
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append([statement.value(at: 0), statement.value(at: 1)]) }
        XCTAssertEqual(rows, [[.integer(1), .text("one")], [.integer(2), .text("fixed")]])
    }

    func testArgumentCountMismatchIsAnErrorBeforeAnythingRuns() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a, b)")
        XCTAssertThrowsError(try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1])) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .range)
        }
        XCTAssertThrowsError(try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, 2, 3])) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .range)
        }
        XCTAssertEqual(try WorldFixtures.rowCount(db, "t"), 0)
    }

    func testForeignKeysAreEnforced() throws {
        let db = try WorldFixtures.makeDatabase()
        let statement = try db.makeStatement(sql: "PRAGMA foreign_keys")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.int64(at: 0), 1)
        XCTAssertThrowsError(
            try db.execute(sql: "INSERT INTO cities(country_id, name, population) VALUES (42, 'x', 1)")
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
        }
    }

    func testOpeningAFileThatIsNotADatabaseThrowsNotADatabase() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let text = String(repeating: "This is a text file, not a database. ", count: 100)
        try Data(text.utf8).write(to: url)
        XCTAssertThrowsError(try Database(path: url.path)) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .notADatabase)
            XCTAssertTrue(error.message.contains(url.path), error.message)
        }
        XCTAssertEqual(try Data(contentsOf: url), Data(text.utf8), "the file is left as it was")
    }

    func testAFileDatabaseKeepsItsRowsAcrossConnections() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let db = try Database(path: url.path)
            try db.execute(sql: WorldFixtures.schema)
            var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
            try japan.save(db)
        }
        let reopened = try Database(path: url.path)
        XCTAssertEqual(try Country.fetchOne(reopened, id: 1)?.name, "Japan")
    }

    func testColumnsInTableAndTableExists() throws {
        let db = try WorldFixtures.makeDatabase()
        let columns = try db.columns(in: "cities")
        XCTAssertEqual(columns.map(\.name), ["id", "country_id", "name", "population", "founded_at"])
        XCTAssertEqual(columns.map(\.declaredType), ["INTEGER", "INTEGER", "TEXT", "INTEGER", "TEXT"])
        XCTAssertEqual(columns.map(\.isNotNull), [false, true, true, true, false])
        XCTAssertEqual(columns.map(\.primaryKeyIndex), [1, 0, 0, 0, 0])
        XCTAssertTrue(try db.tableExists("cities"))
        XCTAssertTrue(try db.tableExists("CITIES"))
        XCTAssertFalse(try db.tableExists("towns"))
        XCTAssertThrowsError(try db.columns(in: "towns")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such table: towns")
        }
    }

    func testColumnsInTableGiveTheirDefaultsAsSQL() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE t(
                    id INTEGER PRIMARY KEY, label TEXT DEFAULT 'unknown', n INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT DEFAULT CURRENT_TIMESTAMP, ratio REAL DEFAULT (1.0 / 3), none)
                """)
        let columns = try db.columns(in: "t")
        XCTAssertEqual(columns.map(\.name), ["id", "label", "n", "created_at", "ratio", "none"])
        XCTAssertEqual(columns.map(\.defaultValueSQL), [nil, "'unknown'", "0", "CURRENT_TIMESTAMP", "1.0 / 3", nil])
        XCTAssertEqual(columns.map(\.declaredType), ["INTEGER", "TEXT", "INTEGER", "TEXT", "REAL", ""])
        XCTAssertEqual(columns.map(\.isNotNull), [false, false, true, false, false, false])
        XCTAssertEqual(columns.map(\.affinity), [.integer, .text, .integer, .text, .real, .blob])
    }
}
