import Foundation
import SQLiteRecord
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class FetchTests: XCTestCase {
    private func makeCities() throws -> Database {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE cities(id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER, founded_at TEXT);
                INSERT INTO cities VALUES (1, 'Tokyo', 9733276, NULL), (2, 'Paris', 2138551, '0250-01-01'),
                                          (3, 'Lyon', 522969, NULL);
                """)
        return db
    }

    func testFetchAllAndFetchOne() throws {
        let db = try makeCities()
        let rows = try db.fetchAll(
            sql: "SELECT name, population FROM cities WHERE population > ? ORDER BY population DESC",
            arguments: [1_000_000])
        XCTAssertEqual(
            rows, [["name": "Tokyo", "population": 9_733_276], ["name": "Paris", "population": 2_138_551]])
        XCTAssertEqual(try rows.map { try $0["name", as: String.self] }, ["Tokyo", "Paris"])
        XCTAssertEqual(try db.fetchAll(sql: "SELECT * FROM cities WHERE id < 0"), [])

        let paris = try XCTUnwrap(
            try db.fetchOne(sql: "SELECT * FROM cities WHERE name = :name", arguments: ["name": "Paris"]))
        XCTAssertEqual(paris.columnNames, ["id", "name", "population", "founded_at"])
        XCTAssertEqual(paris.values, [2, "Paris", 2_138_551, "0250-01-01"])
        XCTAssertNil(try db.fetchOne(sql: "SELECT * FROM cities WHERE name = 'Rome'"))
        // fetchOne stops after one row and resets the statement: no read lock is left behind.
        XCTAssertEqual(try db.fetchOne(sql: "SELECT id FROM cities ORDER BY id")?.values, [1])
        XCTAssertFalse(try db.cachedStatement(sql: "SELECT id FROM cities ORDER BY id").isBusy)
    }

    func testScalar() throws {
        let db = try makeCities()
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM cities"), 3)
        XCTAssertEqual(try db.scalar(Int64.self, sql: "SELECT sum(population) FROM cities"), 12_394_796)
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT name FROM cities WHERE id = ?", arguments: [3]), "Lyon")
        XCTAssertEqual(try db.scalar(Double.self, sql: "SELECT avg(population) FROM cities WHERE id < 3"), 5_935_913.5)
        XCTAssertNil(try db.scalar(String.self, sql: "SELECT name FROM cities WHERE id = 99"), "no row")
        XCTAssertNil(try db.scalar(Date.self, sql: "SELECT founded_at FROM cities WHERE id = 1"), "NULL")
        XCTAssertNil(try db.scalar(Int.self, sql: "DELETE FROM cities WHERE id = 99"), "no column")
        XCTAssertThrowsError(try db.scalar(Int.self, sql: "SELECT name FROM cities WHERE id = 1")) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .mismatch)
            XCTAssertEqual(error.message, "column \"name\" holds TEXT 'Tokyo', which does not convert exactly to Int")
            XCTAssertEqual(error.sql, "SELECT name FROM cities WHERE id = 1")
        }
    }

    func testTheConveniencesFMDBUsersWrapByHand() throws {
        let db = try makeCities()
        // executeUpdate, then rowCount / changes
        try db.execute(
            sql: "UPDATE cities SET population = population + 1 WHERE population < ?", arguments: [3_000_000])
        XCTAssertEqual(db.changesCount, 2)
        try db.execute(sql: "INSERT INTO cities(name) VALUES (:name)", arguments: ["name": "Kyoto"])
        XCTAssertEqual(db.lastInsertedRowID, 4)
        // executeScalar
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT population FROM cities WHERE id = 3"), 522_970)
    }

    func testACursorReadsRowsOneAtATime() throws {
        let db = try makeCities()
        let cursor = try db.fetchCursor(sql: "SELECT id, name FROM cities WHERE id >= ? ORDER BY id", arguments: [2])
        XCTAssertEqual(cursor.columnNames, ["id", "name"])
        XCTAssertEqual(try cursor.next(), ["id": 2, "name": "Paris"])
        XCTAssertEqual(try cursor.next(), ["id": 3, "name": "Lyon"])
        XCTAssertNil(try cursor.next())
        XCTAssertNil(try cursor.next(), "an exhausted cursor stays exhausted")

        var names: [String] = []
        // swift-format-ignore: ReplaceForEachWithForLoop
        // A cursor is not a Sequence (its iteration throws): forEach is its own method.
        try db.fetchCursor(sql: "SELECT name FROM cities ORDER BY id").forEach {
            names.append(try $0[0, as: String.self])
        }
        XCTAssertEqual(names, ["Tokyo", "Paris", "Lyon"])
    }

    func testTwoCursorsOnTheSameSQLAreIndependent() throws {
        let db = try makeCities()
        let sql = "SELECT id FROM cities WHERE id >= ? ORDER BY id"
        let first = try db.fetchCursor(sql: sql, arguments: [1])
        let second = try db.fetchCursor(sql: sql, arguments: [3])
        XCTAssertEqual(try second.next()?.values, [3])
        XCTAssertEqual(try first.next()?.values, [1])
        XCTAssertEqual(try first.next()?.values, [2])
        XCTAssertNil(try second.next())
        XCTAssertEqual(try first.next()?.values, [3])
    }

    func testAClosedOrReleasedCursorHandsItsStatementBack() throws {
        let db = try makeCities()
        let sql = "SELECT id FROM cities ORDER BY id"
        let cursor = try db.fetchCursor(sql: sql)
        XCTAssertEqual(try cursor.next()?.values, [1])
        XCTAssertFalse(
            try db.cachedStatement(sql: sql) === db.cachedStatement(sql: sql),
            "while the cursor holds the cached statement, each call gets a fresh one")
        cursor.close()
        XCTAssertNil(try cursor.next())
        XCTAssertTrue(try db.cachedStatement(sql: sql) === db.cachedStatement(sql: sql), "back in the cache")

        let other = "SELECT name FROM cities"
        do {
            let abandoned = try db.fetchCursor(sql: other)
            XCTAssertEqual(try abandoned.next()?.values, ["Tokyo"])
        }
        let statement = try db.cachedStatement(sql: other)
        XCTAssertFalse(statement.isBusy, "reset when the cursor was released")
        XCTAssertTrue(statement === (try db.cachedStatement(sql: other)))
    }

    func testACursorThatFailsMidwayThrowsOnceThenEnds() throws {
        let db = try Database()
        let sql = """
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5)
            SELECT CASE WHEN x = 3 THEN abs(-9223372036854775807 - 1) ELSE x END FROM c
            """
        let cursor = try db.fetchCursor(sql: sql)
        XCTAssertEqual(try cursor.next()?.values, [1])
        XCTAssertEqual(try cursor.next()?.values, [2])
        XCTAssertThrowsError(try cursor.next()) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "integer overflow")
            XCTAssertEqual((error as? DatabaseError)?.sql, sql)
        }
        XCTAssertNil(try cursor.next())
        // The statement is not left broken in the cache.
        let again = try db.fetchCursor(sql: sql)
        XCTAssertEqual(try again.next()?.values, [1])
    }

    func testACursorKeepsMemoryFlatOver235000Rows() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE geonames(id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL);
                WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 235000)
                INSERT INTO geonames SELECT x, printf('city-%0100d', x), x % 1000 FROM c;
                """)
        let before = residentBytes()
        var peak = before
        var count = 0
        var population = 0
        let cursor = try db.fetchCursor(sql: "SELECT id, name, population FROM geonames ORDER BY id")
        while let row = try cursor.next() {
            count += 1
            population += try row[2, as: Int.self]
            if count % 5_000 == 0 { peak = max(peak, residentBytes()) }
        }
        XCTAssertEqual(count, 235_000)
        XCTAssertEqual(population, 117_382_500)
        #if os(Linux)
            // Holding the rows would take well over 50 MB (235,000 names of 105 bytes, plus a Row each).
            XCTAssertLessThan(peak - before, 8_000_000, "resident memory grew by \(peak - before) bytes")
        #endif
    }

    /// The process's resident memory in bytes, from /proc/self/statm on Linux; 0 elsewhere.
    private func residentBytes() -> Int {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return 0
        #endif
    }
}
