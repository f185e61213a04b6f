import Foundation
import SQLiteRecord
import XCTest

#if PostgreSQL
    import PostgresRecord
#endif

/// Many-to-many and one-through-another associations (`hasMany(_:through:using:)`, `hasOne(_:through:using:)`):
/// eager loads in one query per level, filters by what a record reaches, and the errors of steps that do not
/// chain, the same on every engine.
final class ThroughAssociationContractTests: RecordContractTestCase {
    struct Tag: Record, Equatable, Sendable {
        var id: Int64?
        var name: String
        static let tableName = "tags"
    }

    /// The pivot: a book's tag, at a position among the book's tags.
    struct BookTag: Record, Equatable, Sendable {
        var id: Int64?
        var bookId: Int64?
        var tagId: Int64?
        var position: Int
        var pinned = false
        static let tableName = "book_tags"
        static let tag = belongsTo(Tag.self, using: "tag_id")
        enum CodingKeys: String, CodingKey {
            case id, position, pinned
            case bookId = "book_id"
            case tagId = "tag_id"
        }
    }

    struct BookWithTags: Decodable, Equatable, Sendable {
        var book: Book
        var tags: [Tag]
    }

    static let bookTags = Book.hasMany(BookTag.self, using: "book_id").order(Column("position").ascending)
    static let tags = Book.hasMany(Tag.self, through: bookTags, using: BookTag.tag)

    /// Dune tagged classic (position 1) and scifi (2, pinned); Emma classic twice and a tag that no row holds; Kafka
    /// nothing. Tags: classic (1), scifi (2), poetry (3, on no book).
    private func makeBooks(_ engine: any ContractEngine) throws {
        try engine.createTable(Book.self)
        try engine.createTable(Tag.self)
        try engine.createTable(BookTag.self)
        try engine.write { db in
            for title in ["Dune", "Emma", "Kafka"] {
                var book = Book(id: nil, title: title, pages: 100, isbn: nil)
                try book.save(db)
            }
            for name in ["classic", "scifi", "poetry"] {
                var tag = Tag(id: nil, name: name)
                try tag.save(db)
            }
            // Inserted out of position order: the load sorts by the pivot association's order.
            for (book, tag, position) in [(1, 2, 2), (1, 1, 1), (2, 1, 2), (2, 1, 1), (2, 99, 3)]
                as [(Int64, Int64, Int)]
            {
                var pivot = BookTag(
                    id: nil, bookId: book, tagId: tag, position: position, pinned: book == 1 && tag == 2)
                try pivot.save(db)
            }
        }
    }

    private static let classic = Tag(id: 1, name: "classic")
    private static let scifi = Tag(id: 2, name: "scifi")

    func testEagerLoadGivesEachPivotRowsTargetInPivotOrder() {
        onEachEngine { engine in
            try makeBooks(engine)
            let loaded = try engine.write { db in
                try Book.order(Column("id").ascending).including(all: Self.tags).fetch(db, as: BookWithTags.self)
            }
            XCTAssertEqual(loaded.map(\.book.title), ["Dune", "Emma", "Kafka"])
            // Emma's two pivot rows to classic give it twice; its pivot row to tag 99 gives nothing.
            XCTAssertEqual(loaded.map(\.tags), [[Self.classic, Self.scifi], [Self.classic, Self.classic], []])
        }
    }

    func testTheAssociationsOwnFilterOrderAndLimit() {
        onEachEngine { engine in
            try makeBooks(engine)
            try engine.write { db in
                let byName = try Book.order(Column("id").ascending)
                    .including(all: Self.tags.order(Column("name").descending)).fetchGroups(db)
                XCTAssertEqual(byName.map { $0.1.map(\.name) }, [["scifi", "classic"], ["classic", "classic"], []])
                let first = try Book.order(Column("id").ascending).including(all: Self.tags.limit(1)).fetchGroups(db)
                XCTAssertEqual(first.map { $0.1.map(\.name) }, [["classic"], ["classic"], []])
                let notClassic = try Book.order(Column("id").ascending)
                    .including(all: Self.tags.filter(Column("name") != "classic")).fetchGroups(db)
                XCTAssertEqual(notClassic.map { $0.1.map(\.name) }, [["scifi"], [], []])
                let filteredBooks = try Book.filter(Column("title") != "Dune").order(Column("title").descending)
                    .including(all: Self.tags).fetchGroups(db)
                XCTAssertEqual(filteredBooks.map(\.0.title), ["Kafka", "Emma"])
                XCTAssertEqual(filteredBooks.map { $0.1.map(\.name) }, [[], ["classic", "classic"]])
            }
        }
    }

