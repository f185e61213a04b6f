import Foundation
import XCTest

@testable import SQLiteRecord

/// A person read without the generated columns.
private struct Person: Record, Equatable {
    var id: Int64?
    var first: String
    var last: String
}

/// A person that reads the generated columns too.
private struct NamedPerson: Record, Equatable {
    var id: Int64?
    var first: String
    var last: String
    var fullName: String?
    var nameLen: Int?
    static let tableName = "person"
    enum CodingKeys: String, CodingKey {
        case id, first, last
        case fullName = "full_name"
        case nameLen = "name_len"
    }
}

/// Generated columns (`GENERATED ALWAYS AS ... VIRTUAL | STORED`) are columns: filtered, sorted, counted,
/// validated and read, and left out of every INSERT and UPDATE.
final class GeneratedColumnsTests: XCTestCase {
    private func personDatabase() throws -> Database {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, first TEXT NOT NULL, last TEXT NOT NULL,
                  full_name TEXT GENERATED ALWAYS AS (first || ' ' || last) VIRTUAL,
                  name_len INTEGER GENERATED ALWAYS AS (length(first) + length(last)) STORED);
                INSERT INTO person (id, first, last) VALUES (1, 'Ada', 'Byron'), (2, 'Alan', 'Turing');
                """)
        return db
    }

    func testGeneratedColumnsFilterSortAndCount() throws {
        let db = try personDatabase()
        XCTAssertEqual(try Person.fetch(db, where: ["full_name": "Alan Turing"]).map(\.id), [2])
        XCTAssertEqual(try Person.fetch(db, orderBy: [.descending("name_len")]).map(\.id), [2, 1])
        XCTAssertEqual(try Person.count(db, where: ["name_len": 10]), 1)
        XCTAssertNoThrow(try Person.validateSchema(in: db))
        XCTAssertNoThrow(try NamedPerson.validateSchema(in: db))
    }

    func testColumnsListsGeneratedColumns() throws {
        let db = try personDatabase()
        let columns = try db.columns(in: "person")
        XCTAssertEqual(columns.map(\.name), ["id", "first", "last", "full_name", "name_len"])
        XCTAssertEqual(columns.map(\.isGenerated), [false, false, false, true, true])
        XCTAssertEqual(columns.map(\.declaredType), ["INTEGER", "TEXT", "TEXT", "TEXT", "INTEGER"])
    }

    func testGeneratedColumnsReadAndAreLeftOutOfWrites() throws {
        let db = try personDatabase()
        XCTAssertEqual(
            try NamedPerson.fetchOne(db, id: 1),
            NamedPerson(id: 1, first: "Ada", last: "Byron", fullName: "Ada Byron", nameLen: 8))

        // Whatever the record holds for them, SQLite computes the generated columns.
        var grace = NamedPerson(id: nil, first: "Grace", last: "Hopper", fullName: "ignored", nameLen: 0)
        try grace.save(db)
        XCTAssertEqual(grace.id, 3)
        XCTAssertEqual(
            try NamedPerson.fetchOne(db, id: 3),
            NamedPerson(id: 3, first: "Grace", last: "Hopper", fullName: "Grace Hopper", nameLen: 11))
        // The next insert and the updates go through the prepared plans, which leave them out too.
        var kay = NamedPerson(id: nil, first: "Kay", last: "McNulty", fullName: nil, nameLen: nil)
        try kay.insert(db)
        grace.last = "Murray Hopper"
        try grace.save(db)
        kay.first = "Kathleen"
        try kay.update(db)
        XCTAssertEqual(
            try NamedPerson.fetch(db, where: ["id": 3]).first?.fullName, "Grace Murray Hopper")
        XCTAssertEqual(try NamedPerson.fetchOne(db, id: 4)?.nameLen, 15)

        let plans = RecordConnectionCache.of(db)
        let type = ObjectIdentifier(NamedPerson.self)
        XCTAssertEqual(
            plans.writePlan(for: type, .insertWithoutID)?.statement.sql,
            "INSERT INTO \"person\" (\"first\", \"last\") VALUES (?, ?)")
        XCTAssertEqual(
            plans.writePlan(for: type, .update)?.statement.sql,
            "UPDATE \"person\" SET \"first\" = ?, \"last\" = ? WHERE \"id\" = ?")
        XCTAssertEqual(plans.writes, 2)
    }

    func testAVirtualTablesHiddenColumnsStayHidden() throws {
        let db = try Database()
        try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(title, body)")
        // FTS5's hidden columns (the table-named column and rank) are not in SELECT *, nor here.
        XCTAssertEqual(try db.columns(in: "docs").map(\.name), ["title", "body"])
    }
}
