#if canImport(SwiftUI)
import SwiftUI

/// A ``LiveQuery`` as a view's property: the view's body reads the request's current result, and SwiftUI
/// draws it again after each commit that changes it. The query starts with the view's state and stops when
/// the view goes away.
///
/// ```swift
/// struct BookList: View {
///     @LiveFetch var books: [Book]?
///
///     init(queue: DatabaseQueue) {
///         _books = LiveFetch(Book.all().order(Column("title")), in: queue)
///     }
///
///     var body: some View {
///         List(books ?? [], id: \.id) { Text($0.title) }
///     }
/// }
/// ```
///
/// `$books` is the ``LiveQuery`` itself: its ``LiveQuery/isLoading`` and ``LiveQuery/error``.
/// The query is kept in the view's `State`, so it is made once for the view's lifetime, as SwiftUI keeps
/// any `@State` object. See <https://developer.apple.com/documentation/swiftui/dynamicproperty>.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@propertyWrapper
public struct LiveFetch<Value: Sendable>: DynamicProperty {
    @State private var query: LiveQuery<Value>

    /// A live query of `observation`'s value in `writer`.
    public init(_ observation: ValueObservation<Value>, in writer: some AsyncDatabaseWriter) {
        _query = State(wrappedValue: LiveQuery(observation, in: writer))
    }

    /// A live query of the records `request` fetches, in `writer`.
    public init<Base: Record & Sendable>(_ request: QueryInterfaceRequest<Base>, in writer: some AsyncDatabaseWriter)
    where Value == [Base] {
        _query = State(wrappedValue: LiveQuery(request, in: writer))
    }

    /// The current result; nil while loading and after a failure.
    public var wrappedValue: Value? { query.value }

    /// The live query: its state, loading flag and error.
    public var projectedValue: LiveQuery<Value> { query }
}
#endif
