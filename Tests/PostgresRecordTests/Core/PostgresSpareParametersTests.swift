#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// Argument lists written into the connection's spare parameter buffer: each statement binds its own
/// arguments, after a huge one, after a statement that failed or was cancelled, inside a transaction whose
/// body runs other statements, and on pool connections in parallel.
final class PostgresSpareParametersTests: PostgresTestCase {
    struct Town: Record, Equatable {
        var id: Int64?
        var name: String
        var region: String?
        var population: Int64
        static let tableName = "towns"

        func willSave(_ db: some DatabaseConnection) throws {
            // Another statement with arguments while the save's own are being written.
            guard let connection = db as? PostgresConnection else { return }
            let rows = try connection.query(
                "SELECT $1::text || $2::text", [try PostgresValue(text: "will"), try PostgresValue(text: name)])
            XCTAssertEqual(try rows[0].decode(String.self, at: 0), "will" + name)
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Town.createTable(in: connection)
    }

    private func echo(_ connection: PostgresConnection, _ values: [String]) throws -> String {
        let placeholders = (1...values.count).map { "$\($0)::text" }.joined(separator: " || '|' || ")
        let rows = try connection.query("SELECT " + placeholders, try values.map { try PostgresValue(text: $0) })
        return try rows[0].decode(String.self, at: 0)
    }

    func testAHugeTextThenSmallArgumentsOfFewerParameters() throws {
        let huge = String(repeating: "z", count: 10_000_000)
        let rows = try connection.query(
            "SELECT length($1::text), $2::text", [try PostgresValue(text: huge), try PostgresValue(text: "b")])
        XCTAssertEqual(try rows[0].decode(Int64.self, at: 0), 10_000_000)
        XCTAssertEqual(try echo(connection, ["a"]), "a")
        XCTAssertEqual(try echo(connection, ["a", "", "c"]), "a||c")
        XCTAssertEqual(try connection.query("SELECT $1::text IS NULL", [.null])[0].decode(Bool.self, at: 0), true)
    }

    func testAStatementTheServerRefusesThenTheNextStatementsArguments() throws {
        XCTAssertThrowsError(
            try connection.query("SELECT $1::int / $2::int", [PostgresValue(Int64(1)), PostgresValue(Int64(0))]))
        XCTAssertThrowsError(try connection.query("SELECT $1::int", [try PostgresValue(text: "not a number")]))
        XCTAssertEqual(try echo(connection, ["after", "error"]), "after|error")
        XCTAssertThrowsError(try connection.query("SELECT $1::text, $2::text", [try PostgresValue(text: "one")]))
        XCTAssertEqual(try echo(connection, ["x"]), "x")
    }

    func testStatementsInsideATransactionAndASaveCallback() throws {
        let found = try connection.transaction { () throws -> [String] in
            XCTAssertEqual(try echo(connection, ["t1", "t2"]), "t1|t2")
            var town = Town(id: nil, name: "Lyon", region: "ARA", population: 522_969)
            try town.insert(connection)
            var other = Town(id: nil, name: "Brest", region: "BRE", population: 139_926)
            try other.insert(connection)
            try connection.transaction { XCTAssertEqual(try echo(connection, ["nested"]), "nested") }
            return try Town.fetch(connection, where: ["region": "BRE"]).map(\.name)
        }
        XCTAssertEqual(found, ["Brest"])
        XCTAssertEqual(try Town.fetch(connection, where: ["region": "ARA"]).map(\.population), [522_969])
    }

    /// `insertAll` between `where:` fetches of one form, and fetches between inserts of one statement.
    func testInsertAllBetweenFetchesOfOneForm() throws {
        for round in 0..<3 {
            var towns = (0..<50).map {
                Town(id: nil, name: "t\(round)-\($0)", region: "R\(round)", population: Int64($0))
            }
            try Town.insertAll(connection, &towns)
            XCTAssertEqual(towns.compactMap(\.id).count, 50)
            XCTAssertEqual(try Town.fetch(connection, where: ["region": "R\(round)"]).count, 50)
            var one = Town(id: nil, name: "one\(round)", region: "R\(round)", population: -1)
            try one.insert(connection)
            XCTAssertEqual(
                try Town.fetch(connection, where: ["region": "R\(round)", "population": -1]).map(\.name),
                ["one\(round)"])
            towns = []
        }
    }

    func testACancelledStatementThenTheNextStatementsArguments() async throws {
        let pool = makePool(maximumConnections: 1)
        let task = Task {
            try await pool.read { connection in
                _ = try connection.query("SELECT pg_sleep(5), $1::text", [try PostgresValue(text: "sleeping")])
            }
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        task.cancel()
        do {
            try await task.value
            XCTFail("no error")
        } catch {}
        let echoed = try await pool.read { connection in
            let rows = try connection.query(
                "SELECT $1::text || $2::text", [try PostgresValue(text: "a"), try PostgresValue(text: "b")])
            return try rows[0].decode(String.self, at: 0)
        }
        XCTAssertEqual(echoed, "ab")
    }

    func testWhereFetchesOnPoolConnectionsInParallel() async throws {
        for index in 0..<8 {
            var town = Town(id: nil, name: "town\(index)", region: "R\(index)", population: Int64(index))
            try town.insert(connection)
        }
        let pool = self.pool!
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<100 {
                        let names = try await pool.read { connection in
                            try Town.fetch(connection, where: ["region": "R\(worker)"]).map(\.name)
                        }
                        XCTAssertEqual(names, ["town\(worker)"])
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The pool's connection's session ended by the server between two fetches of one form: the fetch on the
    /// lost session fails, and the next finds its rows with its own arguments on a new one.
    func testAFetchAfterThePoolsSessionWasTerminated() async throws {
        for (index, region) in ["ARA", "BRE"].enumerated() {
            var town = Town(id: nil, name: "town\(index)", region: region, population: Int64(index))
            try town.insert(connection)
        }
        let pool = makePool(maximumConnections: 1)
        let pid = try await pool.read { connection in
            XCTAssertEqual(try Town.fetch(connection, where: ["region": "ARA"]).map(\.name), ["town0"])
            return try connection.query("SELECT pg_backend_pid()")[0].decode(Int64.self, at: 0)
        }
        _ = try connection.query("SELECT pg_terminate_backend($1::int, 5000)", [PostgresValue(Int64(pid))])
        do {
            _ = try await pool.read { connection in try Town.fetch(connection, where: ["region": "BRE"]) }
        } catch {}
        let names = try await pool.read { connection in
            try Town.fetch(connection, where: ["region": "BRE"]).map(\.name)
        }
        XCTAssertEqual(names, ["town1"])
    }
}
#endif
