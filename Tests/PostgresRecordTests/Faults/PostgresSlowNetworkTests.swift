#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A server in a network namespace of the test's own (``PostgresTestNetwork``) over a slow link and a lossy
/// one: every call ends within its documented timeout (``PostgresConfiguration/networkTimeouts``,
/// ``PostgresConfiguration/statementTimeout``), no acknowledged write is lost, and the pool answers again
/// once the link is well.
///
/// `tc netem` shapes the link where the kernel has it (`sch_netem`); elsewhere the delay is a user-space relay
/// on 127.0.0.1 that holds each chunk (``TCPTestRelay/delay``) and the loss nftables' `numgen random` in the
/// namespace (``PostgresTestNetwork/setLoss(percent:)``). Each test prints which, and its figures
/// (`PostgreSQL slow network: ...`), those of the PostgreSQL article's Faults section.
final class PostgresSlowNetworkTests: XCTestCase {
    /// The delay of a link to a server in a namespace: netem on the veth pair where the kernel has it, else a
    /// relay on 127.0.0.1 to the server's namespace address that holds each chunk.
    private final class SlowLink: Sendable {
        let network: PostgresTestNetwork
        let relay: TCPTestRelay?
        /// Where clients connect: the server itself with netem, the relay without.
        let connectionString: String
        /// What shapes the link, for the printed figures.
        let method: String

        init(_ network: PostgresTestNetwork, _ cluster: PostgresTestCluster) throws {
            self.network = network
            if let failure = network.netemFailure {
                let relay = try TCPTestRelay(targetHost: network.serverAddress, targetPort: cluster.port)
                self.relay = relay
                connectionString = "postgresql://postgres@127.0.0.1:\(relay.port)/postgres"
                method = "a user-space relay (tc netem: \(failure))"
            } else {
                relay = nil
                connectionString = cluster.connectionString
                method = "tc netem"
            }
        }

        /// Holds what crosses the link `seconds` each way.
        func setDelay(_ seconds: TimeInterval) throws {
            if let relay {
                relay.delay = seconds
            } else {
                try network.setNetemDelay(milliseconds: Int((seconds * 1000).rounded()))
            }
        }

        func stop() { relay?.stop() }
    }

