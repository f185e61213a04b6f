#if PostgreSQL
import Foundation
import PostgresRecord
import XCTest

/// A pgbouncer in transaction mode in front of the test server: Debian's `pgbouncer` binary on a free
/// 127.0.0.1 port, its configuration, log and pid file in a temporary folder, every database of the server
/// reachable through it (`* = host=127.0.0.1 port=...`), `auth_type = trust`, run as `nobody` when the
/// tests run as root (pgbouncer refuses root), stopped (SIGTERM to its pid, SIGKILL if it stays) when the test
/// bundle finishes.
///
/// Without the binary the pgbouncer tests are skipped with the line ``skipMessage``; `.ci/run` installs it
/// and fails a run that printed the line.
final class PgBouncerTestServer: NSObject, XCTestObservation, @unchecked Sendable {
    static let skipMessage =
        "pgbouncer tests skipped: install Debian's pgbouncer (apt-get install pgbouncer) to run them"

    /// The pgbouncer started on first use, or the reason there is none.
    static let shared = PgBouncerTestServer()

    /// Connections a database and user pair may hold to the server: two, so that two clients' transactions
    /// at once must use both, and a third waits.
    static let poolSize = 2

    // Set once in init, read-only afterwards; `folder` and `pid` are cleared by `stop()` on XCTest's main
    // thread.
    /// The port pgbouncer listens on, when it runs.
    let port: Int?
    let failure: String?
    private var folder: URL?
    private var pid: pid_t?

    private override init() {
        guard let binary = Self.findBinary() else {
            port = nil
            failure = nil
            super.init()
            return
        }
        var started: (Int, URL, pid_t)?
        var lastError = ""
        do {
            let server = try PostgresTestServer.url()
            started = try Self.start(binary: binary, serverPort: try Self.port(of: server))
        } catch {
            lastError = "\(error)"
        }
        port = started?.0
        folder = started?.1
        pid = started?.2
        failure = started == nil ? "could not start pgbouncer: \(lastError)" : nil
        super.init()
        if started != nil { XCTestObservationCenter.shared.addTestObserver(self) }
    }

    /// The connection string of database `database` through pgbouncer, or an `XCTSkip` when pgbouncer is
    /// not installed (a failure when it is but does not start).
    static func url(database: String) throws -> String {
        let bouncer = shared
        if let port = bouncer.port { return "postgresql://postgres@127.0.0.1:\(port)/\(database)" }
        if let failure = bouncer.failure {
            XCTFail(failure)
            throw XCTSkip(failure)
        }
        if !printedSkip.withLock({ let was = $0; $0 = true; return was }) { print(skipMessage) }
        throw XCTSkip(skipMessage)
    }

    private static let printedSkip = TestLocked(false)

    func testBundleDidFinish(_ testBundle: Bundle) { stop() }

    func stop() {
        guard let folder, let pid else { return }
        self.folder = nil
        self.pid = nil
        kill(pid, SIGTERM)
        for _ in 0..<10 where kill(pid, 0) == 0 { usleep(100_000) }
        // pgbouncer 1.18 can outlive SIGTERM (its "immediate shutdown") after the cancel tests have sent
        // cancel requests through it; nothing of it is needed past the tests.
        if kill(pid, 0) == 0 {
            kill(pid, SIGKILL)
            for _ in 0..<20 where kill(pid, 0) == 0 { usleep(50_000) }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private static func findBinary() -> URL? {
        ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer", "/opt/homebrew/bin/pgbouncer"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    private static func port(of url: String) throws -> Int {
        guard let port = URLComponents(string: url)?.port else {
            throw PostgresTestServer.CommandFailure(
                command: "pgbouncer", output: "the server's URL \(url) names no TCP port to put pgbouncer in front of")
        }
        return port
    }

    private static func start(binary: URL, serverPort: Int) throws -> (Int, URL, pid_t) {
        let user = getuid() == 0 ? "nobody" : nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "postgresrecord-pgbouncer-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // trust still needs the user listed in the auth file.
        try Data("\"postgres\" \"\"\n".utf8).write(to: folder.appendingPathComponent("users.txt"))
        if let user { try PostgresTestServer.run(URL(fileURLWithPath: "/bin/chown"), ["-R", user, folder.path], user: nil, in: folder) }
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let configuration = folder.appendingPathComponent("pgbouncer.ini")
            let pidFile = folder.appendingPathComponent("pgbouncer-\(port).pid")
            try Data(
                """
                [databases]
                * = host=127.0.0.1 port=\(serverPort)

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = \(port)
                unix_socket_dir =
                auth_type = trust
                auth_file = \(folder.path)/users.txt
                pool_mode = transaction
                default_pool_size = \(poolSize)
                max_client_conn = 100
                server_reset_query =
                logfile = \(folder.path)/pgbouncer.log
                pidfile = \(pidFile.path)

                """.utf8
            ).write(to: configuration)
            do {
                // -d: pgbouncer forks into the background, writes its pid file and the parent exits.
                try PostgresTestServer.run(binary, ["-d", configuration.path], user: user, in: folder)
                // The parent exits before the daemon it forked writes the pid file.
                var pid: pid_t?
                for _ in 0..<100 {
                    let text = try? String(contentsOf: pidFile, encoding: .utf8)
                    pid = text.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                    if pid != nil { break }
                    usleep(50_000)
                }
                guard let pid else {
                    let log = (try? String(contentsOf: folder.appendingPathComponent("pgbouncer.log"), encoding: .utf8))
                    throw PostgresTestServer.CommandFailure(
                        command: "pgbouncer", output: "wrote no pid file in 5 s; log: \(log ?? "none")")
                }
                try waitForConnections(port: port, pid: pid, folder: folder)
                return (port, folder, pid)
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? CocoaError(.executableLoad)
    }

    /// Waits (10 s at most) until a client can log in through pgbouncer.
    private static func waitForConnections(port: Int, pid: pid_t, folder: URL) throws {
        var lastError: (any Error)?
        for _ in 0..<100 {
            do {
                _ = try PostgresConnection("postgresql://postgres@127.0.0.1:\(port)/postgres")
                return
            } catch {
                lastError = error
                usleep(100_000)
            }
        }
        kill(pid, SIGTERM)
        let log = (try? String(contentsOf: folder.appendingPathComponent("pgbouncer.log"), encoding: .utf8)) ?? ""
        throw PostgresTestServer.CommandFailure(
            command: "pgbouncer", output: "no login through it: \(lastError.map { "\($0)" } ?? ""); log: \(log)")
    }
}
#endif
