#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

final class PostgresValueObservationTests: PostgresTestCase {
    private struct Note: Record, Equatable, Sendable {
        var id: Int64?
        var title: String
        static let tableName = "notes"
    }

    private struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    /// The titles of the notes, in order: the observed read of most tests.
    private var titles: ValueObservation<[String]> {
        .tracking { connection in try Note.all().order(Column("title")).fetch(connection).map(\.title) }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Note.createTable(in: connection)
        try connection.execute("INSERT INTO notes (title) VALUES ('a')")
    }

    /// Iterates `sequence` in a task of its own, keeping each value.
    private final class Collector<Value: Sendable>: @unchecked Sendable {
        // The lock guards `values` and `error`.
        private let lock = NSLock()
        private var values: [Value] = []
        private var error: (any Error)?
        private(set) var task: Task<Void, Never>?

        init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Value {
            task = Task {
                do {
                    for try await value in sequence { self.lock.withLock { self.values.append(value) } }
                } catch {
                    self.lock.withLock { self.error = error }
                }
            }
        }

        var seen: [Value] { lock.withLock { values } }
        var failure: (any Error)? { lock.withLock { error } }

        /// Waits, up to `timeout` seconds, until `condition` holds for the values seen so far.
        func wait(
            timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line,
            until condition: ([Value]) -> Bool
        ) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(seen) {
                if let failure { throw failure }
                guard Date() < deadline else { throw Timeout(description: "values seen: \(seen)") }
                try await Task.sleep(nanoseconds: 2_000_000)
            }
        }
    }

    /// The listening sessions of this test's observations, from `pg_stat_activity`: their last statement
    /// names the test's schema.
    private func listenerPIDs() throws -> [Int32] {
        let rows = try connection.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'PostgresRecord listener' AND query LIKE $1 "
                + "ORDER BY pid", [try PostgresValue(text: "LISTEN \"\(schema).%")])
        return try (0..<rows.count).map { try rows[$0].decode(Int32.self, at: 0) }
    }

    private func waitForListeners(_ condition: ([Int32]) -> Bool) async throws -> [Int32] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let pids = try listenerPIDs()
            if condition(pids) { return pids }
            guard Date() < deadline else { throw Timeout(description: "listeners: \(pids)") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    private func insert(_ title: String, into pool: PostgresPool) async throws {
        var note = Note(id: nil, title: title)
        try await note.insert(pool)
    }

    private struct Country: Record, Sendable {
        var id: Int64?
        var name: String
        var iso: String
        var population: Int64
        static let tableName = "countries"
    }

    /// The example of the PostgreSQL article's "Observing changes", as written, with a commit of another
    /// pool that ends its loop.
    func testTheArticleExample() async throws {
        let pool = self.pool!
        var migrator = DatabaseMigrator<PostgresConnection>()
        migrator.registerMigration("create countries") { connection in try Country.createTable(in: connection) }
        migrator.registerMigration("notify countries") { connection in
            try Country.installChangeNotifications(in: connection)
        }
        try await migrator.migrate(pool)

        let printed = TestLocked<[[String]]>([])
        let loop = Task {
            let observation = ValueObservation.tracking { connection in
                try Country.all().order(Column("name")).fetch(connection).map(\.name)
            }
            for try await names in observation.removeDuplicates().values(in: pool) {
                printed.withLock { $0.append(names) }  // the article prints them
                if names.contains("Wales") { break }  // leaving the loop closes the listening connection
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while printed.withLock({ $0.isEmpty }) && Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        var wales = Country(id: nil, name: "Wales", iso: "GB-WLS", population: 3_100_000)
        try await wales.insert(makePool())
        try await loop.value
        XCTAssertEqual(printed.withLock { $0 }, [[], ["Wales"]])
        _ = try await waitForListeners { $0.isEmpty }
    }

    func testFirstValueThenACommitOfAnotherPool() async throws {
        let collector = Collector(titles.values(in: pool))
        defer { collector.task?.cancel() }
        try await collector.wait { $0.count == 1 }
        XCTAssertEqual(collector.seen, [["a"]])
        // Another app instance: a pool of its own.
        let other = makePool()
        try await insert("b", into: other)
        try await collector.wait { $0.count == 2 }
        XCTAssertEqual(collector.seen, [["a"], ["a", "b"]])
    }

    func testTheFirstValueIsReadAfterListening() async throws {
        // The first read commits a row from another session once it has read: that commit comes before the
        // observation knows its tables, so only a read after its LISTEN sees it.
        let writer = TestLocked<PostgresConnection?>(try PostgresConnection(configuration: configuration()))
        let observation = ValueObservation.tracking { connection in
            let titles = try Note.all().order(Column("title")).fetch(connection).map(\.title)
            writer.withLock { session in
                _ = try? session?.execute("INSERT INTO notes (title) VALUES ('during the first read')")
                session = nil
            }
            return titles
        }
        let collector = Collector(observation.values(in: pool))
        defer { collector.task?.cancel() }
        try await collector.wait { $0.count == 1 }
        try await Task.sleep(nanoseconds: 50_000_000)
        XCTAssertEqual(collector.seen, [["a", "during the first read"]])
    }

    func testTheShortcutsOfARequestAndOfARecordByKey() async throws {
        let notes = Collector(Note.all().order(Column("title")).observation().values(in: pool))
        defer { notes.task?.cancel() }
        let second = Collector(Note.observation(id: 2).values(in: pool))
        defer { second.task?.cancel() }
        try await notes.wait { $0.count == 1 }
        try await second.wait { $0.count == 1 }
        try connection.execute("INSERT INTO notes (title) VALUES ('b')")
        try await notes.wait { $0.count == 2 }
        try await second.wait { $0.count == 2 }
        let a = Note(id: 1, title: "a")
        XCTAssertEqual(notes.seen, [[a], [a, Note(id: 2, title: "b")]])
        XCTAssertEqual(second.seen, [nil, Note(id: 2, title: "b")])
    }

    func testCommitOfPlainSQLOnARawConnection() async throws {
        let collector = Collector(titles.values(in: pool))
        defer { collector.task?.cancel() }
        try await collector.wait { $0.count == 1 }
        let raw = try PostgresConnection(configuration: configuration())
        try raw.execute("UPDATE notes SET title = 'z' WHERE title = 'a'")
        try await collector.wait { $0.count == 2 }
        XCTAssertEqual(collector.seen, [["a"], ["z"]])
    }

    func testRolledBackWriteDeliversNothing() async throws {
        let collector = Collector(titles.values(in: pool))
        defer { collector.task?.cancel() }
        try await collector.wait { $0.count == 1 }
        let raw = try PostgresConnection(configuration: configuration())
        try raw.execute("BEGIN; INSERT INTO notes (title) VALUES ('rolled back'); ROLLBACK")
        try raw.execute("INSERT INTO notes (title) VALUES ('c')")
        try await collector.wait { $0.count == 2 }
        // Without removeDuplicates, a rolled-back write that notified would have delivered ["a"] again.
        XCTAssertEqual(collector.seen, [["a"], ["a", "c"]])
    }

    func testTheLastOfFiftyQuickCommitsIsDelivered() async throws {
        let collector = Collector(titles.values(in: pool))
        defer { collector.task?.cancel() }
        try await collector.wait { $0.count == 1 }
        let other = makePool()
        for n in 1...50 {
            try await insert(String(format: "n%02d", n), into: other)
        }
        let all = ["a"] + (1...50).map { String(format: "n%02d", $0) }
        try await collector.wait { $0.last == all }
        let seen = collector.seen
        // At most one read per notification after the first value, and the values follow the commits in
        // order (a notification that arrives during a read that saw its commit reads the same value again).
        XCTAssertLessThanOrEqual(seen.count, 51)
        XCTAssertEqual(seen.map(\.count), seen.map(\.count).sorted())
        XCTAssertEqual(seen.first, ["a"])
    }

    func testALostListenerListensAgainAndReadsAgain() async throws {
        let observation = titles.removeDuplicates()
        // Long enough to commit while no session listens.
        let collector = Collector(
            observation.values(in: pool, listeningOn: nil, firstReconnectionDelay: 0.3))
        defer { collector.task?.cancel() }
        try await collector.wait { $0.count == 1 }
        let killed = try await waitForListeners { $0.count == 1 }
        // Waits until the session is gone, then commits before the listener has connected again: only the
        // read after the new LISTEN can find this commit.
        let raw = try PostgresConnection(configuration: configuration())
        try raw.execute("BEGIN")
        let terminated = try raw.query("SELECT pg_terminate_backend(\(killed[0]), 5000)")[0]
            .decode(Bool.self, at: 0)
        XCTAssertEqual(terminated, true)
        try raw.execute("INSERT INTO notes (title) VALUES ('b'); COMMIT")
        XCTAssertEqual(try listenerPIDs(), [])
        try await collector.wait { $0.count == 2 }
        let listening = try await waitForListeners { $0.count == 1 }
        XCTAssertNotEqual(listening, killed)
        try await insert("c", into: makePool())
        try await collector.wait { $0.count == 3 }
        XCTAssertEqual(collector.seen, [["a"], ["a", "b"], ["a", "b", "c"]])
    }

    func testCancellingTheTaskClosesTheListener() async throws {
        let collector = Collector(titles.values(in: pool))
        try await collector.wait { $0.count == 1 }
        let listening = try await waitForListeners { $0.count == 1 }
        XCTAssertEqual(listening.count, 1)
        collector.task?.cancel()
        let left = try await waitForListeners { $0.isEmpty }
        XCTAssertEqual(left, [])
        // A commit after the end delivers nothing.
        try connection.execute("INSERT INTO notes (title) VALUES ('late')")
        try await Task.sleep(nanoseconds: 50_000_000)
        XCTAssertEqual(collector.seen, [["a"]])
    }

    func testDroppingTheIteratorClosesTheListener() async throws {
        do {
            var iterator = titles.values(in: pool).makeAsyncIterator()
            let first = try await iterator.next()
            XCTAssertEqual(first, ["a"])
            let listening = try await waitForListeners { $0.count == 1 }
            XCTAssertEqual(listening.count, 1)
        }
        let left = try await waitForListeners { $0.isEmpty }
        XCTAssertEqual(left, [])
    }

    func testATableWithoutNotificationsGetsThemWhenThePoolMay() async throws {
        try connection.execute("CREATE TABLE tags (name TEXT)")
        let observation = ValueObservation.tracking { connection in
            try connection.query("SELECT count(*) FROM tags")[0].decode(Int64.self, at: 0)
        }
        let counts = Collector(observation.values(in: pool))
        defer { counts.task?.cancel() }
        try await counts.wait { $0 == [0] }
        XCTAssertEqual(
            try text("SELECT string_agg(tgname, ',') FROM pg_trigger WHERE tgrelid = 'tags'::regclass"),
            "postgresrecord_notify_change")
        try connection.execute("INSERT INTO tags VALUES ('x')")
        try await counts.wait { $0 == [0, 1] }
    }

    func testATableWithoutNotificationsThePoolMayNotChangeEndsTheSequenceSayingWhatToRun() async throws {
        // The pool's sessions run as a role that may read `tags` but does not own it.
        let role = schema + "_reader"
        try connection.execute("CREATE TABLE tags (name TEXT)")
        try connection.execute("CREATE ROLE \"\(role)\" NOLOGIN")
        defer { try? connection.execute("DROP OWNED BY \"\(role)\"; DROP ROLE \"\(role)\"") }
        try connection.execute("GRANT USAGE ON SCHEMA \"\(schema)\" TO \"\(role)\"")
        try connection.execute("GRANT SELECT ON notes, tags TO \"\(role)\"")
        let reader = PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: configuration().connectionString + "%20-crole%3D\(role)"))
        let observation = ValueObservation.tracking { connection in
            try connection.query("SELECT count(*) FROM notes, tags").count
        }
        var iterator = observation.values(in: reader).makeAsyncIterator()
        do {
            _ = try await iterator.next()
            XCTFail("no error")
        } catch let error as PostgresError {
            XCTAssertEqual(error.kind, .client)
            XCTAssertEqual(error.table, "tags")
            let prefix =
                "the observed read used the table \(schema).tags, which has no change notifications, so its "
                + "commits would go unseen; the pool's session could not install them ("
            XCTAssertTrue(error.message.hasPrefix(prefix), error.message)
            XCTAssertTrue(error.message.contains("42501"), error.message)
            let suffix =
                "), so install them as a role that owns the table with "
                + "PostgresConnection.installChangeNotifications(for: [\"tags\"]) (a migration step), which runs:\n"
                + PostgresConnection.changeNotificationSQL(quotedTables: ["\"\(schema)\".\"tags\""])
                .joined(separator: ";\n") + ";"
            XCTAssertTrue(error.message.hasSuffix(suffix), error.message)
            XCTAssertTrue(suffix.contains("CREATE TRIGGER \"postgresrecord_notify_change\" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \"\(schema)\".\"tags\""))
        }
        // Done as the message says, the observation runs.
        try connection.installChangeNotifications(for: ["tags"])
        let fixed = Collector(observation.values(in: reader))
        defer { fixed.task?.cancel() }
        try await fixed.wait { $0 == [1] }
    }

    #if canImport(Observation)
    func testAReleasedLiveQueryClosesItsListener() async throws {
        guard #available(macOS 14, iOS 17, *) else { throw XCTSkip("the Observation framework needs macOS 14") }
        var query: LiveQuery<[Note]>? = await LiveQuery(Note.all(), in: pool)
        let listening = try await waitForListeners { $0.count == 1 }
        XCTAssertEqual(listening.count, 1)
        weak let released = query
        query = nil
        XCTAssertNil(released)
        let left = try await waitForListeners { $0.isEmpty }
        XCTAssertEqual(left, [])
    }
    #endif

    func testAReadWrittenForTheOtherEngineEndsTheSequenceSayingSo() async throws {
        // Over SQLite's Database, in a PostgreSQL pool.
        let sqliteRead = ValueObservation.tracking { (db: Database) in try db.scalar(Int.self, sql: "SELECT 1") }
        var onPool = sqliteRead.values(in: pool).makeAsyncIterator()
        do {
            _ = try await onPool.next()
            XCTFail("no error")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .misuse)
            XCTAssertEqual(
                error.message,
                "this observation's read takes SQLite's Database, and it was given a PostgresConnection: observe "
                    + "it in a DatabaseQueue or a DatabasePool, or write the read over the connection it is given "
                    + "(some DatabaseConnection)")
        }
        // Over a PostgresConnection, in a SQLite queue.
        let postgresRead = ValueObservation.tracking { connection in try connection.query("SELECT 1").count }
        var onQueue = postgresRead.values(in: try DatabaseQueue()).makeAsyncIterator()
        do {
            _ = try await onQueue.next()
            XCTFail("no error")
        } catch let error as PostgresError {
            XCTAssertEqual(error.kind, .client)
            XCTAssertEqual(
                error.message,
                "this observation's read takes a PostgresConnection, and it was given a Database: observe it in a "
                    + "PostgresPool, or write the read over the connection it is given (some DatabaseConnection)")
        }
    }

    func testATableCreatedWithoutNotificationsHasNoTrigger() throws {
        struct Tag: Record { var id: Int64?; var name: String; static let tableName = "tags" }
        try Tag.createTable(in: connection, notifiesChanges: false)
        XCTAssertEqual(try text("SELECT count(*)::text FROM pg_trigger WHERE tgrelid = 'tags'::regclass"), "0")
        try connection.execute("DROP TABLE tags")
        try Tag.createTable(in: connection)
        XCTAssertEqual(
            try text("SELECT string_agg(tgname, ',') FROM pg_trigger WHERE tgrelid = 'tags'::regclass"),
            "postgresrecord_notify_change")
    }

    func testTheTriggerNotifiesTheTableChannelOncePerTransaction() async throws {
        XCTAssertEqual(
            try text(
                "SELECT string_agg(tgname || ':' || tgtype::text, ',') FROM pg_trigger "
                    + "WHERE tgrelid = 'notes'::regclass"),
            // tgtype 60: statement level (no ROW bit), AFTER (no BEFORE bit), INSERT + DELETE + UPDATE + TRUNCATE.
            "postgresrecord_notify_change:60")
        let listener = try PostgresConnection(configuration: configuration())
        try listener.execute("LISTEN \"\(schema).notes\"")
        // Two statements in one transaction: one notification.
        try connection.execute("BEGIN; INSERT INTO notes (title) VALUES ('x'); DELETE FROM notes; COMMIT")
        try connection.execute("TRUNCATE notes")
        var received: [PostgresNotification] = []
        let deadline = Date().addingTimeInterval(10)
        while received.count < 2 && Date() < deadline {
            received += try listener.takeNotifications()
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        received += try listener.takeNotifications()
        XCTAssertEqual(received.map(\.channel), ["\(schema).notes", "\(schema).notes"])
        XCTAssertEqual(received.map(\.payload), ["", ""])
        XCTAssertEqual(received.map(\.senderPID), [connection.backendPID, connection.backendPID])
    }
}
#endif
