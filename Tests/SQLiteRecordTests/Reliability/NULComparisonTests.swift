import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecord

/// Equalities, IN lists and `collating(.nocase)` with text that holds U+0000 match the rows whose whole text
/// is equal under the column's collation (NOCASE compares past U+0000, where SQLite's `sqlite3StrNICmp` stops),
/// and `like`/`notLike` judge the whole stored text; a delete by such a filter deletes only those rows.
final class NULComparisonTests: XCTestCase {
    private struct Name: Record, Equatable {
        var id: Int64?
        var name: String?
        var plain: String?
        var trimmed: String?
        static let tableName = "names"
    }

    /// Stored texts: each of the three columns holds the same text, under NOCASE, BINARY and RTRIM.
    static let stored: [String] = [
        "x\u{0}y", "x\u{0}z", "X\u{0}Y", "x\u{0}Y", "xy", "x\u{0}yy", "q\u{0}y", "x\u{0}y ", "x", "ab\u{0}",
        "\u{0}", "\u{0}\u{0}", "\u{1}\u{0}", "a\u{0}b\u{0}c", "A\u{0}B\u{0}D", "x\u{0}%y", "é\u{0}É",
    ]

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, plain TEXT,
                    trimmed TEXT COLLATE RTRIM);
                CREATE INDEX names_name ON names (name);
                """)
        for (index, text) in Self.stored.enumerated() {
            var row = Name(id: Int64(index + 1), name: text, plain: text, trimmed: text)
            try row.insert(db)
        }
        var empty = Name(id: Int64(Self.stored.count + 1), name: nil, plain: nil, trimmed: nil)
        try empty.insert(db)
        return db
    }

    private func ids(_ db: Database, _ condition: SQLExpression) throws -> [Int64] {
        try Name.filter(condition).order(Column("id")).fetch(db).compactMap(\.id)
    }

    /// The rows whose text is `text` with ASCII letters in either case, NUL or not (1-based ids).
    private static func nocaseIDs(_ text: String) -> [Int64] {
        stored.indices.filter { folded(stored[$0]) == folded(text) }.map { Int64($0 + 1) }
    }

    private static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    func testEqualityOnANOCASEColumnComparesPastNUL() throws {
        let db = try makeDatabase()
        // NOCASE alone also matched "x\0z": the same length, a NUL at the same place.
        XCTAssertEqual(try ids(db, Column("name") == "x\u{0}y"), [1, 3, 4])
        XCTAssertEqual(try ids(db, Column("name") != "x\u{0}y"), [2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
        XCTAssertEqual(try ids(db, Column("name") == "a\u{0}b\u{0}C"), [14])
        XCTAssertEqual(try ids(db, Column("name") == "\u{0}"), [11])
        XCTAssertEqual(try ids(db, Column("name") == "\u{0}\u{0}"), [12])
        // é and É are not ASCII: NOCASE tells them apart, before and after the NUL.
        XCTAssertEqual(try ids(db, Column("name") == "é\u{0}é"), [])
        XCTAssertEqual(try ids(db, Column("name") == "é\u{0}É"), [17])
        for text in Self.stored {
            XCTAssertEqual(try ids(db, Column("name") == text), Self.nocaseIDs(text), text.debugDescription)
            XCTAssertEqual(try Name.filter(Column("name") == text).count(db), Self.nocaseIDs(text).count)
        }
    }

    func testEqualityUnderOtherCollationsIsUnchanged() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try ids(db, Column("plain") == "x\u{0}y"), [1])
        XCTAssertEqual(try ids(db, Column("plain") == "X\u{0}y"), [])
        // RTRIM sets trailing spaces aside, after a NUL too.
        XCTAssertEqual(try ids(db, Column("trimmed") == "x\u{0}y"), [1, 8])
        XCTAssertEqual(try ids(db, Column("trimmed").collating(.binary) == "x\u{0}y"), [1])
        XCTAssertEqual(try ids(db, Column("name").collating(.binary) == "x\u{0}y"), [1])
    }

    func testCollatingNOCASEComparesPastNUL() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try ids(db, Column("plain").collating(.nocase) == "x\u{0}y"), [1, 3, 4])
        XCTAssertEqual(try ids(db, Column("plain").collating(.nocase) == "A\u{0}b\u{0}d"), [15])
        XCTAssertEqual(try ids(db, Column("trimmed").collating(.nocase) == "x\u{0}Y"), [1, 3, 4])
        XCTAssertEqual(
            try ids(db, Column("plain").collating(.nocase) != "x\u{0}y"),
            [2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
    }

    func testInListsComparePastNUL() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try ids(db, Column("name").in(["x\u{0}y", "xy"])), [1, 3, 4, 5])
        XCTAssertEqual(try ids(db, Column("name").in(["x\u{0}y", "a\u{0}b\u{0}c"])), [1, 3, 4, 14])
        XCTAssertEqual(
            try ids(db, Column("name").notIn(["x\u{0}y", "xy"])), [2, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
        XCTAssertEqual(try ids(db, Column("plain").in(["x\u{0}y", "XY"])), [1])
        XCTAssertEqual(try ids(db, Column("plain").collating(.nocase).in(["x\u{0}y", "XY"])), [1, 3, 4, 5])
        // A NULL in the list leaves every row out of NOT IN, as SQL's NOT IN does.
        XCTAssertEqual(try ids(db, Column("name").notIn(["x\u{0}y", nil] as [String?])), [])
        // Past 512 values the list is bound as JSON: the same rows.
        let fillers = (0..<600).map { "filler \($0)" }
        XCTAssertEqual(try ids(db, Column("name").in(["x\u{0}y"] + fillers)), [1, 3, 4])
        XCTAssertEqual(try ids(db, Column("name").in(["A\u{0}b\u{0}C", "xy"] + fillers)), [5, 14])
        XCTAssertEqual(try ids(db, Column("plain").in(["x\u{0}y"] + fillers)), [1])
        XCTAssertEqual(try ids(db, Column("plain").in(["X\u{0}y"] + fillers)), [])
        XCTAssertEqual(try ids(db, Column("plain").collating(.nocase).in(["X\u{0}y"] + fillers)), [1, 3, 4])
        XCTAssertEqual(
            try ids(db, Column("name").notIn(["x\u{0}y"] + fillers)),
            [2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
    }

    func testWhereDictionariesComparePastNUL() throws {
        let db = try makeDatabase()
        XCTAssertEqual(
            try Name.fetch(db, where: ["name": "x\u{0}y"], orderBy: [.ascending("id")]).map(\.id), [1, 3, 4])
        XCTAssertEqual(try Name.fetchOne(db, where: ["name": "x\u{0}z"])?.id, 2)
        XCTAssertEqual(try Name.count(db, where: ["name": "x\u{0}y"]), 3)
        let encodable: [String: (any Encodable)?] = ["name": "x\u{0}y"]
        XCTAssertEqual(try Name.fetch(db, where: encodable, orderBy: [.ascending("id")]).map(\.id), [1, 3, 4])
        XCTAssertEqual(try Name.count(db, where: encodable), 3)
    }

    func testAFilteredDeleteDeletesOnlyTheRowsItMatches() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try Name.filter(Column("name") == "x\u{0}y").deleteAll(db), 3)
        XCTAssertEqual(
            try db.fetchAll(Int64.self, sql: "SELECT id FROM names ORDER BY id"),
            [2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
        XCTAssertEqual(try Name.deleteAll(db, where: ["name": "a\u{0}b\u{0}c"]), 1)
        XCTAssertEqual(try Name.filter(Column("plain").collating(.nocase).in(["\u{0}", "x\u{0}Z"])).deleteAll(db), 2)
        XCTAssertEqual(
            try db.fetchAll(Int64.self, sql: "SELECT id FROM names ORDER BY id"),
            [5, 6, 7, 8, 9, 10, 12, 13, 15, 16, 17, 18])
    }

    func testValuesWithoutNULKeepTheirSQLAndTheIndex() throws {
        let db = try makeDatabase()
        XCTAssertEqual(
            try Name.filter(Column("name") == "xy").compiled(db, .select).sql,
            "SELECT * FROM \"names\" WHERE \"name\" = ?")
        XCTAssertEqual(
            try Name.filter(Column("name").in(["xy", "q"])).compiled(db, .select).sql,
            "SELECT * FROM \"names\" WHERE \"name\" IN (?, ?)")
        let exact = try Name.filter(Column("name") == "x\u{0}y").compiled(db, .select)
        XCTAssertEqual(
            exact.sql,
            "SELECT * FROM \"names\" WHERE \"name\" = ? AND (? <> \"name\" COLLATE \"NOCASE\" OR lower(?) = lower(\"name\") COLLATE \"BINARY\")"
        )
        let plan = try db.fetchAll(sql: "EXPLAIN QUERY PLAN " + exact.sql, arguments: exact.arguments).map {
            try $0["detail", as: String.self]
        }
        XCTAssertEqual(plan, ["SEARCH names USING INDEX names_name (name=?)"])
    }

    // MARK: LIKE

    /// SQLite's LIKE on the whole text: `%` any characters, `_` one, ASCII letters in either case, U+0000 an
    /// ordinary character.
    private static func likes(_ text: String, _ pattern: String) -> Bool {
        let text = Array(text.unicodeScalars).map(lowered)
        let pattern = Array(pattern.unicodeScalars).map(lowered)
        var matches = Array(repeating: Array(repeating: false, count: text.count + 1), count: pattern.count + 1)
        matches[pattern.count][text.count] = true
        for p in stride(from: pattern.count - 1, through: 0, by: -1) {
            for t in stride(from: text.count, through: 0, by: -1) {
                switch pattern[p] {
                case "%": matches[p][t] = matches[p + 1][t] || (t < text.count && matches[p][t + 1])
                case "_": matches[p][t] = t < text.count && matches[p + 1][t + 1]
                default: matches[p][t] = t < text.count && text[t] == pattern[p] && matches[p + 1][t + 1]
                }
            }
        }
        return matches[0][0]
    }

    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    static let patterns = [
        "x%y", "x", "x_y", "x%", "%y", "%", "_", "__", "___", "x__", "x_%", "%\u{1}%", "\u{1}_", "ab%", "ab_", "%b%",
        "a%c", "a_b_c", "%\u{2}%", "x%Y", "x%%y", "é_É", "%_", "x\\%y", "", "q_y", "%\u{1}\u{2}\u{3}%",
    ]

    func testLikeAndNotLikeJudgeTheWholeStoredText() throws {
        let db = try makeDatabase()
        var cases = 0
        var failures: [String] = []
        for pattern in Self.patterns {
            let expected = Self.stored.indices.filter { Self.likes(Self.stored[$0], pattern) }.map { Int64($0 + 1) }
            let others = Self.stored.indices.map { Int64($0 + 1) }.filter { !expected.contains($0) }
            for column in ["name", "plain"] {
                let liked = try ids(db, Column(column).like(pattern))
                let notLiked = try ids(db, Column(column).notLike(pattern))
                if liked != expected {
                    failures.append("\(column) LIKE \(pattern.debugDescription): \(liked) != \(expected)")
                }
                if notLiked != others {
                    failures.append("\(column) NOT LIKE \(pattern.debugDescription): \(notLiked) != \(others)")
                }
                XCTAssertEqual(try Name.filter(Column(column).like(pattern)).count(db), expected.count)
                cases += 2
            }
        }
        print("NULComparisonTests: \(cases) LIKE and NOT LIKE cases over \(Self.stored.count) stored texts")
        XCTAssertEqual(failures, [])
        XCTAssertEqual(try ids(db, Column("name").like("x%y")), [1, 3, 4, 5, 6, 16])
    }

    func testNotLikeDeletesOnlyTheRowsItMatches() throws {
        let db = try makeDatabase()
        // "x\0y", "X\0Y", "x\0Y", "xy", "x\0yy" and "x\0%y" match "x%y": a LIKE cut at the NUL kept only "xy".
        XCTAssertEqual(try Name.filter(Column("name").notLike("x%y")).deleteAll(db), 11)
        XCTAssertEqual(try db.fetchAll(Int64.self, sql: "SELECT id FROM names ORDER BY id"), [1, 3, 4, 5, 6, 16, 18])
        // "x" alone matches "x" only; cut at the NUL, "x\0y" and its kin read as "x".
        XCTAssertEqual(try Name.filter(Column("plain").like("x_y")).deleteAll(db), 3)
        XCTAssertEqual(try db.fetchAll(Int64.self, sql: "SELECT id FROM names ORDER BY id"), [5, 6, 16, 18])
    }

    func testLikeKeepsItsIndexAndItsPlainForm() throws {
        let db = try makeDatabase()
        // Only a trailing % : exact as it is.
        XCTAssertEqual(
            try Name.filter(Column("name").like("ab%")).compiled(db, .select).sql,
            "SELECT * FROM \"names\" WHERE \"name\" LIKE ?")
        let query = try Name.filter(Column("name").like("x%y")).compiled(db, .select)
        XCTAssertEqual(
            query.sql,
            "SELECT * FROM \"names\" WHERE \"name\" LIKE ? AND CASE WHEN instr(\"name\", char(0)) > 0 THEN "
                + "sqliterecord_nul_replaced(\"name\", ?) LIKE ? ELSE \"name\" LIKE ? END")
        XCTAssertEqual(query.arguments.values, [.text("x%"), .text("\u{1}"), .text("x%y"), .text("x%y")])
        let plan = try db.fetchAll(sql: "EXPLAIN QUERY PLAN " + query.sql, arguments: query.arguments).map {
            try $0["detail", as: String.self]
        }
        XCTAssertEqual(plan, ["SEARCH names USING INDEX names_name (name>? AND name<?)"])
        XCTAssertEqual(
            try Name.filter(Column("name").notLike("x%y")).compiled(db, .select).sql,
            "SELECT * FROM \"names\" WHERE CASE WHEN instr(\"name\", char(0)) > 0 THEN "
                + "sqliterecord_nul_replaced(\"name\", ?) NOT LIKE ? ELSE \"name\" NOT LIKE ? END")
    }

    func testTheStandInForNULIsNoCharacterOfThePattern() {
        XCTAssertEqual(RequestCompiler<RecordRequestBinding<Name>>.stand(in: Array("x%y".unicodeScalars)), "\u{1}")
        XCTAssertEqual(
            RequestCompiler<RecordRequestBinding<Name>>.stand(in: Array("%\u{1}\u{2}%".unicodeScalars)), "\u{3}")
        let everyLow = (1...0x40).compactMap(Unicode.Scalar.init)
        XCTAssertEqual(RequestCompiler<RecordRequestBinding<Name>>.stand(in: everyLow), "[")
    }
}
