import Foundation
import SQLiteRecord
import XCTest

/// A new row's id is above every id the table holds, on both engines, whoever wrote those ids: SQLite's
/// rowid takes the largest plus one; PostgreSQL's identity sequence is caught up before the library's first
/// insert without an id, and after records were written with ids of their own.
final class RowIDContractTests: RecordContractTestCase {
    private func book(_ id: Int64?, _ title: String) -> Book { Book(id: id, title: title, pages: 100, isbn: nil) }

    func testANewRowAfterRecordsWithTheirOwnIdsTakesTheNextId() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            let ids = try engine.write { db -> [Int64?] in
                var first = self.book(1, "Dune")
                try first.insert(db)
                var batch = [self.book(2, "Emma"), self.book(7, "Ulysses")]
                try Book.insertAll(db, &batch)
                var upsertedWithID = self.book(9, "Kim")
                try upsertedWithID.upsert(db)
                var new = self.book(nil, "Beloved")
                try new.insert(db)
                var upserted = self.book(nil, "Walden")
                try upserted.upsert(db)
                return [new.id, upserted.id]
            }
            XCTAssertEqual(ids, [10, 11])
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 6)
        }
    }

    func testRowsWrittenByPlainSQLAreCaughtUpWithToo() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.execute("INSERT INTO books (id, title, pages) VALUES (40, 'Nana', 1), (41, 'Eva', 2)")
            let id = try engine.write { db -> Int64? in
                var new = self.book(nil, "Middlemarch")
                try new.insert(db)
                return new.id
            }
            XCTAssertEqual(id, 42)
        }
    }

    func testIdsTheDatabaseChoosesContinueAboveAnIdGivenBetweenThem() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            let ids = try engine.write { db -> [Int64?] in
                var a = self.book(nil, "A")
                try a.insert(db)
                var b = self.book(20, "B")
                try b.insert(db)
                var c = self.book(nil, "C")
                try c.insert(db)
                var d = self.book(nil, "D")
                try d.insert(db)
                return [a.id, c.id, d.id]
            }
            XCTAssertEqual(ids, [1, 21, 22])
        }
    }
}