    func testEagerLoadThroughTheWriter() async {
        await onEachEngine { engine in
            try makeBooks(engine)
            let loaded = try await Book.order(Column("title").descending).including(all: Self.tags)
                .fetch(engine.writer, as: BookWithTags.self)
            XCTAssertEqual(loaded.map(\.book.title), ["Kafka", "Emma", "Dune"])
            XCTAssertEqual(loaded.map { $0.tags.map(\.name) }, [[], ["classic", "classic"], ["classic", "scifi"]])
            let groups = try await Book.filter(Column("id") == 1).including(all: Self.tags).fetchGroups(engine.writer)
            XCTAssertEqual(groups.map { $0.1.map(\.name) }, [["classic", "scifi"]])
        }
    }

    /// 603 books: more keys than a statement lists one by one (512), so SQLite binds them as a JSON array and
    /// PostgreSQL as one array.
    func testEagerLoadRunsOneQueryPerLevelWhateverTheNumberOfBooks() {
        onEachEngine { engine in
            try makeBooks(engine)
            try engine.write { db in
                for title in (1...600).map({ "Extra \($0)" }) {
                    var book = Book(id: nil, title: title, pages: 1, isbn: nil)
                    try book.save(db)
                    var pivot = BookTag(id: nil, bookId: book.id, tagId: 3, position: 1)
                    try pivot.save(db)
                }
            }
            let tables = ["books", "book_tags", "tags"]
            // The first run reads the schema; the second runs the load's own statements.
            _ = try engine.countingSelects(on: tables) { db in
                try Book.including(all: Self.tags).fetch(db, as: BookWithTags.self)
            }
            let (loaded, selects) = try engine.countingSelects(on: tables) { db in
                try Book.including(all: Self.tags).fetch(db, as: BookWithTags.self)
            }
            XCTAssertEqual(loaded.count, 603)
            XCTAssertEqual(loaded.filter { $0.tags.map(\.name) == ["poetry"] }.count, 600)
            XCTAssertEqual(selects, 3)
            // No book: one query, none for pivots or tags.
            let (none, noneSelects) = try engine.countingSelects(on: tables) { db in
                try Book.filter(Column("id") < 0).including(all: Self.tags).fetch(db, as: BookWithTags.self)
            }
            XCTAssertEqual(none, [])
            XCTAssertEqual(noneSelects, 1)
        }
    }

    func testBooksFilteredByTheirTags() {
        onEachEngine { engine in
            try makeBooks(engine)
            try engine.write { db in
                let scifi = try Book.filter(Self.tags.filter(Column("name") == "scifi").exists).fetch(db)
                XCTAssertEqual(scifi.map(\.title), ["Dune"])
                let classic = try Book.filter(Self.tags.filter(Column("name") == "classic").exists)
                    .filter(Column("pages") > 10).order(Column("title").ascending).fetch(db)
                XCTAssertEqual(classic.map(\.title), ["Dune", "Emma"])
                let untagged = try Book.filter(!Self.tags.exists).fetch(db)
                XCTAssertEqual(untagged.map(\.title), ["Kafka"])
                // A pivot filter and a target filter together, with values on both sides.
                let laterClassic = Book.hasMany(
                    Tag.self, through: Self.bookTags.filter(Column("position") >= 2), using: BookTag.tag)
                let found = try Book.filter(laterClassic.filter(Column("name") == "classic").exists)
                    .order(Column("id").ascending).fetch(db)
                XCTAssertEqual(found.map(\.title), ["Emma"])
                // A Bool compared in the subquery: PostgreSQL reads the bound text as the column's boolean.
                let pinned = Book.hasMany(
                    Tag.self, through: Self.bookTags.filter(Column("pinned") == true), using: BookTag.tag)
                XCTAssertEqual(try Book.filter(pinned.exists).fetch(db).map(\.title), ["Dune"])
                XCTAssertEqual(
                    try Book.filter(pinned.filter(Column("name") == "classic").exists).fetch(db).map(\.title), [])
            }
        }
    }

