#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A server in a network namespace of the test's own (``PostgresTestNetwork``), cut off by a blackhole:
/// its side of the veth pair goes down, so what the client sends vanishes with no error and no reset, as
/// on a partition. Calls end within the documented timeouts, the pool works again once the link is back,
/// and a transaction cut during its `COMMIT` says that its outcome is unknown.
///
/// Each test prints its figures (`PostgreSQL partition: ...`), those of the PostgreSQL article's Faults
/// section.
final class PostgresPartitionTests: XCTestCase {
    /// A pool with no network parameters in its connection string, so ``PostgresConfiguration/networkTimeouts``
    /// apply: a statement in flight when the link goes ends `.connectionLost` within `tcp_user_timeout` (15
    /// s) of the server's last packet and a keepalive interval; the next call, which must connect, ends
    /// `.connectionFailed` at `connect_timeout` (10 s); once the link is back, the pool's next call works.
    func testCallsBehindAPartitionEndWithinTheDefaultTimeoutsAndThePoolRecovers() async throws {
        let network = try PostgresTestNetwork.make()
        defer { network.remove() }
        let cluster = try PostgresTestCluster.make(in: network)
        defer { cluster.remove() }
        let pool = PostgresPool(cluster.connectionString, maximumConnections: 1)
        XCTAssertEqual(pool.configuration.defaultParameters, PostgresConfiguration.networkTimeouts)
        try await pool.write { try $0.execute("CREATE TABLE notes (id int8); INSERT INTO notes VALUES (1)") }

        // The statement is sent, and the server's answer, half a second later, goes nowhere.
        let running = Task { () -> String in
            do {
                _ = try await pool.read { try $0.query("SELECT 1 FROM pg_sleep(0.5)").count }
                return "answered"
            } catch let error as PostgresError {
                return "\(error.kind)"
            } catch {
                return "\(error)"
            }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        try network.blackhole()
        let cut = Date()
        let inFlight = await BoundedCall.value(of: running, within: 25)
        let inFlightSeconds = Date().timeIntervalSince(cut)
        XCTAssertEqual(inFlight, "connectionLost", "a statement in flight on a dead link did not end in 25 s")
        XCTAssertLessThan(inFlightSeconds, 15 + 2 + 1)

        // No connection left: the next call connects, and gives up at connect_timeout.
        let connecting = Task { () -> String in
            do {
                _ = try await pool.read { try $0.query("SELECT 1").count }
                return "answered"
            } catch let error as PostgresError {
                return "\(error.kind)"
            } catch {
                return "\(error)"
            }
        }
        let connectStart = Date()
        let connect = await BoundedCall.value(of: connecting, within: 15)
        let connectSeconds = Date().timeIntervalSince(connectStart)
        XCTAssertEqual(connect, "connectionFailed", "a connection attempt on a dead link did not end in 15 s")
        XCTAssertLessThan(connectSeconds, 10 + 1)

        try network.heal()
        let healed = Date()
        var count: Int64?
        while count == nil, Date().timeIntervalSince(healed) < 15 {
            count = try? await pool.read { try $0.query("SELECT count(*) FROM notes")[0].decode(Int64.self, at: 0) }
        }
        let recoverySeconds = Date().timeIntervalSince(healed)
        XCTAssertEqual(count, 1, "the pool did not work again within 15 s of the link's return")
        print(
            "PostgreSQL partition: statement in flight ended \(inFlight ?? "-") \(Self.format(inFlightSeconds)) s "
                + "after the blackhole; connect ended \(connect ?? "-") after \(Self.format(connectSeconds)) s; "
                + "pool answered \(Self.format(recoverySeconds)) s after the link came back")
    }

    /// The link goes while the transaction's `COMMIT` is on its way: the call throws `.connectionLost` with
    /// SQLSTATE 08007, not a plain loss (which means nothing committed) nor success. The caller's check: the
    /// transaction's id, taken in the body, asked on a new connection with `pg_xact_status`: never
    /// `committed` here, since the server never heard the `COMMIT`; `in progress` while the server still
    /// holds the session (or already `aborted`, when a packet after the link's return told it the client
    /// was gone), and `aborted` once the session, by its `pg_backend_pid()`, is ended; the row is not there.
    func testACommitCutByAPartitionReportsThatItsOutcomeIsUnknown() async throws {
        let network = try PostgresTestNetwork.make()
        defer { network.remove() }
        let cluster = try PostgresTestCluster.make(in: network)
        defer { cluster.remove() }
        // Short network timeouts for this pool: the connection string's parameters win over the defaults.
        let url = cluster.connectionString
            + "?tcp_user_timeout=1000&keepalives_idle=1&keepalives_interval=1&connect_timeout=2"
        let pool = PostgresPool(url, maximumConnections: 1)
        try await pool.write { try $0.execute("CREATE TABLE notes (id int8)") }
        let session = TestLocked<(xid: String, pid: Int64)?>(nil)
        let gate = PostgresGatedSaveTestCase.Gate(name: "commit")
        let writing = Task { () -> String in
            do {
                try await pool.write { connection in
                    try connection.execute("INSERT INTO notes VALUES (1)")
                    let row = try connection.query("SELECT pg_current_xact_id()::text, pg_backend_pid()::int8")[0]
                    let ids = (xid: try row.decode(String.self, at: 0), pid: try row.decode(Int64.self, at: 1))
                    session.withLock { $0 = ids }
                    gate.arriveAndWait()
                }
                return "committed"
            } catch let error as PostgresError {
                return "\(error.kind) \(error.sqlState)"
            } catch {
                return "\(error)"
            }
        }
        await gate.waitForArrival()
        try network.blackhole()
        let cut = Date()
        gate.release()
        let outcome = await BoundedCall.value(of: writing, within: 10)
        let seconds = Date().timeIntervalSince(cut)
        XCTAssertEqual(outcome, "connectionLost 08007")
        XCTAssertEqual(SQLState.transactionResolutionUnknown.rawValue, "08007")
        try network.heal()

        let ids = try XCTUnwrap(session.withLock { $0 })
        let checker = try connect(url, within: 10)
        func status() throws -> String? {
            try checker.query("SELECT pg_xact_status('\(ids.xid)'::xid8)::text")[0].decode(String?.self, at: 0)
        }
        let whileHeld = try status()
        XCTAssertTrue(["in progress", "aborted"].contains(whileHeld), "\(whileHeld ?? "nil")")
        _ = try checker.query("SELECT pg_terminate_backend(\(ids.pid))").count
        var settled = try status()
        let deadline = Date().addingTimeInterval(5)
        while settled == "in progress", Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
            settled = try status()
        }
        XCTAssertEqual(settled, "aborted")
        XCTAssertEqual(try checker.query("SELECT count(*) FROM notes")[0].decode(Int64.self, at: 0), 0)
        print(
            "PostgreSQL partition: COMMIT cut, \(outcome ?? "-") after \(Self.format(seconds)) s "
                + "(tcp_user_timeout 1 s); pg_xact_status \(whileHeld ?? "-") while the session lived, "
                + "\(settled ?? "-") once it was ended")
    }

    /// A connection to `url`, tried until it opens or `seconds` have passed (the neighbours of a link that
    /// just came back may take a moment).
    private func connect(_ url: String, within seconds: TimeInterval) throws -> PostgresConnection {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try PostgresConnection(url)
            } catch where Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    private static func format(_ seconds: TimeInterval) -> String { String(format: "%.2f", seconds) }
}
#endif
