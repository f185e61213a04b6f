import Foundation
import SQLiteRecord
import XCTest

/// The calls through an engine's writer (`AsyncDatabaseWriter`: SQLite's queue, a PostgreSQL pool), each in
/// a transaction of its own: the same answers on every engine.
final class WriterContractTests: RecordContractTestCase {
    func testWritesAndReadsThroughTheWriter() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            let writer = engine.writer
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: "A")
            try await dune.save(writer)
            XCTAssertEqual(dune.id, 1)
            var emma = Book(id: nil, title: "Emma", pages: 474, isbn: nil)
            try await emma.insert(writer)
            var copy = Book(id: nil, title: "Dune again", pages: 1, isbn: "A")
            let inserted = try await copy.insert(writer, onConflict: .ignore)
            XCTAssertFalse(inserted)
            XCTAssertNil(copy.id)
            var upserted = Book(id: nil, title: "Ulysses", pages: 730, isbn: "U")
            let outcome = try await upserted.upsert(writer)
            XCTAssertEqual(outcome, .inserted)
            // SQLite takes the largest rowid + 1 (3); PostgreSQL's identity sequence gave its 3 to the skipped
            // insert (a sequence is not rolled back) and answers 4. The record carries its row's id on both.
            let ulyssesID = try XCTUnwrap(upserted.id)
            XCTAssertEqual(try engine.text("SELECT title FROM books WHERE id = \(ulyssesID)"), "Ulysses")

            dune.pages = 500
            try await dune.update(writer, columns: ["pages"])
            let changed = try await emma.updateChanges(writer) { $0.pages = 475 }
            XCTAssertTrue(changed)

            let fetched = try await Book.fetch(writer, where: ["isbn": nil], orderBy: [.ascending("id")])
            XCTAssertEqual(fetched.map(\.title), ["Emma"])
            XCTAssertEqual(fetched.first?.pages, 475)
            let one = try await Book.fetchOne(writer, id: 1)
            XCTAssertEqual(one?.pages, 500)
            let exists = try await Book.exists(writer, id: 9)
            XCTAssertFalse(exists)
            let count = try await Book.count(writer, where: [:])
            XCTAssertEqual(count, 3)
            let first = try await Book.fetchOne(writer, where: ["pages": 730])
            XCTAssertEqual(first?.title, "Ulysses")
            let bySQL = try await engine.fetchBooks(sql: "SELECT * FROM books WHERE pages > 450 ORDER BY id")
            XCTAssertEqual(bySQL.map(\.title), ["Dune", "Emma", "Ulysses"])  // Dune has 500 pages by now

            let deleted = try await Book.delete(writer, id: ulyssesID)
            XCTAssertTrue(deleted)
            let gone = try await Book.deleteAll(writer, where: ["title": "Emma"])
            XCTAssertEqual(gone, 1)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
        }
    }

    func testBatchesAndChildrenThroughTheWriter() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.createTable(Chapter.self)
            let writer = engine.writer
            var books = [Book(id: nil, title: "Dune", pages: 412, isbn: nil), Book(id: nil, title: "Emma", pages: 474, isbn: nil)]
            try await Book.insertAll(writer, &books)
            XCTAssertEqual(books.map(\.id), [1, 2])
            var more = [Book(id: nil, title: "", pages: 1, isbn: nil)]
            do {
                try await Book.save(writer, &more)
                XCTFail("an empty title saved")
            } catch {
                XCTAssertEqual(error as? Book.EmptyTitle, Book.EmptyTitle())
            }
            XCTAssertNil(more[0].id)

            var book = books[0]
            var chapters = [Chapter(id: nil, bookId: nil, title: "One")]
            try await book.save(writer, children: &chapters)
            XCTAssertEqual(chapters.map(\.bookId), [1])
            let removed = try await book.delete(writer, with: chapters)
            XCTAssertTrue(removed)
            let left = try await Book.delete(writer, [books[1]])
            XCTAssertEqual(left, 1)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
        }
    }
}
