import Foundation

/// Which thread is running a block on a `DatabaseQueue`'s dispatch queue, if any.
final class QueueOwner: @unchecked Sendable {
    // @unchecked Sendable: `thread` is read and written only with `lock` held.
    private let lock = NSLock()
    private var thread: pthread_t?

    /// Runs `body`, recorded as the owner thread while it runs.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        thread = pthread_self()
        lock.unlock()
        defer {
            lock.lock()
            thread = nil
            lock.unlock()
        }
        return try body()
    }

    /// True when the calling thread is the one running a block on the queue.
    var isCurrentThread: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }
}
