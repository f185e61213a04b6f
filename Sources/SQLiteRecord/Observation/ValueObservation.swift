import Foundation

/// A read of the database whose result is followed as the database changes: the current value first, then
/// a fresh one after each commit that changed a table the read used.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Note.all().order(Column("title")).fetch(db)
/// }
/// for try await notes in observation.values(in: queue) {
///     print(notes.map(\.title))
/// }
/// ```
///
/// The tables are those the read's statements read, as SQLite's authorizer reports them while the
/// statements are prepared, and they are found again at each read, so a read whose tables depend on the
/// data stays followed. A commit is found by the writer connection's commit hook; the fresh value is read
/// once the write has ended, in a read of its own (on a ``DatabaseQueue``, on the queue in the write's own
/// turn, before `write` returns; on a ``DatabasePool``, on a reader, beside the writer), so it is never a
/// value from a transaction that rolled back, and never older than the commit. Commits
/// made by other connections to the same file (another process, another queue) are found by polling
/// `PRAGMA data_version` (see ``checkingOtherConnections(every:)``). The names are GRDB's.
/// See <https://www.sqlite.org/c3ref/set_authorizer.html> and <https://www.sqlite.org/pragma.html#pragma_data_version>.
public struct ValueObservation<Value: Sendable>: Sendable {
    /// The observed read.
    let fetch: @Sendable (Database) throws -> Value
    /// Tells two values apart; nil delivers every fresh value.
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?
    /// Seconds between two checks for commits of other connections; nil does not check.
    var otherConnectionsInterval: TimeInterval? = 1

    /// An observation of `fetch`, a read: run at once when iteration starts, and again after each commit
    /// that changed a table it read. It runs in a read-only snapshot, as a `read` does.
    /// - Parameter fetch: the read; what it throws ends the observation's sequence with that error.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation {
        ValueObservation(fetch: fetch)
    }

    /// The same observation, delivering a fresh value only when it differs from the last one delivered
    /// (as `isDuplicate` tells).
    /// - Parameter isDuplicate: true when two values are the same to the observer.
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation {
        var observation = self
        observation.isDuplicate = isDuplicate
        return observation
    }

    /// The same observation, checking every `interval` seconds whether another connection (another process,
    /// another queue or pool on the same file) committed, with `PRAGMA data_version`, and reading again when
    /// one did. One cheap pragma per interval on the writer connection: the observed read itself is not
    /// polled. The default is 1 second; nil checks never (only this queue's or pool's own writes are seen).
    /// An in-memory database has no other connection and is never checked.
    /// See <https://www.sqlite.org/pragma.html#pragma_data_version>.
    /// - Parameter interval: seconds between checks, at least 0.001; nil turns the checks off.
    public func checkingOtherConnections(every interval: TimeInterval?) -> ValueObservation {
        var observation = self
        observation.otherConnectionsInterval = interval.map { max($0, 0.001) }
        return observation
    }

    /// The observed values as an asynchronous sequence: the current value, then a fresh value after each
    /// commit that changed what the read used.
    ///
    /// The observation starts when iteration starts. Ending the iteration (a `break`, the end of the task,
    /// its cancellation) stops it: it no longer hears of commits and lets the queue or pool go. An error of
    /// the read ends the sequence with that error.
    /// - Parameters:
    ///   - reader: a ``DatabaseQueue`` or a ``DatabasePool``.
    ///   - bufferingPolicy: what to keep of values the iteration has not taken yet; by default every value.
    public func values(
        in reader: some DatabaseReader,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(observation: self, reader: reader, bufferingPolicy: bufferingPolicy)
    }
}

extension ValueObservation where Value: Equatable {
    /// The same observation, delivering a fresh value only when it differs from the last one delivered.
    public func removeDuplicates() -> ValueObservation {
        removeDuplicates(by: ==)
    }
}
