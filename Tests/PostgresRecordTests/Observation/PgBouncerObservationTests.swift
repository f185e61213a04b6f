#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// An observation whose reads go through pgbouncer in transaction mode (``PgBouncerTestServer``) while its
/// listener reaches the server directly (`listeningOn:`), as the PostgreSQL article says to run it there.
final class PgBouncerObservationTests: XCTestCase {
    private struct Note: Record, Equatable, Sendable {
        var id: Int64?
        var title: String
        static let tableName = "notes"
    }

    private var serverURL = ""
    private var database = ""

    override func setUpWithError() throws {
        serverURL = try PostgresTestServer.url()
        _ = try PgBouncerTestServer.url(database: "postgres")
        database = "pgbouncer_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try PostgresConnection(serverURL).execute("CREATE DATABASE \"\(database)\"")
        let direct = try PostgresConnection(directURL)
        try Note.createTable(in: direct)
        try Note.installChangeNotifications(in: direct)
        try direct.execute("INSERT INTO notes (title) VALUES ('a')")
    }

    override func tearDownWithError() throws {
        guard !database.isEmpty, let admin = try? PostgresConnection(serverURL) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS \"\(database)\" WITH (FORCE)")
    }

    private var directURL: String {
        var components = URLComponents(string: serverURL) ?? URLComponents()
        components.path = "/" + database
        return components.string ?? serverURL
    }

    private func bouncerPool() throws -> PostgresPool {
        PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: try PgBouncerTestServer.url(database: database),
                usesNamedPreparedStatements: false,
                maximumConnections: 2))
    }

    func testReadsThroughTheBouncerAndListensDirectly() async throws {
        let pool = try bouncerPool()
        let observation = ValueObservation.tracking { connection in
            try Note.all().order(Column("title")).fetch(connection).map(\.title)
        }
        let seen = TestLocked<[[String]]>([])
        let values = observation.values(in: pool, listeningOn: PostgresConfiguration(connectionString: directURL))
        let task = Task {
            for try await titles in values { seen.withLock { $0.append(titles) } }
        }
        defer { task.cancel() }
        try await wait(until: 1, in: seen)
        // Another instance, through the bouncer too. A listener through the bouncer would never hear of it.
        var note = Note(id: nil, title: "b")
        try await note.insert(try bouncerPool())
        try await wait(until: 2, in: seen)
        XCTAssertEqual(seen.withLock { $0 }, [["a"], ["a", "b"]])
    }

    private func wait(until count: Int, in seen: TestLocked<[[String]]>) async throws {
        let deadline = Date().addingTimeInterval(10)
        while seen.withLock({ $0.count < count }) {
            guard Date() < deadline else { return XCTFail("values seen: \(seen.withLock { $0 })") }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }
}
#endif
