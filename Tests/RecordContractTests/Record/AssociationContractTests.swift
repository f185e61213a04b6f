import Foundation
import SQLiteRecord
import XCTest

/// A joined fetch and an eager load, on a connection and through a writer: the same nesting on every engine.
final class AssociationContractTests: RecordContractTestCase {
    private struct ChapterWithBook: Decodable, Equatable, Sendable {
        var chapter: Chapter
        var book: Book
    }

    private struct BookWithChapters: Decodable, Equatable, Sendable {
        var book: Book
        var chapters: [Chapter]
    }

    private static let chapters = Book.hasMany(Chapter.self, using: "book_id")

    /// Two books, the first with two chapters and the second with none.
    private func makeBooks(_ engine: any ContractEngine) throws -> [Book] {
        try engine.createTable(Book.self)
        try engine.createTable(Chapter.self)
        var dune = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
        var emma = Book(id: nil, title: "Emma", pages: 474, isbn: nil)
        var chapters = [Chapter(id: nil, bookId: nil, title: "One"), Chapter(id: nil, bookId: nil, title: "Two")]
        try engine.write { db in
            try dune.save(db, children: &chapters)
            try emma.save(db)
        }
        return [dune, emma]
    }

    func testJoinedFetchAndEagerLoadOnAConnection() {
        onEachEngine { engine in
            let books = try makeBooks(engine)
            let one = Chapter(id: 1, bookId: 1, title: "One")
            let two = Chapter(id: 2, bookId: 1, title: "Two")
            try engine.write { db in
                let joined = try Chapter.order(Column("id").ascending).including(required: Chapter.book)
                    .fetch(db, as: ChapterWithBook.self)
                XCTAssertEqual(
                    joined, [ChapterWithBook(chapter: one, book: books[0]), ChapterWithBook(chapter: two, book: books[0])])
                let nested = try Book.order(Column("id").ascending).including(all: Self.chapters)
                    .fetch(db, as: BookWithChapters.self)
                XCTAssertEqual(
                    nested, [BookWithChapters(book: books[0], chapters: [one, two]), BookWithChapters(book: books[1], chapters: [])])
                let groups = try Book.order(Column("id").ascending).including(all: Self.chapters).fetchGroups(db)
                XCTAssertEqual(groups.map(\.1.count), [2, 0])
            }
        }
    }

    func testJoinedFetchAndEagerLoadThroughTheWriter() async {
        await onEachEngine { engine in
            let books = try makeBooks(engine)
            let pairs = try await Chapter.order(Column("id").ascending).including(required: Chapter.book)
                .fetchPairs(engine.writer)
            XCTAssertEqual(pairs.map(\.0.title), ["One", "Two"])
            XCTAssertEqual(pairs.map { $0.1?.title }, ["Dune", "Dune"])
            let nested = try await Book.order(Column("id").ascending).including(all: Self.chapters)
                .fetch(engine.writer, as: BookWithChapters.self)
            XCTAssertEqual(nested.map(\.book), books)
            XCTAssertEqual(nested.map { $0.chapters.map(\.title) }, [["One", "Two"], []])
        }
    }
}
