#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// Observation under hostile use: table names PostgreSQL treats specially (mixed case, reserved words,
/// quotes, longer than its 63-byte identifiers), the notifications installed twice, a read that throws,
/// many observations at once, and one ended while commits land.
final class PostgresHostileObservationTests: PostgresTestCase {
    private struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    /// Iterates `sequence` in a task of its own, keeping each value and the error that ended it.
    private final class Collector<Value: Sendable>: @unchecked Sendable {
        // The lock guards `values`, `error` and `finished`.
        private let lock = NSLock()
        private var values: [Value] = []
        private var error: (any Error)?
        private var finished = false
        private(set) var task: Task<Void, Never>?

        init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Value {
            task = Task {
                do {
                    for try await value in sequence { self.lock.withLock { self.values.append(value) } }
                } catch {
                    self.lock.withLock { self.error = error }
                }
                self.lock.withLock { self.finished = true }
            }
        }

        var seen: [Value] { lock.withLock { values } }
        var failure: (any Error)? { lock.withLock { error } }
        var isFinished: Bool { lock.withLock { finished } }

        /// Waits, up to `timeout` seconds, until `condition` holds for the values seen so far.
        func wait(timeout: Double = 10, until condition: ([Value]) -> Bool) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(seen) {
                if let failure { throw failure }
                guard Date() < deadline else { throw Timeout(description: "values seen: \(seen)") }
                try await Task.sleep(nanoseconds: 2_000_000)
            }
        }

