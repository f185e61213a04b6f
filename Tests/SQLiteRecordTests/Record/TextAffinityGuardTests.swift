import Foundation
import SQLiteRecord
import XCTest

final class TextAffinityGuardTests: XCTestCase {
    private struct Code: Record, Equatable {
        var id: Int64?
        var code: String
        var label: String?
        static let tableName = "codes"
    }

    private func makeDatabase(codeType: String) throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code \(codeType), label VARCHAR(20))")
        return db
    }

    func testTextANumericColumnWouldRewriteIsRefusedAndNothingIsWritten() throws {
        let db = try makeDatabase(codeType: "STRING")
        var code = Code(id: nil, code: "00120", label: nil)
        XCTAssertThrowsError(try code.save(db)) { error in
            guard case .invalidValue(let value, let context)? = error as? EncodingError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(value as? String, "00120")
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["code"])
            XCTAssertEqual(
                context.debugDescription,
                "Cannot store TEXT '00120' in column \"code\" of table \"codes\": its declared type STRING gives it "
                    + "numeric affinity, so SQLite would store INTEGER 120 and it would read back as \"120\". "
                    + "Declare the column TEXT to keep the text as written")
        }
        XCTAssertNil(code.id)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM codes"), 0)
    }

    func testEveryNumericAffinityIsGuardedOnInsertAndUpdate() throws {
        for (declared, text) in [
            ("INTEGER", "007"), ("INT", "1.50"), ("REAL", "2"), ("DOUBLE", "1e3"), ("DECIMAL(10,2)", " 12"),
            ("NUMERIC", "+5"),
        ] {
            let db = try makeDatabase(codeType: declared)
            var code = Code(id: nil, code: "x", label: nil)
            XCTAssertNoThrow(try code.save(db), declared)
            code.code = text
            XCTAssertThrowsError(try code.save(db), "\(declared) \(text)")
            XCTAssertEqual(try Code.fetchOne(db, id: 1)?.code, "x", "the update wrote nothing")
            XCTAssertThrowsError(try Code(id: nil, code: text, label: nil).insertCopy(db), "\(declared) \(text)")
        }
    }

    func testTextThatReadsBackTheSameOrTextColumnsAreAllowed() throws {
        let integer = try makeDatabase(codeType: "INTEGER")
        var plain = Code(id: nil, code: "120", label: "00120")  // label is VARCHAR: TEXT affinity
        try plain.save(integer)
        XCTAssertEqual(try Code.fetchOne(integer, id: 1), plain)
        XCTAssertEqual(try integer.fetchOne(String.self, sql: "SELECT typeof(code) FROM codes"), "integer")

        for declared in ["TEXT", "", "BLOB", "CHARACTER(5)"] {
            let db = try makeDatabase(codeType: declared)
            var code = Code(id: nil, code: "00120", label: "1e3")
            try code.save(db)
            XCTAssertEqual(try Code.fetchOne(db, id: 1), code, declared)
        }
        let real = try makeDatabase(codeType: "REAL")
        var half = Code(id: nil, code: "1.5", label: nil)
        try half.save(real)
        XCTAssertEqual(try Code.fetchOne(real, id: 1)?.code, "1.5")
        var word = Code(id: nil, code: "12 monkeys", label: nil)
        try word.save(real)
        XCTAssertEqual(try Code.fetchOne(real, id: 2)?.code, "12 monkeys")
    }

    func testAffinityFromDeclaredType() {
        XCTAssertEqual(ColumnAffinity(declaredType: "BIGINT"), .integer)
        XCTAssertEqual(ColumnAffinity(declaredType: "POINT"), .integer, "contains INT, as SQLite's rule 1 says")
        XCTAssertEqual(ColumnAffinity(declaredType: "nvarchar(30)"), .text)
        XCTAssertEqual(ColumnAffinity(declaredType: ""), .blob)
        XCTAssertEqual(ColumnAffinity(declaredType: "FLOATING POINT"), .integer, "rule 1 wins over rule 4")
        XCTAssertEqual(ColumnAffinity(declaredType: "DOUBLE PRECISION"), .real)
        XCTAssertEqual(ColumnAffinity(declaredType: "STRING"), .numeric)
        XCTAssertEqual(ColumnAffinity(declaredType: "DATETIME"), .numeric)
    }
}

extension Record {
    /// Inserts a copy, so a test can insert from an immutable value.
    fileprivate func insertCopy(_ db: Database) throws {
        var copy = self
        try copy.insert(db)
    }
}
