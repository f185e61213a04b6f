import Foundation
import SQLiteRecord
import XCTest

/// A request of the query interface, run on a connection and through a writer: the same rows, counts and
/// changes on every engine.
final class RequestContractTests: RecordContractTestCase {
    private static let books = [
        Book(id: nil, title: "Dune", pages: 412, isbn: nil), Book(id: nil, title: "Emma", pages: 474, isbn: nil),
        Book(id: nil, title: "Ulysses", pages: 730, isbn: nil),
    ]

    func testARequestOnAConnection() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var books = Self.books
            try engine.write { db in try Book.insertAll(db, &books) }
            let long = Book.filter(Column("pages") > 450).order(Column("pages").descending)
            try engine.write { db in
                XCTAssertEqual(try long.fetch(db).map(\.title), ["Ulysses", "Emma"])
                XCTAssertEqual(try long.fetchOne(db)?.title, "Ulysses")
                XCTAssertEqual(try long.select(Column("title")).fetch(db, as: String.self), ["Ulysses", "Emma"])
                XCTAssertEqual(try Book.all().select(max(Column("pages"))).fetchOne(db, as: Int.self), 730)
                XCTAssertEqual(try long.count(db), 2)
                XCTAssertTrue(try long.exists(db))
                XCTAssertFalse(try Book.filter(Column("pages") > 1_000).exists(db))
                XCTAssertEqual(try long.updateAll(db, Column("pages").set(to: Column("pages") + 1)), 2)
                XCTAssertEqual(try Book.filter(Column("title") == "Dune").deleteAll(db), 1)
            }
            XCTAssertEqual(try engine.integer("SELECT sum(pages) FROM books"), 475 + 731)
        }
    }

    func testARequestThroughTheWriter() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            var books = Self.books
            try await Book.insertAll(engine.writer, &books)
            let long = Book.filter(Column("pages") > 450).order(Column("pages").descending)
            let fetched = try await long.fetch(engine.writer)
            XCTAssertEqual(fetched.map(\.title), ["Ulysses", "Emma"])
            let first = try await long.fetchOne(engine.writer)
            XCTAssertEqual(first?.title, "Ulysses")
            let titles = try await long.select(Column("title")).fetch(engine.writer, as: String.self)
            XCTAssertEqual(titles, ["Ulysses", "Emma"])
            let count = try await long.count(engine.writer)
            XCTAssertEqual(count, 2)
            let updated = try await long.updateAll(engine.writer, Column("pages").set(to: Column("pages") + 1))
            XCTAssertEqual(updated, 2)
            let deleted = try await Book.filter(Column("title") == "Dune").deleteAll(engine.writer)
            XCTAssertEqual(deleted, 1)
            XCTAssertEqual(try engine.integer("SELECT sum(pages) FROM books"), 475 + 731)
        }
    }
}
