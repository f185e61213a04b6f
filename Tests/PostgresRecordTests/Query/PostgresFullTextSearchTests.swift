#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// Search requests on PostgreSQL: the exact SQL, ranked results, excerpts, filters, and user text that is
/// never a syntax error; the same places as SQLiteRecord's `FullTextSearchRequestTests`.
final class PostgresFullTextSearchTests: PostgresTestCase {
    struct Place: Record, FullTextSearchable, Equatable, Sendable {
        var id: Int64?
        var name: String
        var country: String
        var population: Int
        var summary: String?
        static let tableName = "places"
        static let fullTextIndex = FullTextIndex(columns: ["name", "summary"])
    }

    static let places = [
        Place(id: nil, name: "São Paulo", country: "BR", population: 10_021_295, summary: "Largest city of Brazil"),
        Place(id: nil, name: "Bogotá", country: "CO", population: 7_674_366, summary: "Capital of Colombia"),
        Place(id: nil, name: "Córdoba", country: "AR", population: 1_428_214, summary: nil),
        Place(id: nil, name: "Córdoba", country: "ES", population: 328_428, summary: "Mosque and the old town"),
        Place(id: nil, name: "Córdoba", country: "MX", population: 186_623, summary: nil),
        Place(id: nil, name: "Priego de Córdoba", country: "ES", population: 22_585, summary: nil),
        Place(
            id: nil, name: "Near Islands", country: "US", population: 0,
            summary: "Islands near the end of the Aleutian chain, said to be \"remote\" - and AND-shaped"),
        Place(id: nil, name: "Zürich", country: "CH", population: 341_730, summary: nil),
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        var migrator = DatabaseMigrator<PostgresConnection>()
        migrator.registerMigration("places") { connection in try Place.createTable(in: connection) }
        migrator.registerFullTextIndex("index places", for: Place.self)
        try migrator.migrate(connection)
        var places = Self.places
        try Place.save(connection, &places)
    }

    private func names(_ request: QueryInterfaceRequest<Place>) throws -> [String] {
        try request.fetch(connection).map { $0.name + " " + $0.country }
    }

    private func sortedNames(_ request: QueryInterfaceRequest<Place>) throws -> [String] {
        try names(request).sorted()
    }

