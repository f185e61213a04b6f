#if PostgreSQL
import Dispatch
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A connection cut in the middle of a parent and children save (`save(_:children:)` in a pool's `write`):
/// the server ending the session (`pg_terminate_backend` from another connection) between two statements of
/// the body, and the socket closed under the client (``TCPTestRelay``) between statements and while one
/// runs. Each is ``PostgresError`` of kind `.connectionLost`, nothing of the transaction is stored, and the
/// pool's next call works on a new connection.
final class PostgresConnectionCutTests: PostgresGatedSaveTestCase {
    /// A write of one country and three cities; the body is held before the second city's insert when
    /// `gate` names it.
    private static func saveBatch(_ pool: PostgresPool, _ label: String) async throws -> Int32 {
        try await pool.write { connection in
            var country = Country(id: nil, name: label)
            var cities = (1...3).map { City(id: nil, countryId: nil, name: "\(label) city \($0)") }
            try country.save(connection, children: &cities)
            return try connection.query("SELECT pg_backend_pid()")[0].decode(Int32.self, at: 0)
        }
    }

    private func backendPID(_ pool: PostgresPool) async throws -> Int32 {
        try await pool.read { try $0.query("SELECT pg_backend_pid()")[0].decode(Int32.self, at: 0) }
    }

    /// The error `task` ends with, checked to be a lost connection.
    private func expectConnectionLost(
        _ task: Task<Int32, any Error>, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await task.value
            XCTFail("no error", file: file, line: line)
        } catch let error as PostgresError {
            XCTAssertEqual(error.kind, .connectionLost, "\(error)", file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testTheServerEndingTheSessionBetweenTwoStatementsIsConnectionLostAndStoresNothing() async throws {
        let pool = makePool(maximumConnections: 1)
        let pid = try await backendPID(pool)
        let gate = Gate(name: "cut city 2")
        City.gate = gate
        let task = Task { try await PostgresConnectionCutTests.saveBatch(pool, "cut") }
        await gate.waitForArrival()
        // The country and the first city are inserted, in the open transaction.
        XCTAssertEqual(try text("SELECT pg_terminate_backend(\(pid))::text"), "true")
        try waitUntil("SELECT count(*)::text FROM pg_stat_activity WHERE pid = \(pid)", is: "0")
        gate.release()
        await expectConnectionLost(task)
        XCTAssertEqual(try storedCounts(), "0,0")
        City.gate = nil
        let next = try await Self.saveBatch(pool, "next")
        XCTAssertNotEqual(next, pid)
        XCTAssertEqual(try storedCounts(), "1,3")
    }

    /// Waits (10 s at most) until `sql`'s one text value is `value`.
    private func waitUntil(_ sql: String, is value: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(10)
        while try text(sql) != value {
            guard Date() < deadline else { return XCTFail("\(sql) never gave \(value)", file: file, line: line) }
            usleep(2_000)
        }
    }

    /// A pool whose connections go through `relay`.
    private func pool(through relay: TCPTestRelay) -> PostgresPool {
        PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: "postgresql://postgres@127.0.0.1:\(relay.port)/postgres?options=-csearch_path%3D\(schema)",
                maximumConnections: 1))
    }

    private func serverPort() throws -> Int {
        let port = try XCTUnwrap(URLComponents(string: url)?.port, "the test server's URL \(url) names no port")
        return port
    }

    func testTheSocketClosedBetweenTwoStatementsIsConnectionLostAndStoresNothing() async throws {
        let relay = try TCPTestRelay(targetPort: try serverPort())
        defer { relay.stop() }
        let pool = pool(through: relay)
        let pid = try await backendPID(pool)
        let gate = Gate(name: "cut city 2")
        City.gate = gate
        let task = Task { try await PostgresConnectionCutTests.saveBatch(pool, "cut") }
        await gate.waitForArrival()
        relay.cut()
        gate.release()
        await expectConnectionLost(task)
        // The server ends the session once it reads the end of its socket; its transaction never committed.
        try waitUntil("SELECT count(*)::text FROM pg_stat_activity WHERE pid = \(pid)", is: "0")
        XCTAssertEqual(try storedCounts(), "0,0")
        City.gate = nil
        let next = try await Self.saveBatch(pool, "next")
        XCTAssertNotEqual(next, pid)
        XCTAssertEqual(try storedCounts(), "1,3")
    }

    func testTheSocketClosedWhileAStatementRunsIsConnectionLostWithinASecondAndStoresNothing() async throws {
        let relay = try TCPTestRelay(targetPort: try serverPort())
        defer { relay.stop() }
        let pool = pool(through: relay)
        let pid = try await backendPID(pool)
        let task = Task {
            try await pool.write { connection -> Int32 in
                var country = Country(id: nil, name: "cut")
                var cities = [City(id: nil, countryId: nil, name: "cut city 1")]
                try country.save(connection, children: &cities)
                _ = try connection.query("SELECT pg_sleep(5)")
                return 0
            }
        }
        try waitUntil(
            "SELECT count(*)::text FROM pg_stat_activity WHERE pid = \(pid) AND state = 'active' "
                + "AND query = 'SELECT pg_sleep(5)'", is: "1")
        let cut = Date()
        relay.cut()
        await expectConnectionLost(task)
        XCTAssertLessThan(Date().timeIntervalSince(cut), 1)
        // The session runs its statement on, without a client; its transaction never commits.
        XCTAssertEqual(try storedCounts(), "0,0")
        _ = try connection.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = \(pid)")
        let next = try await Self.saveBatch(pool, "next")
        XCTAssertNotEqual(next, pid)
        XCTAssertEqual(try storedCounts(), "1,3")
    }
}
#endif
