#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// DESIGN.md's rule for a key the row has no column for, on PostgreSQL as on SQLite: where the library wrote
/// the SELECT from the record's table, an Optional key with no column is `keyNotFound` (a misspelt key fails at
/// the first fetch instead of reading nil forever); in raw SQL and a request's own selection it decodes as
/// nil, so partial SELECTs work.
final class PostgresMissingOptionalColumnTests: PostgresTestCase {
    /// `nickname` is no column of `people`.
    struct Person: Record, Equatable {
        var id: Int64?
        var name: String
        var nickname: String?
        static let tableName = "people"
    }

    /// The same table read through a row initializer that asks for `nickname` by name.
    struct PersonRow: Record, FetchableRecord, Equatable {
        var id: Int64?
        var name: String
        var nickname: String?
        static let tableName = "people"
        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["name", as: String.self]
            nickname = try row["nickname", as: String?.self]
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try connection.execute("CREATE TABLE people (id bigserial PRIMARY KEY, name text NOT NULL)")
        try connection.execute("INSERT INTO people (name) VALUES ('Ada')")
    }

    private func assertKeyNotFound<T>(
        _ expression: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else {
                return XCTFail("expected keyNotFound, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(key.stringValue, "nickname", file: file, line: line)
            XCTAssertEqual(
                context.debugDescription, "No column \"nickname\" in the row; it has \"id\", \"name\"",
                file: file, line: line)
        }
    }

    func testTableBackedFetchesThrowKeyNotFoundForAnOptionalKeyWithNoColumn() throws {
        assertKeyNotFound(try Person.fetch(connection))
        assertKeyNotFound(try Person.fetch(connection, where: ["name": "Ada"]))
        assertKeyNotFound(try Person.fetchOne(connection, id: 1))
        assertKeyNotFound(try Person.filter(Column("name") == "Ada").fetch(connection))
        assertKeyNotFound(try Person.all().fetchOne(connection))
    }

    func testRawSQLAndAnOwnSelectionDecodeAnOptionalKeyWithNoColumnAsNil() throws {
        XCTAssertEqual(
            try Person.fetch(connection, sql: "SELECT id, name FROM people"), [Person(id: 1, name: "Ada", nickname: nil)])
        XCTAssertEqual(
            try connection.query("SELECT id, name FROM people").decode(Person.self),
            [Person(id: 1, name: "Ada", nickname: nil)])
        XCTAssertEqual(
            try Person.select(Column("id"), Column("name")).fetch(connection), [Person(id: 1, name: "Ada", nickname: nil)])
    }

    func testARowInitializersOptionalReadByNameFollowsTheSameRule() throws {
        assertKeyNotFound(try PersonRow.fetch(connection))
        assertKeyNotFound(try PersonRow.fetchOne(connection, id: 1))
        XCTAssertEqual(try PersonRow.fetch(connection, sql: "SELECT id, name FROM people").map(\.name), ["Ada"])
        XCTAssertEqual(try PersonRow.fetch(connection, sql: "SELECT id, name FROM people").map(\.nickname), [nil])
    }

    func testThePoolsFetchesFollowTheSameRule() async throws {
        do {
            _ = try await Person.fetch(pool, where: ["name": "Ada"])
            XCTFail("fetch(where:) decoded a key with no column")
        } catch DecodingError.keyNotFound(let key, _) {
            XCTAssertEqual(key.stringValue, "nickname")
        }
        let rows = try await Person.fetch(pool, sql: "SELECT id, name FROM people")
        XCTAssertEqual(rows, [Person(id: 1, name: "Ada", nickname: nil)])
    }
}
#endif
