#if canImport(Observation)
import Foundation
import Observation
import SQLiteRecord
import XCTest

/// `LiveQuery` on every engine, watched as SwiftUI watches it (`withObservationTracking`): loading first,
/// then each fresh result once, in commit order, on the main actor; a read error ends it in `failed`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class LiveQueryContractTests: RecordContractTestCase {
    func testEachCommitThatChangesTheResultIsSeenOnceInOrder() async {
        await onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.createTable(Currency.self)
            try await Self.seesEachCommitOnce(in: engine.writer)
        }
    }

    func testAReadErrorEndsTheQueryInFailed() async {
        await onEachEngine { engine in
            // No table: the first read fails.
            try await Self.endsInFailed(in: engine.writer)
        }
    }

    @MainActor
    private static func seesEachCommitOnce(in writer: any AsyncDatabaseWriter) async throws {
        let query = LiveQuery(Book.all().order(Column("title")), in: writer)
        XCTAssertTrue(query.isLoading)
        XCTAssertNil(query.value)
        let log = ChangeLog(query) { $0.map { $0.map(\.title) } }
        try await log.wait(count: 1)
        XCTAssertFalse(query.isLoading)
        for (index, title) in ["Dune", "Emma", "Beloved"].enumerated() {
            var book = Book(id: nil, title: title, pages: 1, isbn: nil)
            try await book.insert(writer)
            try await log.wait(count: index + 2)
        }
        // A commit to another table changes nothing the query reads.
        var euro = Currency(id: "EUR", name: "Euro", rate: 1)
        try await euro.insert(writer)
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(
            log.seen,
            [[], ["Dune"], ["Dune", "Emma"], ["Beloved", "Dune", "Emma"]].map { Optional($0) })
        XCTAssertEqual(query.value?.map(\.title), ["Beloved", "Dune", "Emma"])
        XCTAssertNil(query.error)
    }

    @MainActor
    private static func endsInFailed(in writer: any AsyncDatabaseWriter) async throws {
        let query = LiveQuery(Book.all(), in: writer)
        let log = ChangeLog(query) { $0.map { $0.count } }
        try await log.wait(count: 1)
        XCTAssertFalse(query.isLoading)
        XCTAssertNil(query.value)
        XCTAssertNotNil(query.error)
        XCTAssertEqual(log.seen, [nil])
    }
}

/// What an observer of a `LiveQuery`'s `state` sees: after each change it hears of (once per change, as
/// `withObservationTracking` tells it), the query's value as `transform` shows it; then it watches again.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class ChangeLog<Value: Sendable, Shown> {
    private let query: LiveQuery<Value>
    private let transform: (Value?) -> Shown
    private(set) var seen: [Shown] = []

    init(_ query: LiveQuery<Value>, _ transform: @escaping (Value?) -> Shown) {
        self.query = query
        self.transform = transform
        watch()
    }

    /// Watches the next change; the value is taken once the change has happened (onChange runs before it).
    private func watch() {
        withObservationTracking {
            _ = query.state
        } onChange: { [weak self] in
            Task { @MainActor in self?.record() }
        }
    }

    private func record() {
        seen.append(transform(query.value))
        watch()
    }

    /// Waits, up to 10 seconds, until `count` changes were seen.
    func wait(count: Int, file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = Date().addingTimeInterval(10)
        while seen.count < count {
            guard Date() < deadline else { return XCTFail("changes seen: \(seen)", file: file, line: line) }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }
}
#endif