    /// A pivot to ``Placement``, whose key is two columns: a book shelved at a shelf and slot.
    struct Shelving: Record, Equatable, Sendable {
        var id: Int64?
        var bookId: Int64
        var shelf: Int64
        var slot: Int64
        static let tableName = "shelvings"
        enum CodingKeys: String, CodingKey {
            case id, shelf, slot
            case bookId = "book_id"
        }
    }

    func testAStepOverACompositeKey() {
        onEachEngine { engine in
            try makeBooks(engine)
            try engine.createTable(Placement.self)
            try engine.createTable(Shelving.self)
            try engine.write { db in
                for (shelf, slot, label) in [(1, 1, "A"), (1, 2, "B"), (2, 1, "C")] as [(Int64, Int64, String)] {
                    var placement = Placement(shelf: shelf, slot: slot, label: label)
                    try placement.insert(db)
                }
                for (book, shelf, slot) in [(1, 2, 1), (1, 1, 2), (2, 1, 1), (3, 9, 9)] as [(Int64, Int64, Int64)] {
                    var shelving = Shelving(id: nil, bookId: book, shelf: shelf, slot: slot)
                    try shelving.insert(db)
                }
            }
            let placements = Book.hasMany(
                Placement.self,
                through: Book.hasMany(Shelving.self, using: "book_id").order(Column("id").ascending),
                using: Shelving.belongsTo(Placement.self, using: ["shelf", "slot"]))
            try engine.write { db in
                let loaded = try Book.order(Column("id").ascending).including(all: placements).fetchGroups(db)
                XCTAssertEqual(loaded.map { $0.1.map(\.label) }, [["C", "B"], ["A"], []])
                let onShelfTwo = try Book.filter(placements.filter(Column("shelf") == 2).exists).fetch(db)
                XCTAssertEqual(onShelfTwo.map(\.title), ["Dune"])
            }
        }
    }

    /// A pivot whose columns the convention does not guess (`owner`, `label`).
    struct Marker: Record, Equatable, Sendable {
        var id: Int64?
        var owner: Int64
        var label: Int64
        static let tableName = "markers"
    }

    func testAForeignKeyTheConventionDoesNotGuessSaysUsing() {
        onEachEngine { engine in
            try makeBooks(engine)
            try engine.createTable(Marker.self)
            try engine.execute("INSERT INTO markers (owner, label) VALUES (1, 2)")
            let guessed = Book.hasMany(Tag.self, through: Book.hasMany(Marker.self), using: Marker.belongsTo(Tag.self))
            let thrown = error {
                _ = try engine.write { db in try Book.including(all: guessed).fetch(db, as: BookWithTags.self) }
            }
            XCTAssertEqual(
                thrown as? RecordError,
                RecordError.invalidAssociation(
                    association: "Book.hasMany(Marker) \"markers\": \"markers\".\"book_id\" -> \"books\".\"id\"",
                    reason:
                        "table \"markers\" has no column \"book_id\"; its columns are: \"id\", \"owner\", \"label\" "
                        + "(name the foreign key with `using:`)"))
            // With the pivot's column named, the target's guess (`tag_id`) is the one the pivot lacks.
            let half = Book.hasMany(
                Tag.self, through: Book.hasMany(Marker.self, using: "owner"), using: Marker.belongsTo(Tag.self))
            let target = error {
                _ = try engine.write { db in try Book.including(all: half).fetch(db, as: BookWithTags.self) }
            }
            guard case .invalidAssociation(let association, let reason)? = target as? RecordError else {
                return XCTFail("expected invalidAssociation, got \(String(describing: target))")
            }
            XCTAssertEqual(association, "Marker.belongsTo(Tag) \"tag\": \"markers\".\"tag_id\" -> \"tags\".\"id\"")
            XCTAssertEqual(
                reason,
                "Marker encodes no \"tag_id\" column; it encodes \"id\", \"owner\", \"label\" (name the foreign key with `using:`)"
            )
            let named = Book.hasMany(
                Tag.self, through: Book.hasMany(Marker.self, using: "owner"),
                using: Marker.belongsTo(Tag.self, using: "label"))
            let loaded = try engine.write { db in
                try Book.order(Column("id").ascending).including(all: named).fetchGroups(db)
            }
            XCTAssertEqual(loaded.map { $0.1.map(\.name) }, [["scifi"], [], []])
        }
    }

