#if PostgreSQL
import Foundation
import PostgresRecord
import XCTest

/// One call of a fault test, run on a task of its own and waited for up to a bound: how it ended and how
/// long it took, so that a call that hangs is a finding the test reports instead of a test that never ends.
struct BoundedCall: Sendable {
    /// `ok`, the error's kind and its SQLSTATE if any (`connectionLost 08007`, `server 57014`,
    /// `connectionFailed`), any other error as it prints, or `still running` when the bound passed first.
    let outcome: String
    /// From the call's start to its end, or to the bound.
    let seconds: TimeInterval

    /// True when the call succeeded.
    var succeeded: Bool { outcome == "ok" }

    /// Runs `body` and waits up to `bound` seconds for it.
    static func run(
        within bound: TimeInterval, _ body: @escaping @Sendable () async throws -> Void
    ) async -> BoundedCall {
        let start = Date()
        let task = Task { () -> String in
            do {
                try await body()
                return "ok"
            } catch let error as PostgresError {
                let state = error.sqlState.rawValue
                return state.isEmpty ? "\(error.kind)" : "\(error.kind) \(state)"
            } catch {
                return "\(error)"
            }
        }
        let outcome = await value(of: task, within: bound)
        return BoundedCall(outcome: outcome ?? "still running", seconds: Date().timeIntervalSince(start))
    }

    /// Waits for `task` up to `seconds`; nil when it has not ended by then (the call hangs).
    static func value<T: Sendable>(of task: Task<T, Never>, within seconds: TimeInterval) async -> T? {
        let result = TestLocked<T?>(nil)
        let waiter = Task {
            let value = await task.value
            result.withLock { $0 = value }
        }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, result.withLock({ $0 == nil }) {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        waiter.cancel()
        return result.withLock { $0 }
    }
}
#endif
