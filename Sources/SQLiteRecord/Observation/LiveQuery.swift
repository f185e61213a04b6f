#if canImport(Observation)
import Foundation
import Observation

/// A live query: a request's current result, kept up to date as the database changes, for the Observation
/// framework (SwiftUI reads it as it reads any `@Observable` model). It runs a ``ValueObservation`` in a
/// writer of either engine and sets ``state`` on the main actor each time a commit changes the result: the
/// first value ends ``State-swift.enum/loading``, an error of the read ends the query in
/// ``State-swift.enum/failed(_:)``.
///
/// ```swift
/// let titles = LiveQuery(Book.all().order(Column("title")), in: queue)  // or a pool, or a PostgresPool
/// withObservationTracking { _ = titles.value } onChange: { print("the titles change") }
/// ```
///
/// Each change is one assignment of ``state``: an observer of ``value`` (with `withObservationTracking`,
/// or a SwiftUI view's body) hears of each fresh result once, in commit order. The query holds its
/// observation while it lives and stops it when it is released (nothing is read after that).
/// See <https://developer.apple.com/documentation/observation>.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class LiveQuery<Value: Sendable> {
    /// Where the query stands.
    public enum State {
        /// No result read yet.
        case loading
        /// The current result.
        case loaded(Value)
        /// The read failed with this error; the query stopped, and keeps no result.
        case failed(any Error)
    }

    /// Where the query stands: set on the main actor, once per fresh result.
    public private(set) var state: State = .loading

    /// The observation's iteration; cancelled when the query is released, which ends the observation.
    private let iteration = Iteration()

    /// A live query of `observation`'s value in `writer`.
    /// - Parameters:
    ///   - observation: the observed read; `removeDuplicates()` on it skips results equal to the last one.
    ///   - writer: a ``DatabaseQueue`` or a ``DatabasePool``; on PostgreSQL a `PostgresPool`.
    public init(_ observation: ValueObservation<Value>, in writer: some AsyncDatabaseWriter) {
        let values = observation.values(in: writer)
        iteration.task = Task { @MainActor [weak self] in
            do {
                for try await value in values {
                    guard let self else { return }
                    self.state = .loaded(value)
                }
            } catch is CancellationError {
            } catch {
                self?.state = .failed(error)
            }
        }
    }

    /// A live query of the records `request` fetches, in `writer`.
    /// - Parameters:
    ///   - request: the request; its records are fetched again after each commit that changed a table it reads.
    ///   - writer: a ``DatabaseQueue`` or a ``DatabasePool``; on PostgreSQL a `PostgresPool`.
    public convenience init<Base: Record & Sendable>(_ request: QueryInterfaceRequest<Base>, in writer: some AsyncDatabaseWriter)
    where Value == [Base] {
        self.init(request.observation(), in: writer)
    }

    /// The current result; nil while loading and after a failure.
    public var value: Value? {
        if case .loaded(let value) = state { return value }
        return nil
    }

    /// The error that stopped the query; nil while it runs.
    public var error: (any Error)? {
        if case .failed(let error) = state { return error }
        return nil
    }

    /// True until the first result (or an error) arrives.
    public var isLoading: Bool {
        if case .loading = state { return true }
        return false
    }

    /// Holds the iterating task, and cancels it when the query (its only owner) is released: the task holds
    /// the query weakly, so the query's release is what ends it.
    private final class Iteration: @unchecked Sendable {
        // @unchecked Sendable: `task` is set once, in the query's initializer, before the holder is shared;
        // afterwards only read, by `deinit`.
        var task: Task<Void, Never>?
        deinit { task?.cancel() }
    }
}
#endif
