#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A primary and a hot standby of the test's own (``PostgresTestCluster``), and a ``PostgresReplicaPool``
/// over them. Which server served a read is the body's own `pg_is_in_recovery()`: true on the standby.
final class PostgresReplicaPoolTests: XCTestCase {
    struct Note: Record, Equatable, Sendable {
        var id: Int64?
        var body: String
        static let tableName = "notes"
    }

    struct Country: Record, Equatable, Sendable {
        var id: Int64?
        var name: String
        var iso: String
        var population: Int64
        static let tableName = "countries"
    }

    struct City: Record, Equatable, Sendable {
        var id: Int64?
        var countryId: Int64?
        var name: String
        static let tableName = "cities"
        enum CodingKeys: String, CodingKey {
            case id, name
            case countryId = "country_id"
        }
    }

    private var primary: PostgresTestCluster?
    private var standby: PostgresTestCluster?

    override func tearDown() {
        standby?.remove()
        primary?.remove()
        super.tearDown()
    }

    /// Starts the pair and makes the `notes` table, replayed on the standby before the pool is returned.
    private func makePool(_ options: PostgresReplicaPool.Options) async throws -> PostgresReplicaPool {
        let primary = try PostgresTestCluster.make()
        self.primary = primary
        let standby = try primary.makeStandby()
        self.standby = standby
        let pool = PostgresReplicaPool(
            primary: PostgresPool(primary.connectionString, maximumConnections: 2),
            replicas: [PostgresPool(standby.connectionString, maximumConnections: 2)], options: options)
        try await pool.write { try $0.execute("CREATE TABLE notes (id bigserial PRIMARY KEY, body text NOT NULL)") }
        let onStandby = try await pool.read(after: pool.lastWriteLSN) { try Self.isInRecovery($0) }
        XCTAssertTrue(onStandby, "the standby did not replay the CREATE TABLE within the replay timeout")
        return pool
    }

    private static func isInRecovery(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT pg_is_in_recovery()")[0].decode(Bool.self, at: 0)
    }

    /// The notes' bodies in id order, and whether the standby served the read.
    private static func bodies(_ connection: PostgresConnection) throws -> (bodies: [String], onStandby: Bool) {
        let bodies = try connection.query("SELECT body FROM notes ORDER BY id").decode(String.self)
        return (bodies, try isInRecovery(connection))
    }

