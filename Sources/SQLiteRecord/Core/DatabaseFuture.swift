import Dispatch
import Foundation

/// The result of a read that runs on its own, such as ``DatabasePool/concurrentRead(_:)``: wait for it, or
/// await it. GRDB calls it the same.
///
/// ```swift
/// let future = try pool.writeWithoutTransaction { db in
///     try db.transaction(.immediate) { try db.execute(sql: "INSERT INTO cities (name) VALUES ('Lyon')") }
///     return try pool.concurrentRead { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? 0 }
/// }
/// let count = try await future.value   // the count right after the INSERT, whatever was written since
/// ```
public final class DatabaseFuture<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is written once, with `lock` held, before `done` is left; it is read with
    // `lock` held after `done` has been waited for.
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private let done = DispatchGroup()

    init() {
        done.enter()
    }

    /// Sets the result and wakes every waiter; called once.
    func fulfill(_ result: Result<Value, any Error>) {
        lock.lock()
        self.result = result
        lock.unlock()
        done.leave()
    }

    /// Blocks the calling thread until the read is done, and returns its result.
    /// - Throws: what the read threw.
    public func wait() throws -> Value {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        guard let result else {
            throw DatabaseError(resultCode: .misuse, message: "a DatabaseFuture was waited for before its result")
        }
        return try result.get()
    }

    /// The read's result, awaited without blocking a thread.
    /// - Throws: what the read threw.
    public var value: Value {
        get async throws {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                done.notify(queue: .global()) { continuation.resume() }
            }
            return try wait()
        }
    }
}
