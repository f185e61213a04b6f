import Foundation

/// One iteration of a ``ValueObservation``, as an engine sees it: the observed read, and the stream its
/// values go to. What every engine shares lives here (the read, duplicates left out, the end of the
/// sequence, the stop); the engine adds only how a commit is heard and which tables a read used, in its
/// ``AsyncDatabaseWriter/observe(_:)``.
@_spi(RecordEngine)
public final class ObservedValues<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `continuation`, `isStopped` and `stopHandlers` are read and written with `lock`
    // held. `lastValue` is used only by `deliver`, whose calls the engine makes one at a time, in the order
    // of their reads (its documented contract).
    private let lock = NSLock()
    private let observation: ValueObservation<Value>
    private var continuation: AsyncThrowingStream<Value, any Error>.Continuation?
    private var isStopped = false
    private var stopHandlers: [@Sendable () -> Void] = []
    private var lastValue: Value?

    init(observation: ValueObservation<Value>, continuation: AsyncThrowingStream<Value, any Error>.Continuation) {
        self.observation = observation
        self.continuation = continuation
    }

    /// Seconds between two checks for commits of other connections to a SQLite file; nil does not check.
    public var otherConnectionsInterval: TimeInterval? { observation.otherConnectionsInterval }

    /// True once the iteration ended (or the observation ended it): the engine stops reading.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isStopped
    }

    /// Runs the observed read on `connection`, inside the read-only transaction the engine opened.
    /// - Throws: what the read throws.
    public func read(on connection: any DatabaseConnection) throws -> Value {
        try observation.fetch(connection)
    }

    /// Hands `value` to the iteration, unless it is a duplicate of the last one delivered or the iteration
    /// ended. The engine calls it one read at a time, in the order of the reads.
    public func deliver(_ value: Value) {
        if let isDuplicate = observation.isDuplicate {
            if let lastValue, isDuplicate(lastValue, value) { return }
            lastValue = value
        }
        runningContinuation()?.yield(value)
    }

    /// Ends the sequence with `error`, then stops.
    public func finish(throwing error: any Error) {
        runningContinuation()?.finish(throwing: error)
        stop()
    }

    /// Runs `handler` when the observation stops (at once, on this thread, when it has stopped already):
    /// where the engine stops hearing commits and lets the writer go.
    public func onStop(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        let runNow = isStopped
        if !runNow { stopHandlers.append(handler) }
        lock.unlock()
        if runNow { handler() }
    }

    /// Stops the observation, from any thread: the sequence finishes, and the engine's stop handlers run
    /// once, on this thread.
    public func stop() {
        lock.lock()
        guard !isStopped else { return lock.unlock() }
        isStopped = true
        let continuation = self.continuation
        let handlers = stopHandlers
        self.continuation = nil
        stopHandlers = []
        lock.unlock()
        continuation?.finish()
        for handler in handlers { handler() }
    }

    /// The continuation while the iteration runs; nil once it stopped.
    private func runningContinuation() -> AsyncThrowingStream<Value, any Error>.Continuation? {
        lock.lock()
        defer { lock.unlock() }
        return isStopped ? nil : continuation
    }
}
