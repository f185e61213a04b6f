#if PostgreSQL
import Dispatch
import Foundation
import SQLiteRecord

/// The engine of one iteration of a ``PostgresAsyncValueObservation``: a listening connection of its own,
/// waited on through a dispatch read source on its socket, and the observed read, run on the pool.
///
/// Everything but ``stop()`` runs on `queue`, a serial dispatch queue of the observer's own, never on Swift's
/// cooperative pool: libpq's calls block. The order that makes the guarantees:
/// - A value is delivered only when every table its read used was listened to before the read began: a
///   read that finds a table not listened to yet `LISTEN`s on its channel and reads again, so the first
///   value, and every later one, is never older than a commit the observer did not hear of.
/// - Notifications already received are taken off the connection right before each read: that read covers
///   them. Those that arrive while it runs make the socket readable, and one more read follows it, however
///   many came: a burst of commits costs a read or two, and the last read sees the last commit.
/// - A listener found lost connects again, listens to the same channels, and reads again before anything
///   else, since a commit may have come while no session listened. A read that loses its connection, or
///   cannot open one (the server restarted under it), takes the same way: the listener of a restarted server
///   is lost too, and its notifications with it, so only a new listener and a read after it are sure to see
///   every commit. The reconnection ends only with a read that succeeded.
final class PostgresValueObserver<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `isStopped` and `continuation` are read and written with `lock` held; every other
    // `var` is used only on `queue` (serial).
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "PostgresRecord.ValueObservation")
    private let observation: PostgresValueObservation<Value>
    private let pool: PostgresPool
    private let listenerConfiguration: PostgresConfiguration
    private var continuation: AsyncThrowingStream<Value, any Error>.Continuation?
    private var isStopped = false

    /// The listening session; nil before it opens, while it is being replaced, and after the end.
    private var listener: PostgresConnection?
    /// The read source on `listener`'s socket; cancelled before the connection closes (its descriptor must
    /// stay open until the source's cancel handler ran).
    private var source: (any DispatchSourceRead)?
    /// The channels `listener` listens to.
    private var channels: Set<String> = []
    /// The channels to listen to again after a lost listener connects anew.
    private var lostChannels: Set<String> = []
    /// When the listener, or the read's connection, was found lost; nil again once a read succeeded.
    private var lostSince: DispatchTime?
    /// The next wait before connecting again, in seconds.
    private var reconnectionDelay = 0.0
    /// The last value delivered, kept when duplicates are removed.
    private var lastValue: Value?

    /// The `application_name` of the listening sessions, as `pg_stat_activity` shows them.
    static var applicationName: String { "PostgresRecord listener" }
    /// How long a lost listener tries to connect again before the sequence ends with the error, in seconds.
    static var reconnectionTimeout: Double { 30 }

    deinit {
        // A source still watching lets go of the connection only once cancelled.
        source?.cancel()
    }

    init(
        observation: PostgresValueObservation<Value>, pool: PostgresPool,
        listenerConfiguration: PostgresConfiguration,
        continuation: AsyncThrowingStream<Value, any Error>.Continuation
    ) {
        self.observation = observation
        self.pool = pool
        self.listenerConfiguration = listenerConfiguration
        self.continuation = continuation
    }

    /// Opens the listener and reads the first value; a listener that cannot open ends the sequence.
    func start() {
        queue.async {
            do {
                try self.openListener()
            } catch {
                return self.end(throwing: error)
            }
            self.refresh()
        }
    }

    /// Stops the observation, from any thread: the sequence finishes, and the listener closes on `queue` as
    /// soon as a read running now has ended.
    func stop() {
        let continuation: AsyncThrowingStream<Value, any Error>.Continuation? = lock.withLock {
            guard !isStopped else { return nil }
            isStopped = true
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.finish()
        queue.async { self.closeListener() }
    }

    private var stopped: Bool { lock.withLock { isStopped } }

    /// Ends the sequence with `error` and stops the observation.
    private func end(throwing error: any Error) {
        let continuation = lock.withLock { isStopped ? nil : self.continuation }
        continuation?.finish(throwing: error)
        stop()
    }

    /// Opens a listening session, names it, listens to `lostChannels`, and waits on its socket.
    private func openListener() throws {
        let connection = try PostgresConnection(configuration: listenerConfiguration)
        try connection.execute("SET application_name TO '\(Self.applicationName)'")
        for channel in lostChannels.sorted() {
            try connection.execute("LISTEN " + SQLIdentifier.quoted(channel))
        }
        guard !stopped else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: queue)
        source.setEventHandler { [weak self] in self?.socketIsReadable() }
        // The connection closes (PQfinish, in its deinit) once the source no longer watches its descriptor.
        source.setCancelHandler { withExtendedLifetime(connection) {} }
        listener = connection
        channels = lostChannels
        lostChannels = []
        self.source = source
        source.resume()
    }

    /// Cancels the read source and lets the listener go, which closes it.
    private func closeListener() {
        source?.cancel()
        source = nil
        listener = nil
        channels = []
    }

    /// The server sent something: notifications make one read; a lost connection connects again.
    private func socketIsReadable() {
        guard let listener, !stopped else { return }
        do {
            if try !listener.takeNotifications().isEmpty { refresh() }
        } catch {
            listenerWasLost(error)
        }
    }

    /// Reads the value on the pool and delivers it, once every table the read used is listened to.
    private func refresh() {
        while !stopped {
            guard let listener else { return }
            do {
                // Taken now, covered by the read below.
                _ = try listener.takeNotifications()
            } catch {
                return listenerWasLost(error)
            }
            let value: Value
            let tables: Set<ObservedTable>
            do {
                (value, tables) = try read()
            } catch let error as PostgresError where error.kind == .connectionLost || error.kind == .connectionFailed {
                return listenerWasLost(error)
            } catch {
                return end(throwing: error)
            }
            lostSince = nil
            if let silent = tables.filter({ !$0.notifiesChanges }).min(by: { $0.channel < $1.channel }) {
                return end(throwing: Self.missingNotifications(silent))
            }
            let fresh = Set(tables.map(\.channel)).subtracting(channels)
            if fresh.isEmpty { return deliver(value) }
            do {
                for channel in fresh.sorted() {
                    try listener.execute("LISTEN " + SQLIdentifier.quoted(channel))
                    channels.insert(channel)
                }
            } catch let error as PostgresError where error.kind == .connectionLost || !listener.isConnected {
                return listenerWasLost(error)
            } catch {
                return end(throwing: error)
            }
            // Read again: a commit may have come between the read and the LISTEN.
        }
    }

    /// The observed read and the tables it used, in one read-only snapshot of the pool.
    private func read() throws -> (Value, Set<ObservedTable>) {
        let fetch = observation.fetch
        return try pool.read(isolation: .repeatableRead) { connection in
            let value = try fetch(connection)
            return (value, try connection.observedTables())
        }
    }

    /// Hands `value` to the iteration unless it is a duplicate of the last one delivered.
    private func deliver(_ value: Value) {
        if let isDuplicate = observation.isDuplicate {
            if let lastValue, isDuplicate(lastValue, value) { return }
            lastValue = value
        }
        let continuation = lock.withLock { isStopped ? nil : self.continuation }
        continuation?.yield(value)
    }

    /// Closes the lost listener and connects again, at once, then after waits that double from 0.05 to 2
    /// seconds; once the new listener listens, the value is read again. The sequence ends with `error` when
    /// neither a listener nor the read that follows it succeeded within ``reconnectionTimeout`` of the loss.
    private func listenerWasLost(_ error: any Error) {
        let now = DispatchTime.now()
        let since = lostSince ?? now
        if lostSince == nil {
            lostSince = now
            lostChannels = channels
            reconnectionDelay = observation.firstReconnectionDelay
        }
        closeListener()
        guard !stopped else { return }
        let elapsed = Double(now.uptimeNanoseconds - since.uptimeNanoseconds) / 1e9
        guard elapsed < Self.reconnectionTimeout else { return end(throwing: error) }
        let delay = reconnectionDelay
        reconnectionDelay = min(max(reconnectionDelay * 2, 0.05), 2)
        queue.asyncAfter(deadline: now + delay) { [weak self] in self?.reconnect() }
    }

    private func reconnect() {
        guard !stopped else { return }
        do {
            try openListener()
        } catch {
            return listenerWasLost(error)
        }
        refresh()
    }

    /// The error for a table the read used that sends no notifications. The install resolves a bare name
    /// through the search path: for a table the reading session does not find by its name (another schema),
    /// the message says which connection the call needs, so that it does not land on another table.
    private static func missingNotifications(_ table: ObservedTable) -> PostgresError {
        PostgresError(
            kind: .client,
            message: "the observed read used the table \(table.schema).\(table.name), which has no change "
                + "notifications, so its commits would go unseen: install them with "
                + "PostgresConnection.installChangeNotifications(for: [\"\(table.name)\"]) (a migration step)"
                + (table.isFoundByName
                    ? "" : " on a connection whose search_path finds \(table.schema).\(table.name) under that name"),
            table: table.name)
    }
}
#endif
