#if PostgreSQL
import Foundation

/// A value behind an `NSLock`, for the module's process-wide caches (one record shape per type).
final class PostgresLocked<Value>: @unchecked Sendable {
    // The lock guards `value`; it is read and written only inside `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
#endif
