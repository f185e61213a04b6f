#if PostgreSQL
import Foundation
import XCTest

/// A throwaway PostgreSQL cluster: `initdb` into a temporary folder, `pg_ctl` on a free 127.0.0.1 port with
/// its socket in that folder, fsync off, run as `nobody` when the tests run as root. The shared server of
/// ``PostgresTestServer`` is one; a test that kills, restarts or replicates a server makes one of its own
/// with ``make()``, so the other suites' server never goes away under them.
///
/// ```swift
/// let primary = try PostgresTestCluster.make()
/// defer { primary.remove() }
/// let standby = try primary.makeStandby()   // pg_basebackup -R, started as a hot standby
/// defer { standby.remove() }
/// try primary.kill()                        // pg_ctl stop -m immediate: as a crash, no shutdown checkpoint
/// try primary.start()                       // crash recovery, same port
/// ```
///
/// Not thread-safe: a cluster is driven by one test thread at a time.
package final class PostgresTestCluster: @unchecked Sendable {
    /// The folder that holds the cluster's data folder, its socket and its log.
    package let folder: URL
    /// The TCP port on ``host``, kept across ``kill()`` / ``start()``.
    package let port: Int
    /// The address the server listens on: 127.0.0.1, or its side of a ``PostgresTestNetwork``.
    package let host: String
    /// The network namespace the server runs in, nil for the test's own.
    package let namespace: String?
    private let binaries: URL
    private let user: String?

    /// `postgresql://postgres@<host>:<port>/postgres`.
    package var connectionString: String { "postgresql://postgres@\(host):\(port)/postgres" }

    /// The server's log (`pg_ctl -l`).
    package var logFile: URL { folder.appendingPathComponent("server.log") }

    private var data: String { folder.appendingPathComponent("data").path }

    private init(folder: URL, port: Int, host: String, namespace: String?, binaries: URL, user: String?) {
        self.folder = folder
        self.port = port
        self.host = host
        self.namespace = namespace
        self.binaries = binaries
        self.user = user
    }

    /// A new cluster of the test's own, started. Skips the test when Debian's server binaries are missing
    /// (fails it under `POSTGRESRECORD_REQUIRE_SERVER=1`, as ``PostgresTestServer/url()`` does).
    ///
    /// With `network`, the server runs inside its namespace (`ip netns exec`) and listens on its address
    /// only, so that every packet between the test and the server crosses the veth pair the test can cut.
    package static func make(in network: PostgresTestNetwork? = nil) throws -> PostgresTestCluster {
        guard let binaries = PostgresTestServer.findBinaries() else {
            let message = "PostgreSQL cluster tests skipped: they start servers of their own, which needs Debian's "
                + "postgresql (initdb and pg_ctl in /usr/lib/postgresql/*/bin)"
            if ProcessInfo.processInfo.environment["POSTGRESRECORD_REQUIRE_SERVER"] == "1" { XCTFail(message) }
            throw XCTSkip(message)
        }
        let user = getuid() == 0 ? "nobody" : nil
        let folder = try makeFolder(user: user)
        do {
            try PostgresTestServer.run(
                binaries.appendingPathComponent("initdb"),
                [
                    "-D", folder.appendingPathComponent("data").path, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                    "--locale=C", "--no-sync",
                ], user: user, in: folder)
            if let network {
                // The test's side of the pair is the only client address besides the local ones.
                let hba = folder.appendingPathComponent("data/pg_hba.conf")
                let handle = try FileHandle(forWritingTo: hba)
                defer { try? handle.close() }
                handle.seekToEndOfFile()
                handle.write(Data("host all all \(network.hostAddress)/32 trust\n".utf8))
            }
            return try startOnFreePort(
                folder: folder, host: network?.serverAddress ?? "127.0.0.1", namespace: network?.name,
                binaries: binaries, user: user)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// A hot standby of this cluster: `pg_basebackup -R -X stream` into a folder of its own (which writes
    /// `standby.signal` and `primary_conninfo`), started on a port of its own. It streams from this cluster
    /// at once; `pg_is_in_recovery()` is true on it and writes there fail with SQLSTATE 25006. See
    /// <https://www.postgresql.org/docs/current/app-pgbasebackup.html> and
    /// <https://www.postgresql.org/docs/current/hot-standby.html>.
    package func makeStandby() throws -> PostgresTestCluster {
        let standbyFolder = try Self.makeFolder(user: user)
        do {
            try PostgresTestServer.run(
                binaries.appendingPathComponent("pg_basebackup"),
                [
                    "-D", standbyFolder.appendingPathComponent("data").path, "-h", "127.0.0.1", "-p", "\(port)",
                    "-U", "postgres", "-R", "-X", "stream", "--no-sync", "-c", "fast",
                ], user: user, in: standbyFolder)
            return try Self.startOnFreePort(
                folder: standbyFolder, host: "127.0.0.1", namespace: nil, binaries: binaries, user: user)
        } catch {
            try? FileManager.default.removeItem(at: standbyFolder)
            throw error
        }
    }

    /// Promotes this standby to a primary (`pg_ctl promote -w`): it leaves recovery, on a new timeline,
    /// and takes writes. See <https://www.postgresql.org/docs/current/app-pg-ctl.html>.
    package func promote() throws {
        try PostgresTestServer.run(
            binaries.appendingPathComponent("pg_ctl"), ["-D", data, "-w", "-t", "60", "promote"], user: user,
            in: folder)
    }

    /// Makes this stopped cluster a hot standby of `primary` on its own port: its data folder is replaced
    /// by `pg_basebackup -R -X stream` from `primary`, and started. What a failed primary becomes after a
    /// failover, once its data is given up.
    package func rebuildAsStandby(of primary: PostgresTestCluster) throws {
        try FileManager.default.removeItem(atPath: data)
        try PostgresTestServer.run(
            binaries.appendingPathComponent("pg_basebackup"),
            [
                "-D", data, "-h", primary.host, "-p", "\(primary.port)", "-U", "postgres", "-R", "-X", "stream",
                "--no-sync", "-c", "fast",
            ], user: user, in: folder)
        try start()
    }

    /// Starts the stopped server on its port; after ``kill()`` it runs crash recovery first. Waits until
    /// it accepts connections.
    package func start() throws {
        try Self.start(
            data: data, port: port, host: host, namespace: namespace, folder: folder, binaries: binaries, user: user)
    }

    /// `pg_ctl stop -m immediate`: the server's processes quit at once, without a shutdown checkpoint, as
    /// in a crash; every connection to it is lost and what was not committed is gone.
    package func kill() throws {
        try stop(mode: "immediate")
    }

    /// `pg_ctl stop -m <mode>` (`smart`, `fast` or `immediate`), waiting for the server to be gone.
    package func stop(mode: String) throws {
        try PostgresTestServer.run(
            binaries.appendingPathComponent("pg_ctl"), ["-D", data, "-m", mode, "-w", "stop"], user: user, in: folder)
    }

    /// Stops the server (immediate) if it runs and deletes its folder.
    package func remove() {
        if FileManager.default.fileExists(atPath: data + "/postmaster.pid") { try? kill() }
        try? FileManager.default.removeItem(at: folder)
    }

    private static func makeFolder(user: String?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "postgresrecord-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let user { try PostgresTestServer.run(URL(fileURLWithPath: "/bin/chown"), [user, folder.path], user: nil, in: folder) }
        return folder
    }

    /// Starts the cluster in `folder` on a random free port, trying five ports before giving up.
    private static func startOnFreePort(
        folder: URL, host: String, namespace: String?, binaries: URL, user: String?
    ) throws -> PostgresTestCluster {
        let data = folder.appendingPathComponent("data").path
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            do {
                try start(
                    data: data, port: port, host: host, namespace: namespace, folder: folder, binaries: binaries,
                    user: user)
                return PostgresTestCluster(
                    folder: folder, port: port, host: host, namespace: namespace, binaries: binaries, user: user)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CocoaError(.executableLoad)
    }

    private static func start(
        data: String, port: Int, host: String, namespace: String?, folder: URL, binaries: URL, user: String?
    ) throws {
        try PostgresTestServer.run(
            binaries.appendingPathComponent("pg_ctl"),
            [
                "-D", data, "-w", "-t", "60", "-l", folder.appendingPathComponent("server.log").path, "-o",
                "-F -p \(port) -k \(folder.path) -c listen_addresses=\(host) -c max_connections=100",
                "start",
            ], user: user, in: folder, namespace: namespace)
    }
}
#endif