    /// `times` plain reads one after another, 5 milliseconds apart.
    private static func readRepeatedly(
        _ pool: PostgresReplicaPool, times: Int
    ) async throws -> [(bodies: [String], onStandby: Bool)] {
        var reads: [(bodies: [String], onStandby: Bool)] = []
        for _ in 0..<times {
            reads.append(try await pool.read { try bodies($0) })
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        return reads
    }

    func testWritesRunOnThePrimaryAndReadsOnTheStandbyWhichRefusesWrites() async throws {
        let pool = try await makePool(.init(replayTimeout: 5))
        let writerOnStandby = try await pool.write { connection in
            try connection.execute("INSERT INTO notes (body) VALUES ($1), ($2)", ["first", "second"])
            return try Self.isInRecovery(connection)
        }
        XCTAssertFalse(writerOnStandby)
        let read = try await pool.read(after: pool.lastWriteLSN) { try Self.bodies($0) }
        XCTAssertEqual(read.bodies, ["first", "second"])
        XCTAssertTrue(read.onStandby)
        do {
            try await pool.read { try $0.execute("INSERT INTO notes (body) VALUES ($1)", ["third"]) }
            XCTFail("a write in a read committed")
        } catch let error as PostgresError {
            XCTAssertEqual(error.sqlState, .readOnlySQLTransaction)
        }

        // The record calls that take a pool take this one: the save on the primary, the fetches on the standby.
        var note = Note(id: nil, body: "saved")
        try await note.save(pool)
        XCTAssertEqual(note.id, 3)
        _ = try await pool.read(after: pool.lastWriteLSN) { _ in () }
        let fetched = try await Note.fetch(pool, where: ["body": "saved"])
        XCTAssertEqual(fetched, [Note(id: 3, body: "saved")])
        let one = try await Note.fetchOne(pool, id: 1)
        XCTAssertEqual(one, Note(id: 1, body: "first"))
    }

    func testAReadAfterTheLastWriteSeesItAndIsServedByTheCaughtUpStandby() async throws {
        let pool = try await makePool(.init(replayTimeout: 5))
        var previous = try XCTUnwrap(pool.lastWriteLSN)
        for index in 1...20 {
            let body = PostgresValue(stringLiteral: "n\(index)")
            try await pool.write { try $0.execute("INSERT INTO notes (body) VALUES ($1)", [body]) }
            let position = try XCTUnwrap(pool.lastWriteLSN)
            XCTAssertGreaterThan(position, previous)
            previous = position
            let read = try await pool.read(after: position) { try Self.bodies($0) }
            XCTAssertEqual(read.bodies.count, index)
            XCTAssertEqual(read.bodies.last, "n\(index)")
            XCTAssertTrue(read.onStandby)
        }
    }

    func testWithReplayPausedAReadAfterTheWriteFallsBackToThePrimaryAndALaggingStandbyIsLeftOut() async throws {
        // recheckInterval 0: every read measures the standby's lag.
        let pool = try await makePool(.init(maximumReplayLag: 2, replayTimeout: 0.3, recheckInterval: 0))
        let standbyConnection = try PostgresConnection(try XCTUnwrap(standby).connectionString)
        try standbyConnection.execute("SELECT pg_wal_replay_pause()")
        try await pool.write { try $0.execute("INSERT INTO notes (body) VALUES ($1)", ["unreplayed"]) }

        // Within the lag bound a plain read still takes the standby, which has not replayed the insert.
        let stale = try await pool.read { try Self.bodies($0) }
        XCTAssertEqual(stale.bodies, [])
        XCTAssertTrue(stale.onStandby)

        let start = Date()
        let fresh = try await pool.read(after: pool.lastWriteLSN) { try Self.bodies($0) }
        let waited = Date().timeIntervalSince(start)
        XCTAssertEqual(fresh.bodies, ["unreplayed"])
        XCTAssertFalse(fresh.onStandby)
        XCTAssertGreaterThanOrEqual(waited, 0.3)
        XCTAssertLessThan(waited, 1.3)

        // Past the lag bound (the last commit the standby replayed is over 2 s old), plain reads leave it out.
        try await Task.sleep(nanoseconds: 2_100_000_000)
        let leftOut = try await pool.read { try Self.bodies($0) }
        XCTAssertEqual(leftOut.bodies, ["unreplayed"])
        XCTAssertFalse(leftOut.onStandby)

        try standbyConnection.execute("SELECT pg_wal_replay_resume()")
        var back = false
        for _ in 0..<100 where !back {
            back = try await pool.read { try Self.bodies($0) } == (["unreplayed"], true)
            if !back { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        XCTAssertTrue(back, "reads did not return to the standby once it had replayed")
    }

    func testAStandbyStoppedMidRunLeavesReadsOnThePrimaryUntilItIsBackAndRechecked() async throws {
        let pool = try await makePool(.init(replayTimeout: 5, recheckInterval: 0.5))
        try await pool.write { try $0.execute("INSERT INTO notes (body) VALUES ($1)", ["kept"]) }
        let before = try await pool.read(after: pool.lastWriteLSN) { try Self.bodies($0) }
        XCTAssertEqual(before.bodies, ["kept"])
        XCTAssertTrue(before.onStandby)

        // Reads run while the standby is killed: none of them fails.
        async let reads = Self.readRepeatedly(pool, times: 60)
        try await Task.sleep(nanoseconds: 50_000_000)
        try XCTUnwrap(standby).kill()
        let servers = try await reads
        XCTAssertEqual(Set(servers.map(\.bodies)), [["kept"]])
        XCTAssertEqual(servers.first?.onStandby, true)
        XCTAssertEqual(servers.last?.onStandby, false)
        let afterKill = try await pool.read { try Self.bodies($0) }
        XCTAssertEqual(afterKill.bodies, ["kept"])
        XCTAssertFalse(afterKill.onStandby)

        try XCTUnwrap(standby).start()
        let restarted = Date()
        var back = false
        while !back, Date().timeIntervalSince(restarted) < 5 {
            back = try await pool.read { try Self.bodies($0) } == (["kept"], true)
            if !back { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        XCTAssertTrue(back, "reads did not return to the restarted standby")
        XCTAssertLessThan(Date().timeIntervalSince(restarted), 0.5 + 2)
    }

    /// The Read replicas example of the PostgreSQL article, as written but for the pool's servers.
    func testTheArticlesExampleRunsAsWritten() async throws {
        let pool = try await makePool(.init(maximumReplayLag: 5, replayTimeout: 1, recheckInterval: 5))
        try await pool.write { connection in
            try connection.execute(
                "CREATE TABLE countries (id bigserial PRIMARY KEY, name text NOT NULL, iso text NOT NULL, "
                    + "population bigint NOT NULL)")
            try connection.execute(
                "CREATE TABLE cities (id bigserial PRIMARY KEY, country_id bigint REFERENCES countries, "
                    + "name text NOT NULL)")
        }
        _ = try await pool.read(after: pool.lastWriteLSN) { _ in () }

        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try await france.save(pool)  // on the primary
        let cities = try await City.fetch(pool, where: ["country_id": france.id])  // on a replica, no wait
        let saved = try await pool.read(after: pool.lastWriteLSN) { [france] connection in  // sees the save
            try Country.fetchOne(connection, id: france.id)
        }

        XCTAssertEqual(france.id, 1)
        XCTAssertEqual(cities, [])
        XCTAssertEqual(saved, Country(id: 1, name: "France", iso: "FR", population: 66_000_000))
    }
}
#endif