    /// Over a link that holds everything 150 ms each way, writes and reads through a pool (whose connections
    /// open over the slow link) succeed, each within `connect_timeout` (10 s); a statement longer than the
    /// pool's 2 s statement timeout ends with 57014 within the timeout and the call's round trips (the
    /// cancel request and the error cross the link too); a connection whose startup the link holds 3 s ends
    /// `.connectionFailed` at its `connect_timeout` of 2 s. Once the link is fast again, the pool's next call
    /// answers at once and holds every acknowledged write.
    func testCallsOverASlowLinkEndWithinTheirTimeoutsAndThePoolRecovers() async throws {
        let network = try PostgresTestNetwork.make()
        defer { network.remove() }
        let cluster = try PostgresTestCluster.make(in: network)
        defer { cluster.remove() }
        let link = try SlowLink(network, cluster)
        defer { link.stop() }
        let pool = PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: link.connectionString, maximumConnections: 2, statementTimeout: 2))
        try await pool.write { try $0.execute("CREATE TABLE notes (id int8 PRIMARY KEY)") }

        let delay = 0.15
        try link.setDelay(delay)
        var calls: [BoundedCall] = []
        for index in 1...10 {
            let call = await BoundedCall.run(within: 10) {
                if index.isMultiple(of: 2) {
                    try await pool.write {
                        _ = try $0.execute("INSERT INTO notes VALUES ($1)", [PostgresValue(Int64(index))])
                    }
                } else {
                    _ = try await pool.read { try $0.query("SELECT count(*) FROM notes").count }
                }
            }
            XCTAssertEqual(call.outcome, "ok", "call \(index) over a 150 ms link")
            calls.append(call)
        }
        let slowest = calls.map(\.seconds).max() ?? 0

        let sleeping = await BoundedCall.run(within: 10) {
            _ = try await pool.read { try $0.query("SELECT pg_sleep(10)").count }
        }
        XCTAssertEqual(sleeping.outcome, "server 57014")
        // The timeout, and the round trips of the call (its BEGIN, its statement, the cancel request, the
        // error, its ROLLBACK), and 1.5 s for a machine busy with other builds (2.9 s in all on a quiet one,
        // 3.7 s on a busy one); without the timer the call would end with pg_sleep, at 10 s.
        XCTAssertLessThan(sleeping.seconds, 2 + 5 * 2 * delay + 1.5)

        try link.setDelay(3)
        let url = link.connectionString + "?connect_timeout=2"
        let connecting = await BoundedCall.run(within: 10) { _ = try PostgresConnection(url) }
        XCTAssertEqual(connecting.outcome, "connectionFailed")
        XCTAssertLessThan(connecting.seconds, 2 + 1)

        try link.setDelay(0)
        let recovered = Date()
        let stored = await BoundedCall.run(within: 10) {
            let count = try await pool.read {
                try $0.query("SELECT count(*) FROM notes")[0].decode(Int64.self, at: 0)
            }
            XCTAssertEqual(count, 5)
        }
        XCTAssertEqual(stored.outcome, "ok")
        XCTAssertLessThan(stored.seconds, 5)
        print(
            "PostgreSQL slow network: delay by \(link.method); 10 calls over a 150 ms link, "
                + "\(calls.filter(\.succeeded).count) ok, slowest \(Self.format(slowest)) s; a statement past the 2 s "
                + "timeout ended \(sleeping.outcome) after "
                + "\(Self.format(sleeping.seconds)) s; a connect held 3 s ended \(connecting.outcome) after "
                + "\(Self.format(connecting.seconds)) s (connect_timeout 2 s); the pool answered "
                + "\(Self.format(Date().timeIntervalSince(recovered))) s after the link was fast again")
    }

    /// Over a link that drops 20% of the packets each way, 30 calls through a pool with the default network
    /// timeouts, every fifth on a new connection that must open over the lossy link, each end within
    /// `connect_timeout` plus `tcp_user_timeout` and a keepalive interval (10 + 15 + 2 s, the documented
    /// bounds): most succeed as TCP retransmits; those that fail say so (`.connectionFailed`, or
    /// `.connectionLost` with 08007 when a COMMIT's outcome is unknown). Once the loss stops, the pool's next
    /// call answers within 5 s, and every acknowledged write is stored (a write of unknown outcome may be too).
    func testCallsOverALossyLinkEndWithinTheirTimeoutsAndThePoolRecovers() async throws {
        let network = try PostgresTestNetwork.make()
        defer { network.remove() }
        let cluster = try PostgresTestCluster.make(in: network)
        defer { cluster.remove() }
        let method = network.netemFailure.map { "nftables numgen random (tc netem: \($0))" } ?? "tc netem"
        let pool = PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: cluster.connectionString, maximumConnections: 2, statementTimeout: 5))
        try await pool.write { try $0.execute("CREATE TABLE notes (id int8 PRIMARY KEY)") }

        try network.setLoss(percent: 20)
        let bound: TimeInterval = 10 + 15 + 2
        let acknowledged = TestLocked<Set<Int64>>([])
        var calls: [BoundedCall] = []
        var unknown: Set<Int64> = []
        for index in 1...30 {
            let id = Int64(index)
            let call = await BoundedCall.run(within: bound + 1) {
                switch index % 5 {
                case 0:
                    let connection = try PostgresConnection(cluster.connectionString)
                    _ = try connection.query("SELECT count(*) FROM notes").count
                case 1, 3:
                    try await pool.write {
                        _ = try $0.execute("INSERT INTO notes VALUES ($1)", [PostgresValue(id)])
                    }
                    acknowledged.withLock { _ = $0.insert(id) }
                default:
                    _ = try await pool.read { try $0.query("SELECT count(*) FROM notes").count }
                }
            }
            XCTAssertLessThan(call.seconds, bound, "call \(index) over a lossy link: \(call.outcome)")
            XCTAssertTrue(
                call.succeeded || call.outcome.hasPrefix("connectionFailed")
                    || call.outcome.hasPrefix("connectionLost"),
                "call \(index): \(call.outcome)")
            if call.outcome == "connectionLost 08007" { unknown.insert(id) }
            calls.append(call)
        }
        let succeeded = calls.filter(\.succeeded).count
        XCTAssertGreaterThanOrEqual(succeeded, 15, "\(calls.map(\.outcome))")
        let dropped = try network.droppedPackets()
        XCTAssertGreaterThan(dropped, 0, "the link dropped nothing")

        try network.setLoss(percent: 0)
        let healed = Date()
        var ids: Set<Int64>?
        while ids == nil, Date().timeIntervalSince(healed) < 5 {
            ids = try? await pool.read { connection in
                Set(try connection.query("SELECT id FROM notes").decode(Int64.self))
            }
        }
        let recoverySeconds = Date().timeIntervalSince(healed)
        let stored = try XCTUnwrap(ids, "the pool did not answer within 5 s of the loss's end")
        let written = acknowledged.withLock { $0 }
        XCTAssertTrue(
            written.isSubset(of: stored), "acknowledged writes lost: \(written.subtracting(stored).sorted())")
        XCTAssertTrue(stored.isSubset(of: written.union(unknown)), "\(stored.subtracting(written).sorted())")
        let failures = Dictionary(grouping: calls.filter { !$0.succeeded }, by: \.outcome).mapValues(\.count)
        let failed = failures.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", ")
        print(
            "PostgreSQL slow network: loss by \(method); 30 calls at 20% loss each way (\(dropped) packets "
                + "dropped), \(succeeded) ok, failed "
                + "\(failed.isEmpty ? "none" : failed), "
                + "slowest \(Self.format(calls.map(\.seconds).max() ?? 0)) s (bound \(Int(bound)) s); "
                + "\(written.count) writes acknowledged, \(written.subtracting(stored).count) lost; the pool answered "
                + "\(Self.format(recoverySeconds)) s after the loss stopped")
    }

    private static func format(_ seconds: TimeInterval) -> String { String(format: "%.2f", seconds) }
}
#endif
