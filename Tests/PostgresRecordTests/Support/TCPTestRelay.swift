#if PostgreSQL
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP relay on a free 127.0.0.1 port that forwards every connection to `targetHost:targetPort` (loopback,
/// or a network namespace of the test's own), byte for byte, until ``cut()`` closes the sockets of every
/// connection it carries: what a client sees when the network drops (libpq's next read or write fails), as
/// against `pg_terminate_backend`, where the server says goodbye first. New connections are accepted after a
/// cut, until ``stop()``.
///
/// ``delay`` makes it a slow link: each chunk read from one side is held that long before it is sent on, in
/// both directions, so a round trip takes twice the delay more (the chunks of one direction wait behind each
/// other). Connections are accepted and TCP acknowledges at once: only the data is late, as on a slow path
/// whose packets all arrive, so keepalives and `tcp_user_timeout` never fire on it.
final class TCPTestRelay: @unchecked Sendable {
    /// The port the relay listens on.
    let port: Int
    private let targetHost: String
    private let targetPort: Int
    private let listener: Int32
    // The lock guards `pairs`, `stopped` and `heldSeconds`.
    private let lock = NSLock()
    private var pairs: [Pair] = []
    private var stopped = false
    private var heldSeconds: TimeInterval = 0

    /// How long each chunk is held before it is sent on, in seconds (0, the default: at once). A change
    /// applies to the chunks read after it.
    var delay: TimeInterval {
        get { lock.withLock { heldSeconds } }
        set { lock.withLock { heldSeconds = max(0, newValue) } }
    }

    /// The two sockets of one relayed connection; closed once both directions have ended.
    private final class Pair: @unchecked Sendable {
        let client: Int32
        let server: Int32
        // The lock guards `ended` and `closed`.
        private let lock = NSLock()
        private var ended = 0
        private var closed = false

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        /// Ends both directions: blocked reads return at once.
        func shut() {
            lock.withLock {
                guard !closed else { return }
                shutdown(client, Int32(SHUT_RDWR))
                shutdown(server, Int32(SHUT_RDWR))
            }
        }

        /// Called by each direction's thread as it ends; the second closes the sockets.
        func directionEnded() {
            lock.withLock {
                ended += 1
                guard ended == 2 else { return }
                closed = true
                close(client)
                close(server)
            }
        }
    }

    /// Starts relaying to `targetHost:targetPort` (an IPv4 address: 127.0.0.1 or a test namespace's).
    init(targetHost: String = "127.0.0.1", targetPort: Int) throws {
        self.targetHost = targetHost
        self.targetPort = targetPort
        (listener, port) = try Self.openListener()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A socket listening on a free 127.0.0.1 port, and the port.
    private static func openListener() throws -> (Int32, Int) {
        let listener = socket(AF_INET, streamType, 0)
        guard listener >= 0 else { throw failure("socket") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw failure("bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Closes the sockets of every connection the relay carries now, both ways.
    func cut() {
        let current = lock.withLock { () -> [Pair] in
            defer { pairs.removeAll() }
            return pairs
        }
        for pair in current { pair.shut() }
    }

    /// Cuts every connection and stops accepting new ones.
    func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        cut()
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Self.streamType, 0)
            var address = Self.loopback(port: targetPort)
            address.sin_addr.s_addr = inet_addr(targetHost)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            Self.noSignalOnWrite(client)
            Self.noSignalOnWrite(server)
            let pair = Pair(client: client, server: server)
            let accepted = lock.withLock { () -> Bool in
                guard !stopped, connected == 0 else { return false }
                pairs.append(pair)
                return true
            }
            guard accepted else {
                close(client)
                close(server)
                continue
            }
            for (from, to) in [(client, server), (server, client)] {
                Thread { [self] in pump(from: from, to: to, pair: pair) }.start()
            }
        }
    }

    /// Copies bytes from `from` to `to`, each chunk held ``delay`` first, until either side ends, then ends
    /// both.
    private func pump(from: Int32, to: Int32, pair: Pair) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let held = delay
            if held > 0 { Thread.sleep(forTimeInterval: held) }
            var sent = 0
            while sent < count {
                let written = buffer[sent...].withUnsafeBytes { send(to, $0.baseAddress, count - sent, Self.noSignal) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { break copying }
                sent += written
            }
        }
        pair.shut()
        pair.directionEnded()
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif

    /// A write to a socket the peer closed fails with EPIPE instead of raising SIGPIPE (Linux passes
    /// `MSG_NOSIGNAL` to each `send` instead).
    private static func noSignalOnWrite(_ socket: Int32) {
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func failure(_ call: String) -> any Error {
        NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "\(call) failed"])
    }
}
#endif
