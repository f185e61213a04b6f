import Foundation
import SQLiteRecord
import XCTest

/// An observation of rows by key, written once, on every engine: each change of an observed row is seen
/// once, in commit order, and a write to another row is not seen (a later write that is seen proves it,
/// by its order). SQLite narrows such a read to its rows, and reads again only after a commit that changed
/// one of them; PostgreSQL observes the table, reads again after every commit to it, and its equal values
/// are skipped with `removeDuplicates()`, so that both engines deliver the same values.
final class RowObservationContractTests: RecordContractTestCase {
    /// Counts the observed reads; NSLock guards `count`.
    private final class ReadCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() {
            lock.lock()
            count += 1
            lock.unlock()
        }
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }

    /// Books 1, 2 and 3 ("A", "B", "C").
    private func insertBooks(_ engine: any ContractEngine) async throws {
        try engine.createTable(Book.self)
        for (id, title) in [(1, "A"), (2, "B"), (3, "C")] {
            var book = Book(id: Int64(id), title: title, pages: 1, isbn: nil)
            try await book.insert(engine.writer)
        }
    }

    private func rename(_ id: Int64, _ title: String, in writer: any AsyncDatabaseWriter) async throws {
        let found = try await Book.fetchOne(writer, id: id)
        var book = try XCTUnwrap(found)
        book.title = title
        try await book.update(writer)
    }

    func testAnObservationByIDSeesEachChangeOfItsRowOnceAndNoWriteToAnotherRow() async {
        await onEachEngine { engine in
            try await insertBooks(engine)
            let writer = engine.writer
            let reads = ReadCount()
            let byID = ValueObservation.tracking { db in
                reads.increment()
                return try Book.fetchOne(db, id: 2)?.title
            }
            let seen = ContractValues((engine.isSQLite ? byID : byID.removeDuplicates()).values(in: writer))
            defer { seen.cancel() }
            try await seen.wait { $0 == ["B"] }
            try await rename(1, "A1", in: writer)
            _ = try await Book.delete(writer, id: 3)
            try await rename(2, "B1", in: writer)
            try await seen.wait { $0.count == 2 }
            var four = Book(id: 4, title: "D", pages: 1, isbn: nil)
            try await four.insert(writer)
            _ = try await Book.delete(writer, id: 2)
            try await seen.wait { $0.count == 3 }
            var again = Book(id: 2, title: "B2", pages: 1, isbn: nil)
            try await again.insert(writer)
            try await seen.wait { $0.count == 4 }
            XCTAssertEqual(seen.values, ["B", "B1", nil, "B2"])
            // SQLite read only for the commits that changed book 2.
            if engine.isSQLite { XCTAssertEqual(reads.value, 4) }
        }
    }

    func testARequestForKeysSeesOnlyItsRows() async {
        await onEachEngine { engine in
            try await insertBooks(engine)
            let writer = engine.writer
            let reads = ReadCount()
            let byKeys = ValueObservation.tracking { db in
                reads.increment()
                return try Book.filter(Column("id").in([1, 3])).order(Column("id")).fetch(db).map(\.title)
            }
            let seen = ContractValues((engine.isSQLite ? byKeys : byKeys.removeDuplicates()).values(in: writer))
            defer { seen.cancel() }
            try await seen.wait { $0 == [["A", "C"]] }
            try await rename(2, "B1", in: writer)
            try await rename(3, "C1", in: writer)
            try await seen.wait { $0.count == 2 }
            var five = Book(id: 5, title: "E", pages: 1, isbn: nil)
            try await five.insert(writer)
            _ = try await Book.delete(writer, id: 1)
            try await seen.wait { $0.count == 3 }
            XCTAssertEqual(seen.values, [["A", "C"], ["A", "C1"], ["C1"]])
            if engine.isSQLite { XCTAssertEqual(reads.value, 3) }
        }
    }
}
