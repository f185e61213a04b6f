#if canImport(Observation)
import Foundation
import Observation
import XCTest

@testable import SQLiteRecord

/// `LiveQuery` on a queue and on a pool: its observation lives as long as the query, and a released query
/// stops it, so no commit reaches it any more.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class LiveQueryTests: XCTestCase {
    @MainActor
    func testReleasingTheQueryStopsItsObservationOnAQueue() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: observationSchema) }
        try await assertReleaseStops(in: queue)
    }

    @MainActor
    func testReleasingTheQueryStopsItsObservationOnAPool() async throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("live.sqlite"))
        try await pool.write { db in try db.execute(sql: observationSchema) }
        try await assertReleaseStops(in: pool)
    }

    @MainActor
    private func assertReleaseStops(in writer: some DatabaseWriter) async throws {
        weak var released: LiveQuery<[ObservedItem]>?
        let changes = ChangeCount()
        do {
            let query = LiveQuery(ObservedItem.all().order(Column("id")), in: writer)
            released = query
            try await poll { query.value == [] }
            let observers = try await writer.write { db in db.changeTracker.observerCount }
            XCTAssertEqual(observers, 1)
            withObservationTracking { _ = query.state } onChange: { Task { @MainActor in changes.value += 1 } }
            var item = ObservedItem(id: nil, name: "a")
            try await item.insert(writer)
            try await poll { query.value?.map(\.name) == ["a"] }
        }
        XCTAssertNil(released)
        try await poll { (try? writer.writeWithoutTransaction { db in db.changeTracker.observerCount }) == 0 }
        let observers = try await writer.write { db in db.changeTracker.observerCount }
        XCTAssertEqual(observers, 0)
        var late = ObservedItem(id: nil, name: "late")
        try await late.insert(writer)
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(changes.value, 1)
    }

    /// Waits on the main actor, up to 5 seconds, until `condition` holds.
    @MainActor
    private func poll(file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            guard Date() < deadline else { return XCTFail("condition not met within 5 s", file: file, line: line) }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}

/// How many changes an observer heard of.
@MainActor
private final class ChangeCount {
    var value = 0
}
#endif
