import Foundation
import XCTest

@testable import SQLiteRecord

/// A member as a foreign schema spells its columns: `ID`, `FirstName`, `EMail`.
private struct Member: Record, Equatable {
    var id: Int64?
    var firstName: String
    var email: String?
}

/// Column names match as SQLite matches them: an exact spelling first, then ASCII case-insensitively.
final class ColumnNameMatchingTests: XCTestCase {
    private func memberDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE Member (ID INTEGER PRIMARY KEY, FirstName TEXT NOT NULL, EMail TEXT)")
        try db.execute(sql: "INSERT INTO Member VALUES (1, 'Ann', 'ann@example.org')")
        return db
    }

    private let ann = Member(id: 1, firstName: "Ann", email: "ann@example.org")

    func testAForeignSchemaInAnotherCaseReadsAndWrites() throws {
        let db = try memberDatabase()
        XCTAssertEqual(try Member.fetchOne(db, id: 1), ann)
        XCTAssertEqual(try Member.fetch(db, where: ["firstname": "Ann"]), [ann])
        XCTAssertEqual(try Member.fetch(db, where: ["FIRSTNAME": "Ann"], orderBy: [.ascending("email")]), [ann])
        XCTAssertEqual(try Member.count(db, where: ["FirstName": "Ann"]), 1)
        XCTAssertNoThrow(try Member.validateSchema(in: db))

        var changed = ann
        changed.email = "ann@example.com"
        try changed.update(db)
        var bob = Member(id: nil, firstName: "Bob", email: nil)
        try bob.insert(db)
        XCTAssertEqual(bob.id, 2)
        XCTAssertEqual(
            try Member.fetch(db, where: [:], orderBy: [.ascending("id")]),
            [changed, Member(id: 2, firstName: "Bob", email: nil)])
        // The table keeps its own spelling.
        XCTAssertEqual(try db.columns(in: "member").map(\.name), ["ID", "FirstName", "EMail"])
    }

    func testRawSQLInAnotherCaseDecodes() throws {
        let db = try memberDatabase()
        XCTAssertEqual(try Member.fetch(db, sql: "SELECT id, firstname, email FROM member"), [ann])
        XCTAssertEqual(try Member.fetch(db, sql: "SELECT ID, FIRSTNAME FROM MEMBER"), [Member(id: 1, firstName: "Ann")])
    }

    func testAnExactMatchWinsOverAFoldedOne() throws {
        struct Both: Decodable, Equatable {
            var id: Int
            var ID: Int
        }
        struct Lower: Decodable, Equatable { var id: Int }
        struct Upper: Decodable, Equatable { var ID: Int }
        let db = try Database()
        // A later exact spelling wins over an earlier folded one, in either order.
        XCTAssertEqual(
            try RowDecoder().decodeAll(Lower.self, from: db.makeStatement(sql: "SELECT 1 AS ID, 2 AS id")),
            [
                Lower(id: 2)
            ])
        XCTAssertEqual(
            try RowDecoder().decodeAll(Upper.self, from: db.makeStatement(sql: "SELECT 1 AS id, 2 AS ID")),
            [
                Upper(ID: 2)
            ])
        // Without an exact spelling, the leftmost folded column.
        XCTAssertEqual(
            try RowDecoder().decodeAll(Lower.self, from: db.makeStatement(sql: "SELECT 1 AS Id, 2 AS iD")),
            [
                Lower(id: 1)
            ])
        // Two keys of one type that differ only in case are an error naming both, even where each has a
        // column of its own spelling.
        XCTAssertThrowsError(
            try RowDecoder().decodeAll(Both.self, from: db.makeStatement(sql: "SELECT 1 AS id, 2 AS ID"))
        ) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("expected dataCorrupted, got \(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["ID"])
            XCTAssertEqual(
                context.debugDescription,
                "Coding keys \"id\" and \"ID\" name columns \"id\" and \"ID\", which SQLite takes for one column: it "
                    + "compares column names ASCII case-insensitively. Rename one of the keys (in CodingKeys)")
        }
    }

    func testKeysThatDifferOnlyInCaseAreAnErrorInEveryFetch() throws {
        struct Twice: Record {
            var id: Int64?
            var name: String?
            var Name: String?
            static let tableName = "twice"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE twice (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO twice VALUES (1, 'a')")
        let expected =
            "Coding keys \"name\" and \"Name\" name columns \"name\" and \"Name\" of table \"twice\", which SQLite "
            + "takes for one column: it compares column names ASCII case-insensitively. Rename one of the keys "
            + "(in CodingKeys)"
        for fetch in [
            { _ = try Twice.fetchOne(db, id: 1) }, { _ = try Twice.fetch(db) },
        ] as [() throws -> Void] {
            XCTAssertThrowsError(try fetch()) { error in
                guard case DecodingError.dataCorrupted(let context) = error else {
                    return XCTFail("expected dataCorrupted, got \(error)")
                }
                XCTAssertTrue(context.debugDescription.hasPrefix(expected), context.debugDescription)
            }
        }
        // Raw SQL too, where an Optional key with no column would otherwise decode as nil.
        XCTAssertThrowsError(try Twice.fetch(db, sql: "SELECT id FROM twice")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("expected dataCorrupted, got \(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["Name"])
        }
    }

    func testNonASCIILettersCompareExactly() throws {
        struct Accented: Decodable, Equatable { var é: Int }
        let db = try Database()
        XCTAssertEqual(
            try RowDecoder().decodeAll(Accented.self, from: db.makeStatement(sql: "SELECT 1 AS \"é\"")),
            [
                Accented(é: 1)
            ])
        // SQLite folds only A-Z: "É" is another name, as it is for SQLite itself.
        XCTAssertThrowsError(
            try RowDecoder().decodeAll(Accented.self, from: db.makeStatement(sql: "SELECT 1 AS \"É\""))
        ) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else {
                return XCTFail("expected keyNotFound, got \(error)")
            }
            XCTAssertEqual(key.stringValue, "é")
        }
        try db.execute(sql: "CREATE TABLE t (\"É\" INTEGER)")
        XCTAssertThrowsError(try db.execute(sql: "SELECT \"é\" FROM t")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such column: é")
        }
    }

    func testSnakeCaseKeysMatchUpToCase() throws {
        struct Snake: Decodable, Equatable { var countryId: Int }
        let db = try Database()
        var decoder = RowDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        XCTAssertEqual(
            try decoder.decodeAll(Snake.self, from: db.makeStatement(sql: "SELECT 7 AS COUNTRY_ID")),
            [
                Snake(countryId: 7)
            ])
    }

    func testTheNameIndexPrefersAnExactSpelling() {
        let index = ColumnNameIndex(["ID", "id", "Name", "É"])
        XCTAssertEqual(index.index(of: "id"), 1)
        XCTAssertEqual(index.index(of: "ID"), 0)
        XCTAssertEqual(index.index(of: "iD"), 0)
        XCTAssertEqual(index.index(of: "NAME"), 2)
        XCTAssertNil(index.index(of: "é"))
        XCTAssertTrue(ColumnNameIndex.differOnlyInCase("name", "Name"))
        XCTAssertFalse(ColumnNameIndex.differOnlyInCase("name", "name"))
        XCTAssertFalse(ColumnNameIndex.differOnlyInCase("é", "É"))
    }
}
