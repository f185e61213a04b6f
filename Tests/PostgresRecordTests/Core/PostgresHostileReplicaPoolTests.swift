#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The replica pool misused: no replica at all, a replica that refuses every connection, and a position
/// from no log of this server.
final class PostgresHostileReplicaPoolTests: PostgresTestCase {
    private static func isInRecovery(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT pg_is_in_recovery()")[0].decode(Bool.self, at: 0)
    }

    func testWithNoReplicaEveryReadRunsOnThePrimaryWithoutWaiting() async throws {
        let replicas = PostgresReplicaPool(primary: pool, replicas: [])
        XCTAssertNil(replicas.lastWriteLSN)
        try await replicas.write { try $0.execute("CREATE TABLE notes (id int8)") }
        let written = try XCTUnwrap(replicas.lastWriteLSN)
        let plain = try await replicas.read { try Self.isInRecovery($0) }
        XCTAssertFalse(plain)
        // A position the primary never reached: with no replica to wait for, the read runs on the primary.
        let start = Date()
        let far = PostgresLSN(rawValue: UInt64.max)
        let afterFar = try await replicas.read(after: far) { try Self.isInRecovery($0) }
        let afterWrite = try await replicas.read(after: written) { try Self.isInRecovery($0) }
        XCTAssertEqual([afterFar, afterWrite], [false, false])
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
    }

    func testAReplicaThatRefusesConnectionsIsLeftOutAndReadsRunOnThePrimaryAtOnce() async throws {
        // Port 1 on the loopback refuses at once: no server listens there.
        let refused = PostgresPool("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", maximumConnections: 1)
        let replicas = PostgresReplicaPool(
            primary: pool, replicas: [refused],
            options: .init(maximumReplayLag: 5, replayTimeout: 5, recheckInterval: 60))
        try await replicas.write { try $0.execute("CREATE TABLE notes (id int8)") }
        let start = Date()
        for _ in 0..<20 {
            let plain = try await replicas.read { try Self.isInRecovery($0) }
            let after = try await replicas.read(after: replicas.lastWriteLSN) { try Self.isInRecovery($0) }
            XCTAssertEqual([plain, after], [false, false])
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testOptionsSetNegativeOrNotANumberAfterTheirInitializerActAsZero() async throws {
        // The initializer clamps each option to zero or more; the properties are `var`, and a value set on
        // them afterwards reached a conversion to UInt64, which traps on a negative number or NaN.
        let refused = PostgresPool("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", maximumConnections: 1)
        for value in [-1, -.infinity, .nan] as [TimeInterval] {
            var options = PostgresReplicaPool.Options()
            options.replayTimeout = value
            options.recheckInterval = value
            for replicas in [[], [refused]] {
                let replicaPool = PostgresReplicaPool(primary: pool, replicas: replicas, options: options)
                let far = PostgresLSN(rawValue: UInt64.max)
                let onStandby = try await replicaPool.read(after: far) { try Self.isInRecovery($0) }
                let plain = try await replicaPool.read { try Self.isInRecovery($0) }
                XCTAssertEqual([onStandby, plain], [false, false], "\(value)")
            }
        }
    }

    func testAPositionTextFromNowhereIsNoPosition() {
        for text in ["", "/", "0", "1/", "/1", "G/0", "1/2/3", "-1/0", " 1/0", "1/0 ", "100000000/0", "1/100000000"] {
            XCTAssertNil(PostgresLSN(text), text)
        }
        XCTAssertEqual(PostgresLSN("FFFFFFFF/FFFFFFFF"), PostgresLSN(rawValue: UInt64.max))
        XCTAssertEqual(PostgresLSN("16/B374D848")?.description, "16/B374D848")
        XCTAssertEqual(PostgresLSN("0/0"), PostgresLSN(rawValue: 0))
    }
}
#endif
