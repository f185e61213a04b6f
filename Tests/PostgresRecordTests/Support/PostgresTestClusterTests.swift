#if PostgreSQL
import PostgresRecord
import XCTest

/// The fault and replica suites stand on ``PostgresTestCluster``: a killed server keeps what was committed,
/// and a standby streams the primary's commits and refuses writes; and on ``PostgresTestServer/run``, whose
/// failed commands (a `tc` the kernel refuses, an `ip` that finds no link) must throw.
final class PostgresTestClusterTests: XCTestCase {
    /// Foundation's own child monitor may reap a command before `run` asks for its status; the exit status
    /// must be read all the same (it was taken as 0, success, whenever Foundation came first).
    func testEveryFailedCommandThrows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postgresrecord-run-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var passed = 0
        for _ in 0..<200 {
            if (try? PostgresTestServer.run(URL(fileURLWithPath: "/bin/false"), [], user: nil, in: folder)) != nil {
                passed += 1
            }
        }
        XCTAssertEqual(passed, 0, "failed commands taken as successes, of 200")
        let echo = try PostgresTestServer.run(URL(fileURLWithPath: "/bin/echo"), ["yes"], user: nil, in: folder)
        XCTAssertEqual(echo, "yes\n")
    }

    func testAKilledClusterRestartsOnItsPortWithItsCommittedRows() throws {
        let cluster = try PostgresTestCluster.make()
        defer { cluster.remove() }
        let connection = try PostgresConnection(cluster.connectionString)
        try connection.execute("CREATE TABLE kept (id bigint PRIMARY KEY)")
        try connection.execute("INSERT INTO kept VALUES (7)")
        try cluster.kill()
        XCTAssertThrowsError(try connection.execute("SELECT 1"))
        try cluster.start()
        let again = try PostgresConnection(cluster.connectionString)
        XCTAssertEqual(try again.query("SELECT id FROM kept")[0].decode(Int64.self, at: 0), 7)
    }

    func testAStandbyStreamsThePrimarysCommitsAndRefusesWrites() throws {
        let primary = try PostgresTestCluster.make()
        defer { primary.remove() }
        let standby = try primary.makeStandby()
        defer { standby.remove() }
        XCTAssertNotEqual(primary.port, standby.port)
        let writer = try PostgresConnection(primary.connectionString)
        try writer.execute("CREATE TABLE replicated (id bigint PRIMARY KEY)")
        try writer.execute("INSERT INTO replicated VALUES (42)")
        let reader = try PostgresConnection(standby.connectionString)
        XCTAssertEqual(try reader.query("SELECT pg_is_in_recovery()")[0].decode(Bool.self, at: 0), true)
        var found: Int64?
        for _ in 0..<200 where found == nil {
            found = try? reader.query("SELECT id FROM replicated")[0].decode(Int64.self, at: 0)
            if found == nil { usleep(20_000) }
        }
        XCTAssertEqual(found, 42)
        XCTAssertThrowsError(try reader.execute("INSERT INTO replicated VALUES (1)")) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState.rawValue, "25006")
        }
    }
}
#endif
