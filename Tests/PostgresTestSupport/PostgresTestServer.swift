#if PostgreSQL
import Foundation
import PostgresRecord
import XCTest

/// The PostgreSQL server the tests run against: the one `POSTGRES_URL` names (loopback addresses only), or
/// a throwaway server of the tests' own when Debian's server binaries are installed (`initdb` into a
/// temporary folder, `pg_ctl` on a free 127.0.0.1 port with its socket in that folder, fsync off, run as
/// `nobody` when the tests run as root), stopped when the test bundle finishes.
///
/// Without either, every PostgreSQL test is skipped with the line ``skipMessage``; with
/// `POSTGRESRECORD_REQUIRE_SERVER=1` (what `.ci/run` sets) they fail instead.
package final class PostgresTestServer: NSObject, XCTestObservation, @unchecked Sendable {
    package static let skipMessage =
        "PostgreSQL tests skipped: install Debian's postgresql (initdb and pg_ctl in /usr/lib/postgresql/*/bin) "
        + "or set POSTGRES_URL=postgresql://user@127.0.0.1:5432/db"

    /// The connection string of the server, or the reason there is none. Started on first use.
    package static let shared = PostgresTestServer()

    // Set once in init, read-only afterwards; `cluster` is cleared by `stop()` on XCTest's main thread.
    package let connectionString: String?
    package let failure: String?
    private var cluster: PostgresTestCluster?

    private override init() {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["POSTGRES_URL"], !url.isEmpty {
            if Self.isLoopback(url) {
                connectionString = url
                failure = nil
            } else {
                connectionString = nil
                failure = "POSTGRES_URL must name a loopback server (127.0.0.1, ::1, localhost or a socket folder)"
            }
            super.init()
            return
        }
        guard Self.findBinaries() != nil else {
            connectionString = nil
            failure = nil
            super.init()
            return
        }
        do {
            cluster = try PostgresTestCluster.make()
            connectionString = cluster?.connectionString
            failure = nil
        } catch {
            connectionString = nil
            failure = "could not start a PostgreSQL server: \(error)"
        }
        super.init()
        if cluster != nil { XCTestObservationCenter.shared.addTestObserver(self) }
    }

    /// The connection string, or an `XCTSkip` (a failure under `POSTGRESRECORD_REQUIRE_SERVER=1`).
    package static func url() throws -> String {
        let server = shared
        if let url = server.connectionString { return url }
        let message = server.failure ?? skipMessage
        if ProcessInfo.processInfo.environment["POSTGRESRECORD_REQUIRE_SERVER"] == "1" || server.failure != nil {
            XCTFail(message)
            throw XCTSkip(message)
        }
        if !printedSkip.withLock({ let was = $0; $0 = true; return was }) { print(message) }
        throw XCTSkip(message)
    }

    private static let printedSkip = TestLocked(false)

    /// The server's log (`pg_ctl -l`), when the tests started the server; nil for `POSTGRES_URL`.
    package var logFile: URL? { cluster?.logFile }

    package func testBundleDidFinish(_ testBundle: Bundle) { stop() }

    package func stop() {
        cluster?.remove()
        cluster = nil
    }

    package static func isLoopback(_ url: String) -> Bool {
        guard let components = URLComponents(string: url) else {
            // key=value form: only host=127.0.0.1 / ::1 / localhost / a socket folder (an absolute path).
            let host = url.split(separator: " ").first { $0.hasPrefix("host=") }.map { String($0.dropFirst(5)) }
            return host.map { ["127.0.0.1", "::1", "localhost"].contains($0) || $0.hasPrefix("/") } ?? true
        }
        let host = components.host ?? ""
        return host.isEmpty || ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) || host.hasPrefix("%2F")
    }

    package static func findBinaries() -> URL? {
        let manager = FileManager.default
        var candidates: [String] = []
        if let versions = try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        }
        candidates += ["/usr/local/bin", "/opt/homebrew/bin", "/usr/bin"]
        return candidates.first { manager.isExecutableFile(atPath: $0 + "/initdb") && manager.isExecutableFile(atPath: $0 + "/pg_ctl") }
            .map { URL(fileURLWithPath: $0) }
    }

    package struct CommandFailure: Error, CustomStringConvertible {
        package let command: String
        package let output: String
        package var description: String { "\(command) failed: \(output)" }

        package init(command: String, output: String) {
            self.command = command
            self.output = output
        }
    }

    /// Runs `executable` with `arguments` in `folder` (as `user` through `runuser` when set, inside the
    /// network namespace `namespace` through `ip netns exec` when set), and returns its output.
    @discardableResult
    package static func run(
        _ executable: URL, _ arguments: [String], user: String?, in folder: URL, namespace: String? = nil
    ) throws -> String {
        let process = Process()
        var command = [executable.path] + arguments
        if let user { command = ["/usr/sbin/runuser", "-u", user, "--"] + command }
        if let namespace { command = [PostgresTestNetwork.ip, "netns", "exec", namespace] + command }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = folder
        // A file, not a pipe: the server pg_ctl starts inherits the descriptors and would hold a pipe open.
        let log = folder.appendingPathComponent("command-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Reaped here rather than by waitUntilExit: Foundation learns of the exit through a descriptor that
        // the server pg_ctl starts inherits, so it would wait for the server to stop. Foundation's own child
        // monitor may reap the command first (waitpid then fails with ECHILD): its status is then the
        // Process's, set once that monitor has run.
        var status: Int32 = 0
        var reaped: pid_t
        repeat {
            reaped = waitpid(process.processIdentifier, &status, 0)
        } while reaped == -1 && errno == EINTR
        let succeeded: Bool
        if reaped == -1 {
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(1_000) }
            succeeded = !process.isRunning && process.terminationReason == .exit && process.terminationStatus == 0
        } else {
            succeeded = status & 0x7f == 0 && (status >> 8) & 0xff == 0
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard succeeded else {
            throw CommandFailure(command: ([executable.lastPathComponent] + arguments).joined(separator: " "), output: text)
        }
        return text
    }
}

