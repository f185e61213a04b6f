import Dispatch
import Foundation
import XCTest

@testable import SQLiteRecord

private struct Clinic: Record, Equatable {
    var id: Int64?
    var name: String?
    static let tableName = "clinics"
}

/// The Unicode-aware text matchers: `caseInsensitiveContains`, `caseInsensitiveHasPrefix`,
/// `caseInsensitiveHasSuffix` and `caseFolded()`, beside the ASCII-only `contains` of SQLite's LIKE.
final class CaseFoldingMatchTests: XCTestCase {
    private let names = [
        "Praxis der Ärzte", "ÄRZTEHAUS Mitte", "Zahnärzte Nord", "Große Straße 5", "STRASSE 7",
        "ΣΊΣΥΦΟΣ Klinik", "arzt", "100% Ärzte_", nil,
    ]

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Clinic.createTable(in: db)
            for name in names {
                var clinic = Clinic(id: nil, name: name)
                try clinic.save(db)
            }
        }
        return queue
    }

    private func names(_ queue: DatabaseQueue, _ filter: SQLExpression) throws -> [String?] {
        try queue.read { db in try Clinic.filter(filter).order(Column("id")).fetch(db).map(\.name) }
    }

    func testTheASCIIMatcherMissesWhatTheUnicodeOneFinds() throws {
        let queue = try makeQueue()
        XCTAssertEqual(try names(queue, Column("name").contains("ärzte")), ["Zahnärzte Nord"], "LIKE folds ASCII only")
        XCTAssertEqual(
            try names(queue, Column("name").caseInsensitiveContains("ärzte")),
            ["Praxis der Ärzte", "ÄRZTEHAUS Mitte", "Zahnärzte Nord", "100% Ärzte_"])
        XCTAssertEqual(
            try names(queue, Column("name").caseInsensitiveContains("ÄRZTE")),
            ["Praxis der Ärzte", "ÄRZTEHAUS Mitte", "Zahnärzte Nord", "100% Ärzte_"])
        XCTAssertEqual(try names(queue, Column("name").caseInsensitiveHasPrefix("ärzteh")), ["ÄRZTEHAUS Mitte"])
        XCTAssertEqual(try names(queue, Column("name").caseInsensitiveHasSuffix("ÄRZTE")), ["Praxis der Ärzte"])
        // Full case folding: ß is ss, final sigma is sigma.
        XCTAssertEqual(
            try names(queue, Column("name").caseInsensitiveContains("strasse")), ["Große Straße 5", "STRASSE 7"])
        XCTAssertEqual(try names(queue, Column("name").caseInsensitiveHasPrefix("σίσυφος")), ["ΣΊΣΥΦΟΣ Klinik"])
        // Taken literally: % and _ are text.
        XCTAssertEqual(try names(queue, Column("name").caseInsensitiveHasPrefix("100% ärzte_")), ["100% Ärzte_"])
        XCTAssertEqual(try names(queue, Column("name").caseInsensitiveContains("_")), ["100% Ärzte_"])
        XCTAssertEqual(
            try names(queue, Column("name").caseFolded() == "arzt"), ["arzt"])
    }

    func testTheSQLFoldsTheColumnAndBindsTheFoldedEscapedText() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE clinics (id INTEGER PRIMARY KEY, name TEXT)")
        let query = try Clinic.filter(Column("name").caseInsensitiveContains("ÄRZTE_%")).compiled(db, .select)
        // The folded text's LIKE, and for a name that holds U+0000 (where LIKE stops reading) instr on the whole
        // folded name; the U+0000 test reads the name itself, so a row is folded once unless it holds one.
        XCTAssertEqual(
            query.sql,
            "SELECT * FROM \"clinics\" WHERE sqliterecord_casefold(\"name\") LIKE ? ESCAPE '\\' "
                + "OR instr(\"name\", ?) > ? AND instr(lower(sqliterecord_casefold(\"name\")), lower(?)) > ?")
        XCTAssertEqual(
            query.arguments.values,
            [.text("%ärzte\\_\\%%"), .text("\u{0}"), .integer(0), .text("ärzte_%"), .integer(0)])
        let prefix = try Clinic.filter(Column("name").caseInsensitiveHasPrefix("ÄRZTE")).compiled(db, .select)
        XCTAssertEqual(prefix.sql, "SELECT * FROM \"clinics\" WHERE sqliterecord_casefold(\"name\") LIKE ? ESCAPE '\\'")
        XCTAssertEqual(prefix.arguments.values, [.text("ärzte%")])
        // The function in raw SQL: text folded, other values unchanged.
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT sqliterecord_casefold('Straße ÄRZTE')"), "strasse ärzte")
        XCTAssertEqual(try db.scalar(SQLiteValue.self, sql: "SELECT sqliterecord_casefold(42)"), .integer(42))
        XCTAssertNil(try db.scalar(String.self, sql: "SELECT sqliterecord_casefold(NULL)"))
    }

    func testEveryReaderOfAPoolHasTheFunction() throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("clinics.sqlite"), options: .init(maximumReaderCount: 2))
        try pool.write { db in
            try Clinic.createTable(in: db)
            var clinic = Clinic(id: nil, name: "Praxis der Ärzte")
            try clinic.save(db)
        }
        let inside = DispatchGroup()
        let done = DispatchGroup()
        inside.enter()
        inside.enter()
        let results = ResultList()
        for _ in 0..<2 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                let count = try? pool.read { db -> Int in
                    inside.leave()
                    _ = inside.wait(timeout: .now() + 10)
                    return try Clinic.filter(Column("name").caseInsensitiveContains("ärzte")).count(db)
                }
                results.append("\(count ?? -1)")
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(results.values, ["1", "1"])
        XCTAssertEqual(pool.readers.openedCount, 2)
    }
}
