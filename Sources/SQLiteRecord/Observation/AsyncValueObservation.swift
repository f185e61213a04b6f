/// The values of a ``ValueObservation`` in a writer, as an `AsyncSequence`: made by
/// ``ValueObservation/values(in:bufferingPolicy:)``.
///
/// Each iteration starts an observation of its own, which ends with the iteration: leaving the loop, or
/// cancelling its task, stops it and frees what it held.
public struct AsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// The type of the values.
    public typealias Element = Value

    let observation: ValueObservation<Value>
    let bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy
    /// Hands the iteration's ``ObservedValues`` to the engine, which starts observing.
    let start: @Sendable (ObservedValues<Value>) -> Void

    /// An observation's sequence whose iterations `start` observes: an engine's own way to observe
    /// (PostgreSQL's listener on another server).
    @_spi(RecordEngine)
    public init(
        observation: ValueObservation<Value>,
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy,
        start: @escaping @Sendable (ObservedValues<Value>) -> Void
    ) {
        self.observation = observation
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    /// Starts the observation and returns the iterator of its values.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        let values = ObservedValues(observation: observation, continuation: continuation)
        continuation.onTermination = { _ in values.stop() }
        start(values)
        return Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates an observation's values.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator

        /// The next value: waits for a commit that changes what the read used.
        /// - Throws: the error the observed read threw; the sequence ends with it.
        public mutating func next() async throws -> Value? {
            try await base.next()
        }
    }
}
