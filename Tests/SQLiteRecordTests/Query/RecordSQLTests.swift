import XCTest

@testable import SQLiteRecord

final class RecordSQLTests: XCTestCase {
    func testIdentifiersAreAlwaysQuoted() {
        XCTAssertEqual(SQLIdentifier.quoted("order"), "\"order\"")
        XCTAssertEqual(SQLIdentifier.quoted("a\"b"), "\"a\"\"b\"")
        XCTAssertEqual(SQLIdentifier.quoted(""), "\"\"")
    }

    func testInsertUpdateDeleteSQL() {
        XCTAssertEqual(
            RecordSQL.insert(into: "cities", columns: ["name", "group"]),
            "INSERT INTO \"cities\" (\"name\", \"group\") VALUES (?, ?)")
        XCTAssertEqual(RecordSQL.insert(into: "t", columns: []), "INSERT INTO \"t\" DEFAULT VALUES")
        XCTAssertEqual(
            RecordSQL.update("cities", columns: ["name", "desc"], primaryKey: "id"),
            "UPDATE \"cities\" SET \"name\" = ?, \"desc\" = ? WHERE \"id\" = ?")
        XCTAssertEqual(RecordSQL.delete(from: "order", primaryKey: "id"), "DELETE FROM \"order\" WHERE \"id\" = ?")
        XCTAssertEqual(
            RecordSQL.selectOne(from: "cities", primaryKey: "id"), "SELECT * FROM \"cities\" WHERE \"id\" = ?")
    }

    /// The `where:` dictionary forms are requests: the same SQL text as before they were.
    func testSelectWithConditionsOrderingAndLimit() throws {
        struct Place: Record {
            var id: Int64?
            static let tableName = "cities"
        }
        struct Plain: Record {
            var id: Int64?
            static let tableName = "t"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cities (id INTEGER PRIMARY KEY, name, country_id, founded_at, population)")
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a)")
        let query = try Place.request(
            where: ["name": "Paris", "country_id": 3, "founded_at": nil],
            orderBy: [.descending("population"), .ascending("name")], limit: 10
        ).compiled(db, .select)
        XCTAssertEqual(
            query.sql,
            "SELECT * FROM \"cities\" WHERE \"country_id\" = ? AND \"founded_at\" IS NULL AND \"name\" = ? "
                + "ORDER BY \"population\" DESC, \"name\" ASC LIMIT ?")
        XCTAssertEqual(query.arguments.values, [.integer(3), .text("Paris"), .integer(10)])
        XCTAssertEqual(try Plain.request(where: [:]).compiled(db, .select).sql, "SELECT * FROM \"t\"")
        XCTAssertEqual(
            try Plain.request(where: ["a": 1]).compiled(db, .count),
            SQLQuery(sql: "SELECT count(*) FROM \"t\" WHERE \"a\" = ?", arguments: [1]))
    }

    func testReservedWordsWorkAsTableAndColumnNames() throws {
        struct Entry: Record, Equatable {
            var id: Int64?
            var order: Int
            var group: String
            var desc: String?
            static let tableName = "select"
        }
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE \"select\" (id INTEGER PRIMARY KEY, \"order\" INTEGER, \"group\" TEXT, \"desc\" TEXT)")
        var entry = Entry(id: nil, order: 2, group: "a\"b", desc: nil)
        try entry.save(db)
        entry.desc = "it's"
        try entry.save(db)
        XCTAssertEqual(try Entry.fetch(db, where: ["group": "a\"b"], orderBy: [.descending("order")]), [entry])
        XCTAssertTrue(try entry.delete(db))
    }
}