        /// Waits, up to `timeout` seconds, until the sequence has ended.
        func waitForEnd(timeout: Double = 10) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !isFinished {
                guard Date() < deadline else { throw Timeout(description: "not ended; values seen: \(seen)") }
                try await Task.sleep(nanoseconds: 2_000_000)
            }
        }
    }

    private func count(_ table: String) -> ValueObservation<Int> {
        .tracking { connection in
            try connection.query("SELECT count(*)::int8 FROM \(SQLIdentifier.quoted(table))")[0].decode(Int.self, at: 0)
        }
    }

    /// The listening sessions open on the server for this test's schema.
    private func listenerCount() throws -> Int {
        let rows = try connection.query(
            "SELECT count(*)::int8 FROM pg_stat_activity WHERE application_name = 'PostgresRecord listener' "
                + "AND query LIKE $1", [try PostgresValue(text: "LISTEN \"\(schema).%")])
        return try rows[0].decode(Int.self, at: 0)
    }

    func testTablesWithMixedCaseReservedQuotedAndOverlongNamesAreHeard() async throws {
        let overlong = String(repeating: "n", count: 70)
        // PostgreSQL cuts an identifier to 63 bytes, at a character's end: the table is made, and named, so.
        for name in ["Order", "user", "a \"quoted\" name", "é" + overlong] {
            try connection.execute("CREATE TABLE \(SQLIdentifier.quoted(name)) (id int8)")
            try connection.installChangeNotifications(for: [name])
            let values = Collector(count(name).values(in: pool))
            try await values.wait { $0 == [0] }
            try connection.execute("INSERT INTO \(SQLIdentifier.quoted(name)) VALUES (1)")
            try await values.wait { $0 == [0, 1] }
            values.task?.cancel()
        }
    }

    func testATableOutsideTheSearchPathGetsItsNotificationsInstalledOnItself() async throws {
        // The same name in the test's schema (without notifications) and in another one (without): the
        // install an observation of the other one runs must land on that table, not on the first.
        let other = schema + "_other"
        let admin = try PostgresConnection(url)
        try admin.execute("CREATE SCHEMA \"\(other)\"")
        defer { try? admin.execute("DROP SCHEMA \"\(other)\" CASCADE") }
        try admin.execute("CREATE TABLE \"\(other)\".tags (name text)")
        try connection.execute("CREATE TABLE tags (name text)")
        let observation = ValueObservation.tracking { connection in
            try connection.query("SELECT count(*) FROM \"\(other)\".tags")[0].decode(Int64.self, at: 0)
        }
        let values = Collector(observation.values(in: pool))
        defer { values.task?.cancel() }
        try await values.wait { $0 == [0] }
        XCTAssertEqual(
            try connection.query(
                "SELECT string_agg(n.nspname || '.' || c.relname, ',') FROM pg_trigger t JOIN pg_class c ON "
                    + "c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE t.tgname = "
                    + "'postgresrecord_notify_change' AND c.relname = 'tags'")[0].decode(String.self, at: 0),
            "\(other).tags")
        try admin.execute("INSERT INTO \"\(other)\".tags VALUES ('x')")
        try await values.wait { $0 == [0, 1] }
    }

    func testInstallsFromFourSessionsAtOnceAllSucceed() async throws {
        // Each replaces the trigger function and the tables' triggers, the tables in other orders: without a
        // lock, 12 of 40 failed ("tuple concurrently updated", XX000).
        try connection.execute("CREATE TABLE items (id int8)")
        try connection.execute("CREATE TABLE others (id int8)")
        let configuration = self.configuration()
        var results: [String] = []
        for _ in 0..<10 {
            results += await withTaskGroup(of: String.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        do {
                            let session = try PostgresConnection(configuration: configuration)
                            try session.installChangeNotifications(
                                for: index % 2 == 0 ? ["items", "others"] : ["others", "items"])
                            if index == 3 { try session.removeChangeNotifications(for: ["others", "items"]) }
                            return "ok"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                var all: [String] = []
                for await result in group { all.append(result) }
                return all
            }
        }
        XCTAssertEqual(results, Array(repeating: "ok", count: 40))
    }

    func testInstallingTwiceKeepsOneTriggerAndOneValuePerCommit() async throws {
        try connection.execute("CREATE TABLE items (id int8)")
        try connection.installChangeNotifications(for: ["items"])
        try connection.installChangeNotifications(for: ["items", "items"])
        let triggers = try connection.query(
            "SELECT count(*)::int8 FROM pg_trigger WHERE tgrelid = 'items'::regclass AND NOT tgisinternal")
        XCTAssertEqual(try triggers[0].decode(Int.self, at: 0), 1)
        let values = Collector(count("items").values(in: pool))
        try await values.wait { $0 == [0] }
        try connection.execute("INSERT INTO items VALUES (1), (2)")
        try await values.wait { $0 == [0, 2] }
        try connection.execute("INSERT INTO items VALUES (3)")
        try await values.wait { $0 == [0, 2, 3] }
        values.task?.cancel()
    }

    func testAReadThatThrowsEndsTheSequenceWithItsErrorAndClosesTheListener() async throws {
        try connection.execute("CREATE TABLE items (id int8)")
        try connection.installChangeNotifications(for: ["items"])
        struct Refused: Error, Equatable {}
        let observation = ValueObservation<Int>.tracking { connection in
            let count = try connection.query("SELECT count(*)::int8 FROM items")[0].decode(Int.self, at: 0)
            if count > 0 { throw Refused() }
            return count
        }
        let values = Collector(observation.values(in: pool))
        try await values.wait { $0 == [0] }
        try connection.execute("INSERT INTO items VALUES (1)")
        try await values.waitForEnd()
        XCTAssertEqual(values.seen, [0])
        XCTAssertTrue(values.failure is Refused, "\(String(describing: values.failure))")
        let deadline = Date().addingTimeInterval(5)
        while try listenerCount() > 0, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertEqual(try listenerCount(), 0)
    }

    func testTwentyObservationsOnAPoolOfTwoEachSeeTheLastCommitAndCloseTheirListeners() async throws {
        try connection.execute("CREATE TABLE items (id int8)")
        try connection.installChangeNotifications(for: ["items"])
        let small = makePool(maximumConnections: 2)
        let observers = (0..<20).map { _ in Collector(count("items").removeDuplicates().values(in: small)) }
        for observer in observers { try await observer.wait { $0 == [0] } }
        XCTAssertEqual(try listenerCount(), 20)
        for value in 1...5 { try connection.execute("INSERT INTO items VALUES (\(value))") }
        for observer in observers { try await observer.wait { $0.last == 5 } }
        for observer in observers { observer.task?.cancel() }
        let deadline = Date().addingTimeInterval(5)
        while try listenerCount() > 0, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertEqual(try listenerCount(), 0)
    }

    func testEndingOneObservationWhileCommitsLandLeavesTheOtherDeliveringTheLastState() async throws {
        try connection.execute("CREATE TABLE items (id int8)")
        try connection.installChangeNotifications(for: ["items"])
        let ended = Collector(count("items").values(in: pool))
        let kept = Collector(count("items").removeDuplicates().values(in: pool))
        try await ended.wait { $0 == [0] }
        try await kept.wait { $0 == [0] }
        let writer = makePool(maximumConnections: 1)
        let writes = Task {
            for value in 1...40 {
                try await writer.write { try $0.execute("INSERT INTO items VALUES (\(value))") }
            }
        }
        try await ended.wait { $0.count > 1 }
        ended.task?.cancel()
        try await writes.value
        try await ended.waitForEnd()
        try await kept.wait { $0.last == 40 }
        XCTAssertEqual(kept.seen, kept.seen.sorted())
        kept.task?.cancel()
    }
}
#endif