    func testSearchSQLReadsTheTextWithWebSearchToTsqueryAndRanksByTsRank() throws {
        let query = try Place.search("sao paulo").postgresSQL(connection, .select)
        XCTAssertEqual(
            query.sql,
            #"SELECT "places".* FROM "places" CROSS JOIN LATERAL (SELECT -ts_rank("places"."places_fts", "#
                + #"websearch_to_tsquery('postgresrecord_unaccent', $1), 1) AS "sqliterecord_rank") AS "#
                + #""sqliterecord_search" WHERE "places"."places_fts" @@ websearch_to_tsquery("#
                + #"'postgresrecord_unaccent', $1) ORDER BY "sqliterecord_search"."sqliterecord_rank""#)
        XCTAssertEqual(query.arguments.map { $0.bytes.map { String(decoding: $0, as: UTF8.self) } }, ["sao paulo"])

        let filtered = try Place.filter(Column("country") == "ES").matching(FTS5Pattern(matchingAllPrefixesIn: "cord"))
            .limit(5).postgresSQL(connection, .select)
        XCTAssertEqual(
            filtered.sql,
            #"SELECT "places".* FROM "places" CROSS JOIN LATERAL (SELECT -ts_rank("places"."places_fts", "#
                + #"to_tsquery('postgresrecord_unaccent', $1), 1) AS "sqliterecord_rank") AS "sqliterecord_search" "#
                + #"WHERE "places"."places_fts" @@ to_tsquery('postgresrecord_unaccent', $1) AND "country" = $2 "#
                + #"ORDER BY "sqliterecord_search"."sqliterecord_rank" LIMIT $3"#)
        XCTAssertEqual(
            filtered.arguments.prefix(2).map { $0.bytes.map { String(decoding: $0, as: UTF8.self) } }, ["'cord':*", "ES"])
    }

    func testMigrationAddsAGeneratedTsvectorColumnAndAGINIndex() throws {
        XCTAssertEqual(
            try Place.postgresCreateFullTextIndexSQL().suffix(2),
            [
                #"ALTER TABLE "places" ADD COLUMN "places_fts" tsvector GENERATED ALWAYS AS ("#
                    + #"to_tsvector('postgresrecord_unaccent'::regconfig, coalesce("name", '')) || "#
                    + #"to_tsvector('postgresrecord_unaccent'::regconfig, coalesce("summary", ''))) STORED"#,
                #"CREATE INDEX "places_fts_index" ON "places" USING GIN ("places_fts")"#,
            ])
        XCTAssertEqual(try text("SELECT places_fts::text FROM places WHERE name = 'Zürich'"), "'zurich':1")
        XCTAssertEqual(
            try text("SELECT indexdef FROM pg_indexes WHERE indexname = 'places_fts_index'"),
            "CREATE INDEX places_fts_index ON \(schema).places USING gin (places_fts)")
        // The server keeps the column in step with every write, the library's or not.
        try connection.execute("UPDATE places SET name = 'Genève' WHERE name = 'Zürich'")
        XCTAssertEqual(try names(Place.search("geneve")), ["Genève CH"])
        XCTAssertEqual(try names(Place.search("zurich")), [])
        XCTAssertEqual(try Place.deleteAll(connection, where: ["country": "CH"]), 1)
        XCTAssertEqual(try names(Place.search("geneve")), [])
        // Creating the index again on a second table reuses the extension and the configuration.
        try connection.execute("CREATE TABLE other_places (LIKE places INCLUDING DEFAULTS)")
        try connection.execute("ALTER TABLE other_places DROP COLUMN places_fts")
        try OtherPlace.createFullTextIndex(in: connection)
        XCTAssertEqual(try text("SELECT count(*)::text FROM pg_ts_config WHERE cfgname = 'postgresrecord_unaccent'"), "1")
        try Place.dropFullTextIndex(in: connection)
        XCTAssertEqual(try text("SELECT count(*)::text FROM pg_indexes WHERE indexname = 'places_fts_index'"), "0")
        var added = Place(id: nil, name: "Lyon", country: "FR", population: 522_969, summary: nil)
        try added.save(connection)
    }

    struct OtherPlace: Record, FullTextSearchable {
        var id: Int64?
        var name: String
        static let tableName = "other_places"
        static let fullTextIndex = FullTextIndex(columns: ["name"])
    }

    struct Misdeclared: Record, FullTextSearchable {
        var id: Int64?
        static let tableName = "places"
        static let fullTextIndex = FullTextIndex(columns: ["name", "missing"])
    }

    struct Trigram: Record, FullTextSearchable {
        var id: Int64?
        static let tableName = "places"
        static let fullTextIndex = FullTextIndex(columns: ["name"], tokenizer: .init(arguments: "trigram"))
    }

    func testBadDeclarationsAreThrownErrorsBeforeAnythingRuns() throws {
        XCTAssertThrowsError(try Misdeclared.createFullTextIndex(in: connection)) {
            XCTAssertEqual(
                $0 as? RecordError,
                .unknownColumn(
                    table: "places", column: "missing",
                    columns: ["id", "name", "country", "population", "summary", "places_fts"]))
        }
        XCTAssertThrowsError(try Trigram.createFullTextIndex(in: connection)) {
            XCTAssertEqual(
                $0 as? RecordError,
                .invalidQuery(
                    table: "places",
                    reason: "the full-text tokenizer 'trigram' has no PostgreSQL text search configuration: use "
                        + "unicode61 or porter"))
        }
        XCTAssertThrowsError(try Place.matching(FTS5Pattern(rawPattern: "cord*")).fetch(connection)) {
            XCTAssertEqual(
                $0 as? RecordError,
                .invalidQuery(
                    table: "places",
                    reason: "a raw FTS5 pattern is FTS5's syntax, which PostgreSQL does not read: use search(_:) or "
                        + "another FTS5Pattern initializer"))
        }
        XCTAssertThrowsError(try Place.search("bogota").fetchMatches(connection, excerpt: .highlight(Column("country")))) {
            XCTAssertEqual(
                $0 as? RecordError,
                .unknownColumn(table: "places_fts", column: "country", columns: ["name", "summary"]))
        }
        XCTAssertThrowsError(try Place.search("bogota").deleteAll(connection)) {
            XCTAssertEqual(
                $0 as? RecordError,
                .invalidQuery(
                    table: "places",
                    reason:
                        "a full-text search request cannot delete or update: fetch the records, or filter by their ids"))
        }
        XCTAssertEqual(try Place.all().count(connection), 8)
    }

    /// A search before the index exists says how to create it, before anything runs, on every search call.
    func testASearchWithoutTheIndexSaysHowToCreateIt() async throws {
        try Place.dropFullTextIndex(in: connection)
        let reason =
            "a search needs the full-text index of Place, the tsvector column \"places_fts\", which the table does "
            + "not have: create it with try Place.createFullTextIndex(in: connection), or in a DatabaseMigrator<PostgresConnection> with "
            + "migrator.registerFullTextIndex(\"...\", for: Place.self)"
        XCTAssertThrowsError(try Place.search("lima").fetch(connection)) {
            XCTAssertEqual($0 as? RecordError, .invalidQuery(table: "places", reason: reason))
        }
        XCTAssertThrowsError(try Place.search("lima").count(connection)) {
            XCTAssertEqual($0 as? RecordError, .invalidQuery(table: "places", reason: reason))
        }
        XCTAssertThrowsError(try Place.search("lima").fetchMatches(connection, excerpt: .highlight(Column("name")))) {
            XCTAssertEqual($0 as? RecordError, .invalidQuery(table: "places", reason: reason))
        }
        do {
            _ = try await Place.search("lima").fetch(pool)
            XCTFail("a search without its index ran")
        } catch {
            XCTAssertEqual(error as? RecordError, .invalidQuery(table: "places", reason: reason))
        }
        try Place.createFullTextIndex(in: connection)
        XCTAssertEqual(try names(Place.search("zurich")), ["Zürich CH"])
    }

    func testAccentsAreFoldedAndResultsRankedBestFirst() throws {
        XCTAssertEqual(try names(Place.search("sao paulo")), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("Sao Paulo")), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("zurich")), ["Zürich CH"])
        XCTAssertEqual(try names(Place.search("ZÜRICH")), ["Zürich CH"])
        XCTAssertEqual(try Place.search("BOGOTA").fetchOne(connection)?.population, 7_674_366)
        // ts_rank with normalization 1: the shorter rows first, as bm25 ranks them on SQLite; among equal
        // ranks, larger population first.
        XCTAssertEqual(
            try names(Place.search("cordoba").order(SQLExpression.fullTextRank, Column("population").descending)),
            ["Córdoba AR", "Córdoba MX", "Priego de Córdoba ES", "Córdoba ES"])
    }

