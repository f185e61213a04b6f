import SQLiteRecord
import XCTest

private struct Article: Record, FullTextSearchable, Equatable {
    var id: Int64?
    var title: String
    var body: String
    var views: Int
    static let tableName = "articles"
    static let fullTextIndex = FullTextIndex(columns: ["title", "body"])
}

private struct StemmedArticle: Record, FullTextSearchable {
    var id: Int64?
    var title: String
    var body: String
    var views: Int
    static let tableName = "articles"
    static let fullTextIndex = FullTextIndex(columns: ["body"], tokenizer: .porter(), name: "articles_stemmed")
}

private struct Misdeclared: Record, FullTextSearchable {
    var id: Int64?
    var title: String
    static let tableName = "articles"
    static let fullTextIndex = FullTextIndex(columns: ["title", "summary"])
}

private struct Unindexed: Record, FullTextSearchable {
    var id: Int64?
    static let tableName = "articles"
    static let fullTextIndex = FullTextIndex(columns: [])
}

final class FullTextIndexTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("articles") { db in try Article.createTable(in: db) }
        migrator.registerFullTextIndex("index articles", for: Article.self)
        try migrator.migrate(queue)
        return queue
    }

    private func matches(_ db: Database, _ pattern: String, in table: String = "articles_fts") throws -> [Int64] {
        try db.fetchAll(
            Int64.self, sql: "SELECT rowid FROM \"\(table)\" WHERE \"\(table)\" MATCH ? ORDER BY rowid",
            arguments: [pattern])
    }

    func testCreateSQLDeclaresExternalContentTableAndTriggers() throws {
        XCTAssertEqual(
            try Article.createFullTextIndexSQL(),
            [
                "CREATE VIRTUAL TABLE \"articles_fts\" USING fts5(\"title\", \"body\", content='articles', "
                    + "content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')",
                "CREATE TRIGGER \"articles_fts_ai\" AFTER INSERT ON \"articles\" BEGIN INSERT INTO "
                    + "\"articles_fts\"(rowid, \"title\", \"body\") VALUES (new.rowid, new.\"title\", new.\"body\"); END",
                "CREATE TRIGGER \"articles_fts_ad\" AFTER DELETE ON \"articles\" BEGIN INSERT INTO "
                    + "\"articles_fts\"(\"articles_fts\", rowid, \"title\", \"body\") VALUES ('delete', old.rowid, "
                    + "old.\"title\", old.\"body\"); END",
                "CREATE TRIGGER \"articles_fts_au\" AFTER UPDATE ON \"articles\" BEGIN INSERT INTO "
                    + "\"articles_fts\"(\"articles_fts\", rowid, \"title\", \"body\") VALUES ('delete', old.rowid, "
                    + "old.\"title\", old.\"body\"); INSERT INTO \"articles_fts\"(rowid, \"title\", \"body\") VALUES "
                    + "(new.rowid, new.\"title\", new.\"body\"); END",
            ])
        XCTAssertEqual(Article.fullTextTableName, "articles_fts")
        XCTAssertEqual(StemmedArticle.fullTextTableName, "articles_stemmed")
        XCTAssertEqual(FullTextTokenizer.porter().arguments, "porter unicode61 remove_diacritics 2")
        XCTAssertEqual(FullTextTokenizer.unicode61(removeDiacritics: false).arguments, "unicode61 remove_diacritics 0")
        XCTAssertEqual(FullTextTokenizer.ascii.arguments, "ascii")
    }

    func testTriggersFollowInsertsUpdatesAndDeletes() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var first = Article(id: nil, title: "São Paulo", body: "Rain in the city", views: 1)
            var second = Article(id: nil, title: "Bogotá", body: "Mountains and rain", views: 2)
            try first.save(db)
            try second.save(db)
            XCTAssertEqual(try matches(db, "rain"), [1, 2])
            XCTAssertEqual(try matches(db, "sao"), [1])
            XCTAssertEqual(try matches(db, "bogota"), [2])
            second.body = "Mountains and sun"
            try second.save(db)
            XCTAssertEqual(try matches(db, "rain"), [1])
            XCTAssertEqual(try matches(db, "sun"), [2])
            try first.delete(db)
            XCTAssertEqual(try matches(db, "sao"), [])
            try db.execute(sql: "UPDATE articles SET id = 7 WHERE id = 2")
            XCTAssertEqual(try matches(db, "sun"), [7])
            try Article.checkFullTextIndex(db)
        }
    }

    func testCreatingIndexesRowsAlreadyInTheTable() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Article.createTable(in: db)
            var article = Article(id: nil, title: "Córdoba", body: "", views: 0)
            try article.save(db)
            try Article.createFullTextIndex(in: db)
            XCTAssertEqual(try matches(db, "cordoba"), [1])
        }
    }

    func testIntegrityCheckFindsAnIndexOutOfStepAndRebuildRepairsIt() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var article = Article(id: nil, title: "Lyon", body: "", views: 0)
            try article.save(db)
            try db.execute(sql: "DROP TRIGGER articles_fts_au")
            try db.execute(sql: "UPDATE articles SET title = 'Nantes'")
            XCTAssertThrowsError(try Article.checkFullTextIndex(db)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode.rawValue, 267)  // SQLITE_CORRUPT_VTAB
            }
            try Article.rebuildFullTextIndex(db)
            try Article.checkFullTextIndex(db)
            XCTAssertEqual(try matches(db, "nantes"), [1])
            XCTAssertEqual(try matches(db, "lyon"), [])
        }
    }

    func testPorterTokenizerMatchesOtherFormsOfAWord() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Article.createTable(in: db)
            try StemmedArticle.createFullTextIndex(in: db)
            var article = Article(id: nil, title: "", body: "The connection was running", views: 0)
            try article.save(db)
            XCTAssertEqual(try matches(db, "connected runs", in: "articles_stemmed"), [1])
        }
    }

    func testDropRemovesTheIndexAndItsTriggers() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try Article.dropFullTextIndex(in: db)
            XCTAssertEqual(
                try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE name LIKE 'articles_fts%'"), [])
            var article = Article(id: nil, title: "Lyon", body: "", views: 0)
            try article.save(db)
        }
    }

    func testBadDeclarationsAreThrownErrors() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Article.createTable(in: db)
            XCTAssertThrowsError(try Misdeclared.createFullTextIndex(in: db)) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .unknownColumn(table: "articles", column: "summary", columns: ["id", "title", "body", "views"]))
            }
            XCTAssertThrowsError(try Unindexed.createFullTextIndex(in: db)) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .invalidQuery(table: "articles", reason: "a full-text index needs at least one column"))
            }
            XCTAssertEqual(
                try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE name LIKE 'articles_fts%'"), [])
        }
    }
}
