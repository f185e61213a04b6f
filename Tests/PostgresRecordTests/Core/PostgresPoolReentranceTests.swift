#if PostgreSQL
import Foundation
import PostgresRecord
import XCTest

/// A `read` or `write` of a pool called from inside a body of the same pool would wait for a connection
/// its own caller holds (forever, on a pool of one): it throws instead, as SQLite's queues and pools do.
final class PostgresPoolReentranceTests: PostgresTestCase {
    /// What `call` gave within five seconds: its error's description, "returned", or nil when it still
    /// waits (then left running: it can never finish).
    private func outcome(of call: @escaping @Sendable () async throws -> Void) async throws -> String? {
        let result = TestLocked<String?>(nil)
        Task {
            do {
                try await call()
                result.withLock { $0 = "returned" }
            } catch {
                result.withLock { $0 = "\(error)" }
            }
        }
        for _ in 0..<100 {
            if let done = result.withLock({ $0 }) { return done }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return nil
    }

    private let refusal =
        "PostgresRecord: a read or write of this PostgresPool was called from inside a read or write of the "
        + "same pool, where it would wait for a connection its own caller holds; use the body's connection"

    func testASynchronousReadInsideAnAsyncWriteOfTheSamePoolThrows() async throws {
        let pool = makePool(maximumConnections: 1)
        let got = try await outcome {
            try await pool.write { _ in _ = try pool.read { try $0.query("SELECT 1") } }
        }
        XCTAssertEqual(got, refusal)
        // The pool goes on serving calls.
        let after = try await pool.read { try $0.query("SELECT 2::bigint").decode(Int64.self) }
        XCTAssertEqual(after, [2])
    }

    func testASynchronousWriteInsideASynchronousWriteOfTheSamePoolThrows() async throws {
        let pool = makePool(maximumConnections: 3)
        let got = try await outcome {
            try pool.write { _ in try pool.writeWithoutTransaction { try $0.execute("SELECT 1") } }
        }
        XCTAssertEqual(got, refusal)
    }

    func testAnotherPoolInsideABodyRuns() async throws {
        let pool = makePool(maximumConnections: 1)
        let other = makePool(maximumConnections: 1)
        let got = try await outcome {
            try await pool.write { _ in _ = try other.read { try $0.query("SELECT 1") } }
        }
        XCTAssertEqual(got, "returned")
    }
}
#endif
