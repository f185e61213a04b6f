#if PostgreSQL
import Dispatch
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// PostgreSQL's side of one iteration of a `ValueObservation`: a listening connection of its own, waited on
/// through a dispatch read source on its socket (how a commit is heard), and the observed read, run on the
/// pool, with the tables it locked (which tables it used).
///
/// Everything runs on `queue` (the stop of the iteration, from any thread, hands it the listener's close), a
/// serial dispatch queue of the observer's own, never on Swift's cooperative pool: libpq's calls block. The
/// order that makes the guarantees:
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
    // @unchecked Sendable: every `var` is used only on `queue` (serial); the iteration's state is kept by
    // `values`, which locks its own.
    private let queue = DispatchQueue(label: "PostgresRecord.ValueObservation")
    private let values: ObservedValues<Value>
    private let pool: PostgresPool
    private let listenerConfiguration: PostgresConfiguration
    /// The wait before a lost listener first connects again, in seconds: none, since the server that ended
    /// one session mostly takes the next at once. The tests lengthen it to commit while no session listens.
    private let firstReconnectionDelay: Double

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
    /// The tables this observation installed change notifications on: one that is still silent afterwards
    /// (its trigger disabled again) ends the sequence instead of installing forever.
    private var installedTables: Set<ObservedTable> = []

    /// The `application_name` of the listening sessions, as `pg_stat_activity` shows them.
    static var applicationName: String { "PostgresRecord listener" }
    /// How long a lost listener tries to connect again before the sequence ends with the error, in seconds.
    static var reconnectionTimeout: Double { 30 }

    deinit {
        // A source still watching lets go of the connection only once cancelled.
        source?.cancel()
    }

    init(
        values: ObservedValues<Value>, pool: PostgresPool, listenerConfiguration: PostgresConfiguration,
        firstReconnectionDelay: Double = 0
    ) {
        self.values = values
        self.pool = pool
        self.listenerConfiguration = listenerConfiguration
        self.firstReconnectionDelay = firstReconnectionDelay
    }

    /// Opens the listener and reads the first value; a listener that cannot open ends the sequence. Once
    /// the iteration stops, the listener closes on `queue` as soon as a read running now has ended.
    func start() {
        values.onStop { self.queue.async { self.closeListener() } }
        queue.async {
            do {
                try self.openListener()
            } catch {
                return self.end(throwing: error)
            }
            self.refresh()
        }
    }

    private var stopped: Bool { values.isFinished }

    /// Ends the sequence with `error` and stops the observation.
    private func end(throwing error: any Error) {
        values.finish(throwing: error)
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
            let silent = tables.filter { !$0.notifiesChanges }
            if !silent.isEmpty {
                do {
                    try installNotifications(on: silent)
                } catch let error as PostgresError where error.kind == .connectionLost || error.kind == .connectionFailed {
                    return listenerWasLost(error)
                } catch {
                    return end(throwing: error)
                }
                // Read again: the trigger notifies from now on, and the channel is listened to below.
                continue
            }
            let fresh = Set(tables.map(\.channel)).subtracting(channels)
            if fresh.isEmpty { return values.deliver(value) }
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
    ///
    /// Read again when a statement the connection prepared before another session changed its table's columns
    /// (SQLSTATE 0A000, "cached plan must not change result type") aborted the snapshot: the connection has
    /// forgotten that statement and prepares it afresh, so a migration that adds a column to an observed table
    /// does not end the observation. At most once per connection of the pool, each of which may hold the old
    /// statement; the error of the last read ends the observation as any other.
    private func read() throws -> (Value, Set<ObservedTable>) {
        let values = self.values
        var attempt = 0
        while true {
            do {
                return try pool.read(isolation: .repeatableRead) { connection in
                    let value = try values.read(on: connection)
                    return (value, try connection.observedTables())
                }
            } catch let error as PostgresError
                where error.sqlState == .featureNotSupported && attempt < pool.configuration.maximumConnections
            {
                attempt += 1
            }
        }
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
            reconnectionDelay = firstReconnectionDelay
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

    /// Installs the change notifications on `tables`, which the read used and which have none, through a
    /// connection of the pool.
    /// - Throws: a `connectionLost`/`connectionFailed` ``PostgresError`` as it came; for any other failure
    ///   (the pool's role does not own the table, or may not create the function: 42501; a read-only
    ///   server: 25006), ``missingNotifications(_:cause:)``, which says what to run; the same when a table is
    ///   still silent after this observation installed its notifications.
    private func installNotifications(on tables: Set<ObservedTable>) throws {
        let sorted = tables.sorted { $0.channel < $1.channel }
        if let again = sorted.first(where: installedTables.contains) {
            throw Self.missingNotifications(again, cause: nil)
        }
        let quoted = sorted.map { SQLIdentifier.quoted($0.schema) + "." + SQLIdentifier.quoted($0.name) }
        do {
            try pool.writeWithoutTransaction { connection in
                try connection.installChangeNotifications(quotedTables: quoted)
            }
        } catch let error as PostgresError where error.kind == .connectionLost || error.kind == .connectionFailed {
            throw error
        } catch {
            throw Self.missingNotifications(sorted[0], cause: error)
        }
        installedTables.formUnion(sorted)
    }

    /// The error for a table the read used that sends no notifications, which the observation could not
    /// install (`cause` says why; nil: installed, and silent again). The message gives the call and the
    /// SQL that install them. The call resolves a bare name through the search path: for a table the
    /// reading session does not find by its name (another schema), the message says which connection the
    /// call needs, so that it does not land on another table; the SQL names the table with its schema.
    static func missingNotifications(_ table: ObservedTable, cause: (any Error)?) -> PostgresError {
        let quoted = SQLIdentifier.quoted(table.schema) + "." + SQLIdentifier.quoted(table.name)
        let statements = PostgresConnection.changeNotificationSQL(quotedTables: [quoted])
        let why = cause.map { "the pool's session could not install them (\($0)), " } ?? "its trigger was installed and is disabled again, "
        return PostgresError(
            kind: .client,
            message: "the observed read used the table \(table.schema).\(table.name), which has no change "
                + "notifications, so its commits would go unseen; " + why + "so install them as a role that owns "
                + "the table with PostgresConnection.installChangeNotifications(for: [\"\(table.name)\"]) (a migration step)"
                + (table.isFoundByName
                    ? "" : " on a connection whose search_path finds \(table.schema).\(table.name) under that name")
                + ", which runs:\n" + statements.joined(separator: ";\n") + ";",
            table: table.name)
    }
}
#endif
