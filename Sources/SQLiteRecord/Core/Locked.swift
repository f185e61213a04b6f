import Foundation

/// A value that several threads share, read and changed only while an `NSLock` is held: what every
/// process-wide cache of the library keeps its entries in.
///
/// `@unchecked Sendable`: the lock guards `value`, which is reached only through ``withLock(_:)``. NSLock
/// rather than `Mutex`, which needs macOS 15 / iOS 18 and which the thread sanitizer on Linux does not see.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value while the lock is held, and returns what it returns.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