/// A value behind a lock, for the tests' shared state.
package final class TestLocked<Value>: @unchecked Sendable {
    // The lock guards `value`.
    private let lock = NSLock()
    private var value: Value
    package init(_ value: Value) { self.value = value }
    package func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

/// A base for PostgreSQL suites: a fresh schema of its own per test (dropped after it), so tests do not
/// see each other's tables, and a pool on it.
open class PostgresTestCase: XCTestCase {
    package var url = ""
    package var schema = ""
    package var pool: PostgresPool!
    package var connection: PostgresConnection!

    override open func setUpWithError() throws {
        url = try PostgresTestServer.url()
        schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PostgresConnection(url)
        try admin.execute("CREATE SCHEMA \"\(schema)\"")
        pool = makePool()
        connection = try PostgresConnection(configuration: configuration())
    }

    override open func tearDownWithError() throws {
        connection = nil
        pool = nil
        guard !schema.isEmpty, let admin = try? PostgresConnection(url) else { return }
        try? admin.execute("DROP SCHEMA \"\(schema)\" CASCADE")
    }

    /// The test's server with the test's schema first on the search path.
    package func configuration(namedStatements: Bool = true, maximumConnections: Int = 4) -> PostgresConfiguration {
        let separator = url.contains("?") ? "&" : "?"
        return PostgresConfiguration(
            connectionString: url + separator + "options=-csearch_path%3D\(schema)",
            usesNamedPreparedStatements: namedStatements, maximumConnections: maximumConnections)
    }

    package func makePool(maximumConnections: Int = 4) -> PostgresPool {
        PostgresPool(configuration: configuration(maximumConnections: maximumConnections))
    }

    /// The single text value a query returns: what plain SQL reads back (`SELECT born::text ...`).
    package func text(_ sql: String) throws -> String? {
        let rows = try connection.query(sql)
        XCTAssertEqual(rows.count, 1, sql)
        return try rows[0].decode(String?.self, at: 0)
    }
}
#endif