    func testSearchCombinesWithFiltersOrderLimitCountAndExists() async throws {
        let spanish = Place.search("cordoba").filter(Column("country") == "ES")
        XCTAssertEqual(try names(spanish), ["Priego de Córdoba ES", "Córdoba ES"])
        XCTAssertEqual(
            try names(spanish.order(Column("population").ascending)), ["Priego de Córdoba ES", "Córdoba ES"])
        XCTAssertEqual(
            try names(Place.search("cordoba").order(Column("population").descending).limit(2, offset: 1)),
            ["Córdoba ES", "Córdoba MX"])
        XCTAssertEqual(try Place.search("cordoba").count(connection), 4)
        XCTAssertEqual(try spanish.count(connection), 2)
        XCTAssertTrue(try Place.search("colombia").exists(connection))
        XCTAssertFalse(try Place.search("lima").exists(connection))
        XCTAssertEqual(
            try Place.search("cordoba").select(Column("country")).order(Column("country").ascending).fetch(
                connection, as: String.self),
            ["AR", "ES", "ES", "MX"])
        XCTAssertEqual(
            try names(Place.search("mosque").matching(FTS5Pattern(matchingAllTokensIn: "capital"))), ["Bogotá CO"])
        XCTAssertEqual(try sortedNames(Place.matching(FTS5Pattern(matchingAnyTokenIn: "bogota - lima"))), ["Bogotá CO"])
        XCTAssertEqual(
            try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: "prieg cord"))), ["Priego de Córdoba ES"])
        XCTAssertEqual(try sortedNames(Place.matching(FTS5Pattern(matchingAllPrefixesIn: "zur"))), ["Zürich CH"])
        let pool = makePool()
        let found = try await Place.search("bogota").fetch(pool)
        XCTAssertEqual(found.map(\.name), ["Bogotá"])
    }

    func testHighlightAndSnippet() throws {
        let highlighted = try Place.search("sao paulo").fetchMatches(
            connection, excerpt: .highlight(Column("name"), open: "<b>", close: "</b>"))
        XCTAssertEqual(highlighted.map(\.excerpt), ["<b>São</b> <b>Paulo</b>"])
        XCTAssertEqual(highlighted.first?.record.population, 10_021_295)
        // Marks holding `"` and `,`, which ts_headline's options would otherwise read as syntax.
        let quoted = try Place.search("zurich").fetchMatches(
            connection, excerpt: .highlight(Column("name"), open: "<b class=\"x\">", close: ",</b>"))
        XCTAssertEqual(quoted.map(\.excerpt), ["<b class=\"x\">Zürich,</b>"])
        let snippets = try Place.search("aleutian").fetchMatches(
            connection, excerpt: .snippet(Column("summary"), open: "[", close: "]", ellipsis: "...", tokens: 4))
        // The same four words as FTS5's snippet; ts_headline marks no cut, so no ellipsis.
        XCTAssertEqual(snippets.map(\.excerpt), ["the [Aleutian] chain, said"])
        let unsummarized = try Place.search("priego").fetchMatches(connection, excerpt: .highlight(Column("summary")))
        XCTAssertEqual(unsummarized.map(\.excerpt), [""])
        XCTAssertThrowsError(try Place.all().fetchMatches(connection, excerpt: .highlight(Column("name")))) {
            XCTAssertEqual(
                $0 as? RecordError,
                .invalidQuery(table: "places", reason: "fetchMatches needs a full-text search: call matching(_:) first"))
        }
    }

    /// User text: websearch_to_tsquery reads quotes as a phrase, `or` as OR and `-word` as NOT, and any
    /// other text as words; nothing is a syntax error.
    func testUserTextIsNeverASyntaxError() throws {
        XCTAssertEqual(try names(Place.search("\"São")), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("paulo\"")), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("near")), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("NEAR AND")), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("\"remote\" -")), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("AND-shaped")), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("NEAR(")), ["Near Islands US"])
        XCTAssertEqual(try sortedNames(Place.search("AND")), ["Córdoba ES", "Near Islands US"])
        // Web-search syntax: a quoted phrase, `or`, `-word`.
        XCTAssertEqual(try sortedNames(Place.search("bogota or zurich")), ["Bogotá CO", "Zürich CH"])
        XCTAssertEqual(try sortedNames(Place.search("cordoba -priego")), ["Córdoba AR", "Córdoba ES", "Córdoba MX"])
        XCTAssertEqual(try names(Place.search("\"old town\"")), ["Córdoba ES"])
        XCTAssertEqual(try names(Place.search("\"town old\"")), [])
        XCTAssertEqual(try names(Place.search("(cordoba) (priego")), ["Priego de Córdoba ES"])
        // `and` is a word, as on SQLite: no place has "and" beside Córdoba and Priego.
        XCTAssertEqual(try names(Place.search("(cordoba) AND (priego")), [])
        for text in ["", "   ", "-", "*", "\"", "'", "''", "OR", "or", "NOT", "(", ")", "^", ":", "name:", "\\", "&|!<->"] {
            XCTAssertEqual(try names(Place.search(text)), [], text)
            XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: text))), [], text)
            XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: text))), [], text)
        }
        XCTAssertEqual(try Place.search("").count(connection), 0)
        // Quotes and to_tsquery operators inside a word are text of the lexeme.
        XCTAssertEqual(
            try sortedNames(Place.matching(FTS5Pattern(matchingAnyTokenIn: "it's a\\b c:* !d zurich|"))), ["Zürich CH"])
        // U+0000, which PostgreSQL's text cannot hold, separates words.
        XCTAssertEqual(try names(Place.search("são\u{0}paulo")), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllTokensIn: "são\u{0}paulo"))), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("\u{0}")), [])
    }

    func testLongAndRepeatedTextBuildsABoundedQuery() throws {
        // 100 KB of one repeated word and of distinct words: the same rows as the text's first words.
        let repeated = String(repeating: "córdoba CÓRDOBA ", count: 6_250)
        XCTAssertEqual(repeated.utf8.count, 112_500)
        XCTAssertEqual(try sortedNames(Place.search(repeated)), ["Córdoba AR", "Córdoba ES", "Córdoba MX", "Priego de Córdoba ES"])
        XCTAssertEqual(FTS5Pattern.boundedSearchText(repeated).split(separator: " ").count, 64)
        let words = (0..<20_000).map { "w\($0)" }.joined(separator: " ")
        XCTAssertGreaterThan(words.utf8.count, 100_000)
        XCTAssertEqual(try names(Place.search(words)), [])
        XCTAssertEqual(try names(Place.search("bogota " + words)), [])
        XCTAssertEqual(try names(Place.search("bogota " + String(repeating: "-lima ", count: 20_000))), ["Bogotá CO"])
        XCTAssertEqual(FTS5Pattern.boundedSearchText(words), (0..<16).map { "w\($0)" }.joined(separator: " "))
        let hostile = String(repeating: "\"(or - ' \\ \u{0}", count: 10_000)
        XCTAssertEqual(try names(Place.search(hostile)), [])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: hostile + " zurich"))), ["Zürich CH"])
        // A word of 1,000,000 characters is cut to 64: a word of its own to websearch_to_tsquery, a prefix to
        // the FTS5Pattern initializers, as on SQLite.
        let long = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(FTS5Pattern.boundedSearchText(long), String(repeating: "x", count: 64))
        XCTAssertEqual(try names(Place.search(long)), [])
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: long).tsquery, "'" + String(repeating: "x", count: 64) + "':*")
    }
}
#endif
