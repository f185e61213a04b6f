import Foundation
import SQLiteRecord
import XCTest

/// One `ValueObservation`, written once, on every engine: its read takes the connection it runs on, and
/// `values(in:)` takes the engine's writer. A commit that changes a table the read used delivers a fresh
/// value, in commit order; one that changes another table, or rolls back, delivers none; ending the
/// iteration stops the observation.
final class ObservationContractTests: RecordContractTestCase {
    /// The books' titles in id order, read on the connection the observation hands the read.
    private let titles = ValueObservation.tracking { db in try Book.all().order(Column("id")).fetch(db).map(\.title) }

    func testARequestsObservationDeliversTheCurrentValueThenOneAfterEachCommitThatChangesIt() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.createTable(Currency.self)
            let writer = engine.writer
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try await dune.insert(writer)
            let seen = ContractValues(Book.all().order(Column("id")).observation().values(in: writer))
            defer { seen.cancel() }
            try await seen.wait { $0.map { $0.map(\.title) } == [["Dune"]] }
            var emma = Book(id: nil, title: "Emma", pages: 474, isbn: nil)
            try await emma.insert(writer)
            try await seen.wait { $0.count == 2 }
            // A table the read did not use: no value.
            var euro = Currency(id: "EUR", name: "Euro", rate: 1)
            try await euro.insert(writer)
            // A rolled-back write: no value.
            struct Refused: Error {}
            do {
                try await writer.write { db in
                    var ghost = Book(id: nil, title: "Ghost", pages: 1, isbn: nil)
                    try ghost.insert(db)
                    throw Refused()
                }
            } catch is Refused {}
            _ = try await Book.delete(writer, id: try XCTUnwrap(dune.id))
            try await seen.wait { $0.count == 3 }
            XCTAssertEqual(seen.values.map { $0.map(\.title) }, [["Dune"], ["Dune", "Emma"], ["Emma"]])
        }
    }

    func testARecordsObservationByIDIsNilUntilTheRowExists() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            let writer = engine.writer
            let seen = ContractValues(Book.observation(id: 1).values(in: writer))
            defer { seen.cancel() }
            try await seen.wait { $0.count == 1 }
            var dune = Book(id: 1, title: "Dune", pages: 412, isbn: nil)
            try await dune.insert(writer)
            try await seen.wait { $0.count == 2 }
            dune.pages = 500
            try await dune.update(writer)
            try await seen.wait { $0.count == 3 }
            XCTAssertEqual(seen.values.map { $0?.pages }, [nil, 412, 500])
        }
    }

    func testRemovingDuplicatesSkipsAnEqualValueAndAReadErrorEndsTheSequence() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            let writer = engine.writer
            struct TooMany: Error {}
            let observation = ValueObservation.tracking { db in
                let count = try Book.all().count(db)
                if count > 2 { throw TooMany() }
                return count
            }.removeDuplicates()
            let seen = ContractValues(observation.values(in: writer))
            defer { seen.cancel() }
            try await seen.wait { $0 == [0] }
            var book = Book(id: nil, title: "A", pages: 1, isbn: nil)
            try await book.insert(writer)
            try await seen.wait { $0 == [0, 1] }
            // Same count: the fresh value is a duplicate.
            book.pages = 2
            try await book.update(writer)
            var second = Book(id: nil, title: "B", pages: 1, isbn: nil)
            try await second.insert(writer)
            try await seen.wait { $0 == [0, 1, 2] }
            var third = Book(id: nil, title: "C", pages: 1, isbn: nil)
            try await third.insert(writer)
            try await seen.waitForEnd()
            XCTAssertEqual(seen.values, [0, 1, 2])
            XCTAssertTrue(seen.failure is TooMany, "\(String(describing: seen.failure))")
        }
    }

    func testEndingTheIterationStopsTheObservation() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            let writer = engine.writer
            var iterator = titles.values(in: writer).makeAsyncIterator()
            let first = try await iterator.next()
            XCTAssertEqual(first, [])
            var book = Book(id: nil, title: "A", pages: 1, isbn: nil)
            try await book.insert(writer)
            let second = try await iterator.next()
            XCTAssertEqual(second, ["A"])

            let seen = ContractValues(titles.values(in: writer))
            try await seen.wait { $0 == [["A"]] }
            seen.cancel()
            try await seen.waitForEnd()
            var other = Book(id: nil, title: "B", pages: 1, isbn: nil)
            try await other.insert(writer)
            try await Task.sleep(nanoseconds: 200_000_000)
            XCTAssertEqual(seen.values, [["A"]])
            let third = try await iterator.next()
            XCTAssertEqual(third, ["A", "B"])
        }
    }
}

/// The values an observation delivered, gathered by a task of its own. NSLock guards every `var`.
final class ContractValues<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    private var error: (any Error)?
    private var finished = false
    private var task: Task<Void, Never>?

    init(_ sequence: AsyncValueObservation<Value>) {
        task = Task { [self] in
            do {
                for try await value in sequence { locked { stored.append(value) } }
                locked { finished = true }
            } catch {
                locked {
                    self.error = error
                    finished = true
                }
            }
        }
    }

    var values: [Value] { locked { stored } }
    var failure: (any Error)? { locked { error } }

    func cancel() { task?.cancel() }

    /// Waits, up to 10 seconds, until `condition` holds for the values seen so far.
    func wait(file: StaticString = #filePath, line: UInt = #line, _ condition: ([Value]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition(values) {
            if let failure { throw failure }
            guard Date() < deadline else {
                return XCTFail("values seen: \(values)", file: file, line: line)
            }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    /// Waits, up to 10 seconds, until the sequence ended.
    func waitForEnd(file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !locked({ finished }) {
            guard Date() < deadline else { return XCTFail("not ended; values seen: \(values)", file: file, line: line) }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
