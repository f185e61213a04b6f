import Foundation
import SQLiteRecord
import XCTest

/// A row of the observation tests' `items` table.
struct ObservedItem: Record, Sendable, Equatable {
    var id: Int64?
    var name: String
    static let tableName = "items"
}

/// The observation tests' schema: `items`, observed, and `other`, which observed reads do not use.
let observationSchema = """
    CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE other(id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
    """

/// The values an observation delivered, gathered by a task of its own: tests wait for a count instead of
/// awaiting `next()` forever when a value never comes. NSLock guards every `var`.
final class ObservedValues<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedValues: [Value] = []
    private var storedError: (any Error)?
    private var storedFinished = false
    private var task: Task<Void, Never>?

    init(_ sequence: AsyncValueObservation<Value>) {
        task = Task { [self] in
            do {
                for try await value in sequence { append(value) }
                finish(nil)
            } catch {
                finish(error)
            }
        }
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storedValues
    }

    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return storedError
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return storedFinished
    }

    /// Cancels the gathering task, which ends the iteration.
    func cancel() { task?.cancel() }

    /// Waits until `count` values arrived (failing after 5 seconds), then returns them all.
    func wait(count: Int, file: StaticString = #filePath, line: UInt = #line) async throws -> [Value] {
        try await waitUntil(file: file, line: line) { values.count >= count || isFinished }
        return values
    }

    private func append(_ value: Value) {
        lock.lock()
        storedValues.append(value)
        lock.unlock()
    }

    private func finish(_ error: (any Error)?) {
        lock.lock()
        storedError = error
        storedFinished = true
        lock.unlock()
    }
}

/// The names in `items`, in id order.
@Sendable func itemNames(_ db: Database) throws -> [String] {
    try db.fetchAll(String.self, sql: "SELECT name FROM items ORDER BY id")
}
