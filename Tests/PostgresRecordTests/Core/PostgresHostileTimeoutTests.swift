#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The statement timeout where a body misuses it: the timed-out error caught and another statement sent,
/// and statements each shorter than the timeout that together run longer.
final class PostgresHostileTimeoutTests: PostgresTestCase {
    private func timedPool(_ seconds: TimeInterval) -> PostgresPool {
        var configuration = configuration(maximumConnections: 1)
        configuration.statementTimeout = seconds
        return PostgresPool(configuration: configuration)
    }

    func testATimedOutStatementCaughtInTheBodyLeavesTheTransactionAbortedAndTheNextCallWorks() async throws {
        try connection.execute("CREATE TABLE notes (id int8)")
        let timed = timedPool(0.2)
        let pid = try await timed.read { try $0.query("SELECT pg_backend_pid()")[0].decode(Int32.self, at: 0) }
        let caught = Box<PostgresError?>(nil)
        do {
            try await timed.write { connection in
                try connection.execute("INSERT INTO notes VALUES (1)")
                do {
                    try connection.execute("SELECT pg_sleep(30)")
                } catch let error as PostgresError {
                    caught.value = error
                }
                try connection.execute("INSERT INTO notes VALUES (2)")
            }
            XCTFail("the write committed")
        } catch let error as PostgresError {
            XCTAssertEqual(error.sqlState.rawValue, "25P02", "\(error)")
        }
        XCTAssertEqual(caught.value?.sqlState.rawValue, "57014")
        XCTAssertEqual(try text("SELECT count(*)::text FROM notes"), "0")
        let after = try await timed.write { connection in
            try connection.execute("INSERT INTO notes VALUES (3)")
            return try connection.query("SELECT pg_backend_pid()")[0].decode(Int32.self, at: 0)
        }
        XCTAssertEqual(after, pid)
        XCTAssertEqual(try text("SELECT string_agg(id::text, ',') FROM notes"), "3")
    }

    func testTheTimeoutFiresForSynchronousCallsThatHoldEveryThreadOfTheGlobalQueue() throws {
        // Six synchronous writes from the global concurrent queue, whose threads are as many as the cores:
        // each blocks its thread in libpq. The timer ran on that same queue, so it waited for a thread until
        // the statements ended or libdispatch added threads, some 5 s later.
        var configuration = configuration(maximumConnections: 6)
        configuration.statementTimeout = 0.2
        let timed = PostgresPool(configuration: configuration)
        let group = DispatchGroup()
        let states = Box<[String]>([])
        let start = Date()
        for _ in 0..<6 {
            DispatchQueue.global().async(group: group) {
                do {
                    try timed.write { connection in try connection.execute("SELECT pg_sleep(10)") }
                    states.update { $0.append("committed") }
                } catch let error as PostgresError {
                    states.update { $0.append(error.sqlState.rawValue) }
                } catch {
                    states.update { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let elapsed = Date().timeIntervalSince(start)
        print("six synchronous timed-out writes from the global queue: \(Int(elapsed * 1000)) ms")
        // Two at a time on a 2-core machine, each stopped 0.2 s after it began: 0.6 s.
        XCTAssertLessThan(elapsed, 2)
        XCTAssertEqual(states.value, Array(repeating: "57014", count: 6))
    }

    func testATimeoutOfInfinityZeroNegativeOrNaNIsNone() async throws {
        for seconds in [.infinity, 1e300, 0, -1, .nan] as [TimeInterval] {
            let timed = timedPool(seconds)
            let slept = try await timed.write { connection in
                try connection.query("SELECT pg_sleep(0.01)::text")[0].decode(String.self, at: 0)
            }
            XCTAssertEqual(slept, "", "\(seconds)")
        }
    }

    func testStatementsEachShorterThanTheTimeoutAreNeverCancelledTogether() async throws {
        let timed = timedPool(0.25)
        // Three statements of 0.15 s: 0.45 s in all, each under the timeout; a timer left running from one
        // statement would stop the next.
        let count = try await timed.write { connection in
            for _ in 0..<3 { try connection.execute("SELECT pg_sleep(0.15)") }
            return try connection.query("SELECT 3")[0].decode(Int.self, at: 0)
        }
        XCTAssertEqual(count, 3)
    }
}

private final class Box<Value>: @unchecked Sendable {
    // The lock guards `stored`.
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    /// Changes the value under the lock, so that concurrent changes are not lost.
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
#endif
