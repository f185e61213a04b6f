// A SwiftUI window listing books through `@LiveFetch`, with a button that adds one: the list follows each
// commit. Compiled as an app only where SwiftUI exists (macOS); elsewhere the executable says so.
import SQLiteRecord

struct Book: Record, Sendable, Identifiable {
    var id: Int64?
    var title: String
    static let tableName = "books"
}

#if canImport(SwiftUI)
import SwiftUI

@available(macOS 14, iOS 17, *)
struct BookList: View {
    let queue: DatabaseQueue
    @LiveFetch var books: [Book]?

    init(queue: DatabaseQueue) {
        self.queue = queue
        _books = LiveFetch(Book.all().order(Column("title")), in: queue)
    }

    var body: some View {
        VStack {
            if $books.isLoading {
                ProgressView()
            } else if let error = $books.error {
                Text("\(error)")
            } else {
                List(books ?? []) { Text($0.title) }
            }
            Button("Add a book") {
                Task {
                    var book = Book(id: nil, title: "Book \(Int.random(in: 1...999))")
                    try await book.insert(queue)
                }
            }
        }
        .padding()
    }
}

@available(macOS 14, iOS 17, *)
struct LiveQuerySampleApp: App {
    /// An in-memory database with the books table, or why it could not open.
    let opened = Result { () throws -> DatabaseQueue in
        let queue = try DatabaseQueue()
        try queue.write { db in try Book.createTable(in: db) }
        return queue
    }

    var body: some Scene {
        WindowGroup {
            switch opened {
            case .success(let queue): BookList(queue: queue)
            case .failure(let error): Text("The database did not open: \(error)")
            }
        }
    }
}

@main
enum LiveQuerySample {
    static func main() {
        if #available(macOS 14, iOS 17, *) {
            LiveQuerySampleApp.main()
        } else {
            print("live-query-sample needs macOS 14 or later (the Observation framework).")
        }
    }
}
#else
@main
enum LiveQuerySample {
    static func main() {
        print("live-query-sample is a SwiftUI app: build it on macOS 14 or later.")
    }
}
#endif
