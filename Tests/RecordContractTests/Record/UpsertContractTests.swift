import Foundation
import SQLiteRecord
import XCTest

/// `upsert(_:onConflict:updating:)`: one statement that inserts or updates, and tells which; the same
/// outcomes and the same rowids on every engine.
final class UpsertContractTests: RecordContractTestCase {
    func testUpsertByTheKeyInsertsUpdatesAndLeavesAnUnchangedRowAlone() {
        onEachEngine { engine in
            try engine.createTable(Currency.self)
            var euro = Currency(id: "EUR", name: "Euro", rate: 1)
            var outcomes: [UpsertOutcome] = []
            try engine.write { db in
                outcomes.append(try euro.upsert(db))
                outcomes.append(try euro.upsert(db))
                euro.rate = 1.08
                outcomes.append(try euro.upsert(db))
            }
            XCTAssertEqual(outcomes, [.inserted, .unchanged, .updated])
            XCTAssertEqual(try engine.write { db in try Currency.fetchOne(db, id: "EUR") }, euro)
        }
    }

    func testUpsertOnAnotherUniqueColumnGivesTheRecordTheRowsRowID() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var first = Book(id: nil, title: "Dune", pages: 412, isbn: "978-0441013593")
            var second = Book(id: nil, title: "Dune (1965)", pages: 412, isbn: "978-0441013593")
            var other = Book(id: nil, title: "Emma", pages: 474, isbn: "978-0141439587")
            let outcomes = try engine.write { db in
                [
                    try first.upsert(db, onConflict: ["isbn"]),
                    try other.upsert(db, onConflict: ["isbn"]),
                    try second.upsert(db, onConflict: ["isbn"]),
                ]
            }
            XCTAssertEqual(outcomes, [.inserted, .inserted, .updated])
            XCTAssertEqual([first.id, other.id, second.id], [1, 2, 1])
            XCTAssertEqual(
                CallbackLog.shared.take(),
                ["willSave Dune", "didInsert 1", "willSave Emma", "didInsert 2", "willSave Dune (1965)"])
            XCTAssertEqual(try engine.text("SELECT title FROM books WHERE id = 1"), "Dune (1965)")
            // The named columns only: the title stays, the page count is written.
            var third = Book(id: nil, title: "ignored", pages: 600, isbn: "978-0441013593")
            let named = try engine.write { db in try third.upsert(db, onConflict: ["isbn"], updating: ["pages"]) }
            XCTAssertEqual(named, .updated)
            XCTAssertEqual(third.id, 1)
            XCTAssertEqual(try engine.text("SELECT title FROM books WHERE id = 1"), "Dune (1965)")
            XCTAssertEqual(try engine.integer("SELECT pages FROM books WHERE id = 1"), 600)
            // Nothing to update on a conflict: the row is left as it is.
            var fourth = Book(id: nil, title: "x", pages: 1, isbn: "978-0441013593")
            let untouched = try engine.write { db in try fourth.upsert(db, onConflict: ["isbn"], updating: []) }
            XCTAssertEqual(untouched, .unchanged)
            XCTAssertEqual(fourth.id, 1)
        }
    }

    func testUpsertOnAColumnWithoutAUniqueConstraintIsRefused() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            let thrown = error { _ = try engine.write { db in try book.upsert(db, onConflict: ["title"]) } }
            XCTAssertEqual(thrown as? RecordError, .conflictTargetNotUnique(table: "books", columns: ["title"]))
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
        }
    }
}
