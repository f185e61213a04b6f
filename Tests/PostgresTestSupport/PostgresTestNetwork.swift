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
/// `POSTGRESRECORD_REQUIRE_NETNS=1`. A blackhole needs only the pair. Loss and delay use `tc netem` where the
/// kernel has it (``netemFailure`` is nil); elsewhere loss is nftables' `numgen random` on the pair
/// (``setLoss(percent:)``), and delay is the tests' own user-space relay, which they choose by
/// ``netemFailure``.
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

    /// Why `tc netem` cannot shape this pair (`tc`'s own words, such as `Error: Specified qdisc kind is
    /// unknown.` on a kernel without `sch_netem`); nil when it can. Asked once per network, by adding a netem
    /// qdisc that changes nothing, seeing it listed, and removing it.
    package var netemFailure: String? {
        netemLock.withLock {
            if netemChecked { return netemFailureText }
            let failure: String?
            do {
                try tc(["qdisc", "replace", "dev", serverLink, "root", "netem", "delay", "0ms"], namespace: name)
                let listed = try tc(["qdisc", "show", "dev", serverLink], namespace: name)
                try tc(["qdisc", "del", "dev", serverLink, "root"], namespace: name)
                failure = listed.contains("netem") ? nil : "no netem qdisc listed: \(listed)"
            } catch {
                failure = "\(error)".trimmingCharacters(in: .whitespacesAndNewlines)
            }
            netemChecked = true
            netemFailureText = failure
            return failure
        }
    }
    // The lock guards `netemChecked` and `netemFailureText`, the netem check's answer once asked.
    private let netemLock = NSLock()
    private var netemChecked = false
    private var netemFailureText: String?

    /// Drops `percent` percent of the packets crossing the pair, each way, each packet drawn at random; 0
    /// drops none. With netem: `netem loss` on both ends of the pair. Without: an nftables table of the
    /// namespace (`numgen random mod 100 < percent drop`, in its input and output hooks, on the pair's
    /// interface only), so the kernel needs `nf_tables` and the test machine the `nft` command (Debian's
    /// nftables). TCP retransmits what is lost, so calls slow down rather than fail.
    package func setLoss(percent: Int) throws {
        if netemFailure == nil {
            for (link, namespace) in [(serverLink, name as String?), (hostLink, nil)] {
                try tc(["qdisc", "replace", "dev", link, "root", "netem", "loss", "\(percent)%"], namespace: namespace)
            }
            return
        }
        let rules = folder.appendingPathComponent("loss.nft")
        // Creating the table first makes the deletion safe when it is absent: the file replaces it whole.
        var text = "table inet postgresrecord_loss\ndelete table inet postgresrecord_loss\n"
        if percent > 0 {
            let drop = "numgen random mod 100 < \(percent) counter drop"
            text += """
                table inet postgresrecord_loss {
                    chain input { type filter hook input priority 0; iifname "\(serverLink)" \(drop); }
                    chain output { type filter hook output priority 0; oifname "\(serverLink)" \(drop); }
                }

                """
        }
        try text.write(to: rules, atomically: true, encoding: .utf8)
        try PostgresTestServer.run(
            URL(fileURLWithPath: Self.nft), ["-f", rules.path], user: nil, in: folder, namespace: name)
    }

    /// The packets the loss has dropped since ``setLoss(percent:)`` last set it: the nftables rules'
    /// counters, or netem's `dropped` on both ends of the pair.
    package func droppedPackets() throws -> Int {
        func sum(_ text: String, after word: String) -> Int {
            let pattern = try? NSRegularExpression(pattern: word + #" ([0-9]+)"#)
            let range = NSRange(text.startIndex..., in: text)
            return (pattern?.matches(in: text, range: range) ?? []).reduce(0) { total, match in
                total + (Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) } ?? 0)
            }
        }
        if netemFailure == nil {
            return try sum(tc(["-s", "qdisc", "show", "dev", serverLink], namespace: name), after: "dropped")
                + sum(tc(["-s", "qdisc", "show", "dev", hostLink], namespace: nil), after: "dropped")
        }
        let listed = try PostgresTestServer.run(
            URL(fileURLWithPath: Self.nft), ["list", "table", "inet", "postgresrecord_loss"], user: nil, in: folder,
            namespace: name)
        return sum(listed, after: "packets")
    }

    /// Holds every packet crossing the pair `milliseconds` on the way, each way (netem only: see
    /// ``netemFailure``); 0 holds none.
    package func setNetemDelay(milliseconds: Int) throws {
        for (link, namespace) in [(serverLink, name as String?), (hostLink, nil)] {
            try tc(
                ["qdisc", "replace", "dev", link, "root", "netem", "delay", "\(milliseconds)ms"], namespace: namespace)
        }
    }

    /// The `tc` command of iproute2 and the `nft` command of nftables.
    package static let tc = ["/usr/sbin/tc", "/sbin/tc", "/usr/bin/tc"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/tc"
    package static let nft = ["/usr/sbin/nft", "/sbin/nft", "/usr/bin/nft"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/nft"

    @discardableResult
    private func tc(_ arguments: [String], namespace: String?) throws -> String {
        try PostgresTestServer.run(
            URL(fileURLWithPath: Self.tc), arguments, user: nil, in: folder, namespace: namespace)
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
