#if PostgreSQL
import Foundation
import XCTest

/// A network namespace of the test's own (`ip netns add`), joined to the test's namespace by a veth pair
/// with a /30 of 198.18.0.0/15 (the range RFC 2544 keeps for benchmarks, routed nowhere): the test's side
/// is `.1`, the namespace's `.2`. A ``PostgresTestCluster`` made in it listens on ``serverAddress`` only, so
/// every packet between the test and that server crosses the pair, which the test can cut.
///
/// ```swift
/// let network = try PostgresTestNetwork.make()
/// defer { network.remove() }
/// let cluster = try PostgresTestCluster.make(in: network)
/// try network.blackhole()   // packets vanish, both ways; no error, no reset
/// try network.heal()
/// ```
///
/// Linux only, as root (`CAP_NET_ADMIN`): elsewhere the test is skipped, or fails under
/// `POSTGRESRECORD_REQUIRE_NETNS=1`. `tc netem` (delay, loss) is not used: the kernels these tests run on
/// may lack it (`sch_netem`); a blackhole needs only the pair.
package final class PostgresTestNetwork: @unchecked Sendable {
    /// The namespace's name, `pgrt` and six hexadecimal digits.
    package let name: String
    /// The address of the test's side.
    package let hostAddress: String
    /// The address of the namespace's side, where a server in it listens.
    package let serverAddress: String
    /// Where the `ip` commands' output goes, removed with the network.
    private let folder: URL
    private var hostLink: String { name + "h" }
    private var serverLink: String { name + "s" }

    /// The `ip` command of iproute2.
    package static let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"

    private init(name: String, subnet: (Int, Int), folder: URL) {
        self.name = name
        self.folder = folder
        hostAddress = "198.18.\(subnet.0).\(subnet.1 + 1)"
        serverAddress = "198.18.\(subnet.0).\(subnet.1 + 2)"
    }

    /// A new namespace and veth pair, both sides up. Skips the test where namespaces cannot be made.
    package static func make() throws -> PostgresTestNetwork {
        let name = "pgrt" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(6).lowercased()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postgresrecord-\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let network = PostgresTestNetwork(
            name: name, subnet: (Int.random(in: 0..<256), 4 * Int.random(in: 0..<64)), folder: folder)
        do {
            guard isLinuxRoot else { throw NetworkFailure(message: "network namespaces need Linux and root") }
            try network.ip(["netns", "add", name])
            try network.ip(["link", "add", network.hostLink, "type", "veth", "peer", "name", network.serverLink])
            try network.ip(["link", "set", network.serverLink, "netns", name])
            try network.ip(["addr", "add", network.hostAddress + "/30", "dev", network.hostLink])
            try network.ip(["link", "set", network.hostLink, "up"])
            try network.ip(["-n", name, "addr", "add", network.serverAddress + "/30", "dev", network.serverLink])
            try network.ip(["-n", name, "link", "set", network.serverLink, "up"])
            try network.ip(["-n", name, "link", "set", "lo", "up"])
            // The server's hardware address, fixed on the test's side: while the link is down, a connection
            // attempt's SYN vanishes like every other packet, instead of failing at once on an unanswered ARP.
            let link = try network.ip(["-n", name, "-o", "link", "show", "dev", network.serverLink])
            guard let range = link.range(of: #"link/ether [0-9a-f:]{17}"#, options: .regularExpression) else {
                throw NetworkFailure(message: "no hardware address in: \(link)")
            }
            let address = String(link[range].dropFirst("link/ether ".count))
            try network.ip([
                "neigh", "replace", network.serverAddress, "lladdr", address, "dev", network.hostLink, "nud",
                "permanent",
            ])
        } catch {
            network.remove()
            let message = "network namespace tests skipped: they need `ip netns` (iproute2) as root: \(error)"
            if ProcessInfo.processInfo.environment["POSTGRESRECORD_REQUIRE_NETNS"] == "1" { XCTFail(message) }
            throw XCTSkip(message)
        }
        return network
    }

    /// True on Linux as root, where `ip netns` can work.
    private static var isLinuxRoot: Bool {
        #if os(Linux)
        return getuid() == 0
        #else
        return false
        #endif
    }

    /// Takes the namespace's side of the pair down: what the test's side sends is dropped on the way
    /// (the pair's peer is down), with no error and no reset to either end, as on a partition.
    package func blackhole() throws {
        try ip(["-n", name, "link", "set", serverLink, "down"])
    }

    /// Brings the namespace's side up again.
    package func heal() throws {
        try ip(["-n", name, "link", "set", serverLink, "up"])
    }

    /// Deletes the pair and the namespace (a server in it must be stopped first).
    package func remove() {
        _ = try? ip(["link", "del", hostLink])
        _ = try? ip(["netns", "del", name])
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    private func ip(_ arguments: [String]) throws -> String {
        try PostgresTestServer.run(
            URL(fileURLWithPath: Self.ip), arguments, user: nil, in: folder)
    }

    package struct NetworkFailure: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }

        package init(message: String) { self.message = message }
    }
}
#endif
