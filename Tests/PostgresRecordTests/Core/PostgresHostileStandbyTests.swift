#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The replica pool over a primary and a hot standby of the test's own, misused: a position from another
/// cluster's log, and a read at an isolation level a standby does not offer.
final class PostgresHostileStandbyTests: XCTestCase {
    private var primary: PostgresTestCluster?
    private var standby: PostgresTestCluster?

    override func tearDown() {
        standby?.remove()
        primary?.remove()
        super.tearDown()
    }

    private static func isInRecovery(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT pg_is_in_recovery()")[0].decode(Bool.self, at: 0)
    }

    func testAFarPositionFallsBackAfterTheTimeoutAndASerializableReadRunsOnThePrimary() async throws {
        let primary = try PostgresTestCluster.make()
        self.primary = primary
        let standby = try primary.makeStandby()
        self.standby = standby
        let pool = PostgresReplicaPool(
            primary: PostgresPool(primary.connectionString, maximumConnections: 2),
            replicas: [PostgresPool(standby.connectionString, maximumConnections: 2)],
            options: .init(replayTimeout: 0.2))
        try await pool.write { try $0.execute("CREATE TABLE notes (id int8)") }
        let caughtUp = try await pool.read(after: pool.lastWriteLSN) { try Self.isInRecovery($0) }
        XCTAssertTrue(caughtUp)
        // Another cluster's position, far ahead of this one's log: the standby never reaches it, and the read
        // runs on the primary once the replay timeout has passed.
        let start = Date()
        let far = try XCTUnwrap(PostgresLSN("FF/0"))
        let afterFar = try await pool.read(after: far) { try Self.isInRecovery($0) }
        XCTAssertFalse(afterFar)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.2)
        // Each level a standby offers runs there; SERIALIZABLE, which it refuses (0A000, "cannot use
        // serializable mode in a hot standby", the call's error before), on the primary.
        var served: [Bool] = []
        for level in IsolationLevel.allCases {
            served.append(try await pool.read(isolation: level) { try Self.isInRecovery($0) })
            served.append(try await pool.read(after: pool.lastWriteLSN, isolation: level) { try Self.isInRecovery($0) })
        }
        XCTAssertEqual(IsolationLevel.allCases, [.readCommitted, .repeatableRead, .serializable])
        XCTAssertEqual(served, [true, true, true, true, false, false])
    }
}
#endif
