import Foundation

/// A value that several threads share, read and written only inside ``withLock(_:)``, which holds an
/// `NSLock` for the length of the call.
///
/// What the library (SQLiteRecord and PostgresRecord) keeps process-wide (caches that outlive one
/// connection) is kept in one of these; each such cache says at its type why it is process-wide. `NSLock` rather than `Mutex`, which needs macOS 15 /
/// iOS 18 and which Thread Sanitizer on Linux does not see.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock, and returns what `body` returns. `body` must not
    /// call `withLock` on the same instance (NSLock is not recursive).
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