    /// A pivot type whose table is chosen while the program runs, so that two associations declared at
    /// different moments name different tables.
    struct Pile: Record, Equatable, Sendable {
        var id: Int64?
        var bookId: Int64?
        var tagId: Int64?
        nonisolated(unsafe) static var current = "piles_a"
        static var tableName: String { current }
        enum CodingKeys: String, CodingKey {
            case id
            case bookId = "book_id"
            case tagId = "tag_id"
        }
    }

    func testStepsThatDoNotChainAreAnErrorNamingBothTypesAndTables() {
        onEachEngine { engine in
            try makeBooks(engine)
            Pile.current = "piles_a"
            let toPiles = Book.hasMany(Pile.self, using: "book_id")
            Pile.current = "piles_b"
            let fromPiles = Pile.belongsTo(Tag.self, using: "tag_id")
            Pile.current = "piles_a"
            let broken = Book.hasMany(Tag.self, through: toPiles, using: fromPiles)
            let expected = RecordError.invalidAssociation(
                association: "Book.hasMany(Tag) \"tags\" through Pile: \"books\" -> \"piles_a\" -> \"tags\"",
                reason: "the pivot association Book.hasMany(Pile) \"piles_a\" leads to Pile (table \"piles_a\"), but "
                    + "the target association Pile.belongsTo(Tag) \"tag\" starts from Pile (table \"piles_b\"): "
                    + "the target association must start from the table the pivot association leads to")
            let eager = error {
                _ = try engine.write { db in try Book.including(all: broken).fetch(db, as: BookWithTags.self) }
            }
            XCTAssertEqual(eager as? RecordError, expected)
            let filtered = error { _ = try engine.write { db in try Book.filter(broken.exists).fetch(db) } }
            XCTAssertEqual(filtered as? RecordError, expected)
        }
    }
}

extension ContractEngine {
    /// What `body` returns, run in a write transaction, with the number of SELECT statements it ran that name
    /// one of `tables`: SQLite's trace, or on PostgreSQL the executions of the session's prepared statements
    /// (`pg_prepared_statements`' plan counts, PostgreSQL 14 and later).
    func countingSelects<T>(on tables: [String], _ body: (any DatabaseConnection) throws -> T) throws -> (T, Int) {
        let quoted = tables.map { "\"\($0)\"" }
        if let sqlite = self as? SQLiteContractEngine {
            let log = StatementLog()
            return try sqlite.queue.write { db in
                db.trace { event in
                    if event.sql.hasPrefix("SELECT"), quoted.contains(where: event.sql.contains) {
                        log.append(event.sql)
                    }
                }
                defer { db.trace(nil) }
                let result = try body(db)
                return (result, log.count)
            }
        }
        let executions =
            "SELECT coalesce(sum(generic_plans + custom_plans), 0)::bigint FROM pg_prepared_statements "
            + "WHERE statement LIKE 'SELECT%' AND statement NOT LIKE '%pg_prepared_statements%' AND ("
            + quoted.map { "statement LIKE '%\($0)%'" }.joined(separator: " OR ") + ")"
        let before = try integer(executions) ?? 0
        let result = try write(body)
        return (result, Int((try integer(executions) ?? 0) - before))
    }
}

/// The statements a trace saw; the handler runs on the connection's thread.
final class StatementLog: @unchecked Sendable {
    // The lock guards `statements`.
    private let lock = NSLock()
    private var statements: [String] = []

    func append(_ sql: String) { lock.withLock { statements.append(sql) } }

    var count: Int { lock.withLock { statements.count } }
}
