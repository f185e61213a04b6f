import XCTest

@testable import SQLiteRecord

final class SelectTextsTests: XCTestCase {
    private func text(
        _ dialect: SQLDialect, table: String = "cities", columns: [String], forms: [Int],
        ordering: [Ordering] = [], limit: Bool = false, offset: Bool = false
    ) -> String {
        SelectTexts.text(
            for: SelectTexts.Form(
                dialect: dialect, table: table, columns: columns, forms: forms, ordering: ordering, hasLimit: limit,
                hasOffset: offset))
    }

    func testTheTextFollowsNullsFormsLimitAndOffset() {
        XCTAssertEqual(text(.sqlite, columns: [], forms: []), "SELECT * FROM \"cities\"")
        XCTAssertEqual(
            text(.sqlite, columns: ["a", "b"], forms: [0, 1], ordering: [.descending("id")], limit: true),
            "SELECT * FROM \"cities\" WHERE \"a\" IS NULL AND \"b\" = ? ORDER BY \"id\" DESC LIMIT ?")
        XCTAssertEqual(
            text(.sqlite, columns: ["a", "b"], forms: [1, 1], ordering: [.descending("id")], limit: true),
            "SELECT * FROM \"cities\" WHERE \"a\" = ? AND \"b\" = ? ORDER BY \"id\" DESC LIMIT ?")
        XCTAssertEqual(
            text(.sqlite, columns: ["a", "b"], forms: [1, 1], ordering: [.descending("id")]),
            "SELECT * FROM \"cities\" WHERE \"a\" = ? AND \"b\" = ? ORDER BY \"id\" DESC")
        XCTAssertEqual(
            text(.sqlite, columns: ["id", "name"], forms: [3, 1], limit: true, offset: true),
            "SELECT * FROM \"cities\" WHERE \"id\" IN (?, ?, ?) AND \"name\" = ? LIMIT ? OFFSET ?")
    }

    func testTheDialectAndTheTableAreOfTheKey() {
        XCTAssertEqual(
            text(.sqlite, columns: ["a", "b"], forms: [1, 1], limit: true),
            "SELECT * FROM \"cities\" WHERE \"a\" = ? AND \"b\" = ? LIMIT ?")
        XCTAssertEqual(
            text(.postgres, columns: ["a", "b"], forms: [1, 1], limit: true),
            "SELECT * FROM \"cities\" WHERE \"a\" = $1 AND \"b\" = $2 LIMIT $3")
        XCTAssertEqual(
            text(.postgres, columns: ["a", "b"], forms: [0, 1], ordering: [.ascending("a")], limit: true, offset: true),
            "SELECT * FROM \"cities\" WHERE \"a\" IS NULL AND \"b\" = $1 ORDER BY \"a\" ASC NULLS FIRST LIMIT $2 OFFSET $3")
        XCTAssertEqual(
            text(.sqlite, table: "towns", columns: ["a", "b"], forms: [1, 1], limit: true),
            "SELECT * FROM \"towns\" WHERE \"a\" = ? AND \"b\" = ? LIMIT ?")
        // The same form on another table is another text: a type whose table name is computed reads the table
        // it names now.
        XCTAssertEqual(
            text(.sqlite, columns: ["a", "b"], forms: [1, 1], limit: true),
            "SELECT * FROM \"cities\" WHERE \"a\" = ? AND \"b\" = ? LIMIT ?")
    }

    func testNullsGoWhereTheOrderingSaysAndByDefaultAsTheSmallestValueOnBothEngines() {
        XCTAssertEqual(
            text(.sqlite, columns: [], forms: [], ordering: [.ascending("a"), .descending("b")]),
            "SELECT * FROM \"cities\" ORDER BY \"a\" ASC, \"b\" DESC")
        XCTAssertEqual(
            text(.postgres, columns: [], forms: [], ordering: [.ascending("a"), .descending("b")]),
            "SELECT * FROM \"cities\" ORDER BY \"a\" ASC NULLS FIRST, \"b\" DESC NULLS LAST")
        XCTAssertEqual(
            text(.sqlite, columns: [], forms: [], ordering: [.ascending("a", nulls: .last)]),
            "SELECT * FROM \"cities\" ORDER BY \"a\" ASC NULLS LAST")
        XCTAssertEqual(
            text(.postgres, columns: [], forms: [], ordering: [.descending("a", nulls: .first)]),
            "SELECT * FROM \"cities\" ORDER BY \"a\" DESC NULLS FIRST")
    }
}
