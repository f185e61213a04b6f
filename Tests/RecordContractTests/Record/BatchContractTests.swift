import Foundation
import SQLiteRecord
import XCTest

/// Many records in one call, and a parent with its children: the same rows, ids, callbacks and all-or-nothing
/// on every engine.
final class BatchContractTests: RecordContractTestCase {
    func testInsertAllGivesEveryNewRecordItsIdAndCallsEveryWillSaveFirst() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var books = [
                Book(id: nil, title: "Dune", pages: 412, isbn: nil),
                Book(id: 40, title: "Emma", pages: 474, isbn: nil),
                Book(id: nil, title: "Ulysses", pages: 730, isbn: nil),
            ]
            try engine.write { db in try Book.insertAll(db, &books) }
            // A new row after a given id takes the largest rowid + 1 on SQLite and the identity sequence's
            // next value on PostgreSQL (41 and 2 here): each record must carry its own row's id.
            XCTAssertEqual(books.map(\.title), ["Dune", "Emma", "Ulysses"])
            XCTAssertEqual(books[1].id, 40)
            let stored = try engine.write { db in try Book.fetch(db, orderBy: [.ascending("title")]) }
            XCTAssertEqual(stored.map(\.title), ["Dune", "Emma", "Ulysses"])
            XCTAssertEqual(Set(stored.compactMap(\.id)), Set(books.compactMap(\.id)))
            XCTAssertEqual(
                CallbackLog.shared.take(),
                ["willSave Dune", "willSave Emma", "willSave Ulysses"]
                    + books.map { "didInsert \($0.id ?? -1)" })
        }
    }

    func testAFailedRowOfABatchIsNamedByItsIndexAndNothingIsInserted() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.execute("INSERT INTO books (id, title, pages, isbn) VALUES (1, 'Kept', 10, '978-0')")
            var books = [
                Book(id: nil, title: "Dune", pages: 412, isbn: "978-1"),
                Book(id: nil, title: "Emma", pages: 474, isbn: "978-2"),
                Book(id: nil, title: "Twin", pages: 1, isbn: "978-0"),
                Book(id: nil, title: "Ulysses", pages: 730, isbn: "978-3"),
            ]
            let original = books
            let thrown = error { try engine.write { db in try Book.insertAll(db, &books) } }
            XCTAssertEqual(engine.batchIndex(thrown), 2, "\(String(describing: thrown))")
            XCTAssertTrue(
                "\(String(describing: thrown))".contains(" - at index 2 of the batch - while executing: INSERT"),
                "\(String(describing: thrown))")
            XCTAssertEqual(books, original)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
            _ = CallbackLog.shared.take()
        }
    }

    func testSaveOfNewRecordsIsAllOrNothing() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var books = [
                Book(id: nil, title: "Dune", pages: 412, isbn: "1"),
                Book(id: nil, title: "Emma", pages: 474, isbn: "1"),
            ]
            let original = books
            XCTAssertNotNil(error { try engine.write { db in try Book.save(db, &books) } })
            XCTAssertEqual(books, original)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
            // willSave ran for both before the batch; no didInsert for a batch that rolled back.
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave Dune", "willSave Emma"])
        }
    }

    func testSaveOfOldAndNewRecordsUpdatesAndInsertsInOrder() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try engine.write { db in try dune.insert(db) }
            _ = CallbackLog.shared.take()
            dune.pages = 500
            var books = [dune, Book(id: nil, title: "Emma", pages: 474, isbn: nil)]
            try engine.write { db in try Book.save(db, &books) }
            XCTAssertEqual(books.map(\.id), [1, 2])
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave Dune", "willSave Emma", "didInsert 2"])
            XCTAssertEqual(try engine.integer("SELECT pages FROM books WHERE id = 1"), 500)
        }
    }

    func testDeleteOfRecordsIsAllOrNothing() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var books = [
                Book(id: nil, title: "Dune", pages: 412, isbn: nil),
                Book(id: nil, title: "keep", pages: 1, isbn: nil),
            ]
            try engine.write { db in try Book.insertAll(db, &books) }
            let thrown = error { _ = try engine.write { db in try Book.delete(db, books) } }
            XCTAssertEqual(thrown as? Book.Kept, Book.Kept())
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 2)
            let deleted = try engine.write { db in try Book.delete(db, [books[0]]) }
            XCTAssertEqual(deleted, 1)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
        }
    }

    func testSaveChildrenSetsTheDeclaredForeignKeyAndDeleteWithChildrenRemovesAll() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.createTable(Chapter.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            var chapters = [Chapter(id: nil, bookId: nil, title: "One"), Chapter(id: nil, bookId: nil, title: "Two")]
            try engine.write { db in try book.save(db, children: &chapters) }
            XCTAssertEqual(book.id, 1)
            XCTAssertEqual(chapters.map(\.bookId), [1, 1])
            XCTAssertEqual(chapters.map(\.id), [1, 2])
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM chapters WHERE book_id = 1"), 2)
            XCTAssertTrue(try engine.write { db in try book.delete(db, with: chapters) })
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM chapters"), 0)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
        }
    }

    func testSaveChildrenThatFailsPutsEveryRecordBack() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.createTable(Chapter.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            // The second chapter's id is the first's: its insert fails after the parent and the first child.
            var chapters = [Chapter(id: 7, bookId: nil, title: "One"), Chapter(id: 7, bookId: nil, title: "Two")]
            let original = chapters
            XCTAssertNotNil(error { try engine.write { db in try book.save(db, children: &chapters) } })
            XCTAssertNil(book.id)
            XCTAssertEqual(chapters, original)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM chapters"), 0)
        }
    }
}
