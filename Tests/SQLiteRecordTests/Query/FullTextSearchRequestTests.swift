import Foundation
import XCTest

@testable import SQLiteRecord

private struct Place: Record, FullTextSearchable, Equatable {
    var id: Int64?
    var name: String
    var country: String
    var population: Int
    var summary: String?
    static let tableName = "places"
    static let fullTextIndex = FullTextIndex(columns: ["name", "summary"])
}

/// Search requests: exact SQL and arguments, ranked results, excerpts, and user text that is never FTS5
/// syntax.
final class FullTextSearchRequestTests: XCTestCase {
    private static let places = [
        Place(id: nil, name: "São Paulo", country: "BR", population: 10_021_295, summary: "Largest city of Brazil"),
        Place(id: nil, name: "Bogotá", country: "CO", population: 7_674_366, summary: "Capital of Colombia"),
        Place(id: nil, name: "Córdoba", country: "AR", population: 1_428_214, summary: nil),
        Place(id: nil, name: "Córdoba", country: "ES", population: 328_428, summary: "Mosque and the old town"),
        Place(id: nil, name: "Córdoba", country: "MX", population: 186_623, summary: nil),
        Place(id: nil, name: "Priego de Córdoba", country: "ES", population: 22_585, summary: nil),
        Place(
            id: nil, name: "Near Islands", country: "US", population: 0,
            summary: "Islands near the end of the Aleutian chain, said to be \"remote\" - and AND-shaped"),
    ]

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try Place.createTable(in: db)
        try Place.createFullTextIndex(in: db)
        for var place in Self.places { try place.insert(db) }
        return db
    }

    private func names(_ request: QueryInterfaceRequest<Place>, _ db: Database) throws -> [String] {
        try request.fetch(db).map { $0.name + " " + $0.country }
    }

    func testSearchSQLJoinsTheRankedMatchesByRowID() throws {
        let db = try makeDatabase()
        let query = try Place.search("sao paulo").compiled(db, .select)
        XCTAssertEqual(
            query.sql,
            "SELECT \"places\".* FROM \"places\" JOIN (SELECT rowid AS \"sqliterecord_rowid\", rank AS "
                + "\"sqliterecord_rank\" FROM \"places_fts\" WHERE \"places_fts\" MATCH ?) AS \"sqliterecord_search\" "
                + "ON \"places\".rowid = \"sqliterecord_search\".\"sqliterecord_rowid\" "
                + "ORDER BY \"sqliterecord_search\".\"sqliterecord_rank\"")
        XCTAssertEqual(query.arguments.values, [.text("\"sao\" \"paulo\"")])

        let filtered = try Place.filter(Column("country") == "ES").search("cordoba").limit(5).compiled(db, .select)
        XCTAssertEqual(
            filtered.sql,
            "SELECT \"places\".* FROM \"places\" JOIN (SELECT rowid AS \"sqliterecord_rowid\", rank AS "
                + "\"sqliterecord_rank\" FROM \"places_fts\" WHERE \"places_fts\" MATCH ?) AS \"sqliterecord_search\" "
                + "ON \"places\".rowid = \"sqliterecord_search\".\"sqliterecord_rowid\" WHERE \"country\" = ? "
                + "ORDER BY \"sqliterecord_search\".\"sqliterecord_rank\" LIMIT ?")
        XCTAssertEqual(filtered.arguments.values, [.text("\"cordoba\""), .text("ES"), .integer(5)])

        XCTAssertEqual(
            try Place.search("cordoba").compiled(db, .count).sql,
            "SELECT count(*) FROM (SELECT \"places\".* FROM \"places\" JOIN (SELECT rowid AS \"sqliterecord_rowid\", "
                + "rank AS \"sqliterecord_rank\" FROM \"places_fts\" WHERE \"places_fts\" MATCH ?) AS "
                + "\"sqliterecord_search\" ON \"places\".rowid = \"sqliterecord_search\".\"sqliterecord_rowid\")")
    }

    func testAccentsAreFoldedAndResultsRankedByBM25() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try names(Place.search("sao paulo"), db), ["São Paulo BR"])
        XCTAssertEqual(try Place.search("BOGOTA").fetchOne(db)?.population, 7_674_366)
        // FTS5's bm25 weighs a match by the length of the whole row (every indexed column): the shortest
        // rows first, Córdoba ES last for its summary; among equal ranks, larger population first.
        XCTAssertEqual(
            try names(Place.search("cordoba").order(SQLExpression.fullTextRank, Column("population").descending), db),
            ["Córdoba AR", "Córdoba MX", "Priego de Córdoba ES", "Córdoba ES"])
        let ranked = try names(Place.search("cordoba"), db)
        XCTAssertEqual(Array(ranked.suffix(2)), ["Priego de Córdoba ES", "Córdoba ES"])
        XCTAssertEqual(Set(ranked.prefix(2)), ["Córdoba AR", "Córdoba MX"])
    }

    func testSearchCombinesWithFiltersOrderLimitCountAndExists() throws {
        let db = try makeDatabase()
        let spanish = Place.search("cordoba").filter(Column("country") == "ES")
        XCTAssertEqual(try names(spanish, db), ["Priego de Córdoba ES", "Córdoba ES"])
        XCTAssertEqual(
            try names(spanish.order(Column("population").ascending), db), ["Priego de Córdoba ES", "Córdoba ES"])
        XCTAssertEqual(
            try names(Place.search("cordoba").order(Column("population").descending).limit(2, offset: 1), db),
            ["Córdoba ES", "Córdoba MX"])
        XCTAssertEqual(try Place.search("cordoba").count(db), 4)
        XCTAssertEqual(try spanish.count(db), 2)
        XCTAssertTrue(try Place.search("colombia").exists(db))
        XCTAssertFalse(try Place.search("lima").exists(db))
        XCTAssertEqual(
            try Place.search("cordoba").select(Column("country")).order(Column("country").ascending).fetch(
                db, as: String.self),
            ["AR", "ES", "ES", "MX"])
        // A search on a later column of the index, and the last matching() wins.
        XCTAssertEqual(
            try names(Place.search("mosque").matching(FTS5Pattern(matchingAllTokensIn: "capital")), db),
            ["Bogotá CO"])
    }

    func testHighlightAndSnippet() throws {
        let db = try makeDatabase()
        let highlighted = try Place.search("sao paulo").fetchMatches(
            db, excerpt: .highlight(Column("name"), open: "<b>", close: "</b>"))
        XCTAssertEqual(highlighted.map(\.excerpt), ["<b>São</b> <b>Paulo</b>"])
        XCTAssertEqual(highlighted.first?.record.population, 10_021_295)
        let snippets = try Place.search("aleutian").fetchMatches(
            db, excerpt: .snippet(Column("summary"), open: "[", close: "]", ellipsis: "...", tokens: 4))
        XCTAssertEqual(snippets.map(\.excerpt), ["...the [Aleutian] chain, said..."])
        // NULL text: an empty excerpt.
        let unsummarized = try Place.search("priego").fetchMatches(db, excerpt: .highlight(Column("summary")))
        XCTAssertEqual(unsummarized.map(\.excerpt), [""])
    }

    func testExcerptAndWriteMisuseAreThrownErrors() throws {
        let db = try makeDatabase()
        XCTAssertThrowsError(try Place.search("bogota").fetchMatches(db, excerpt: .highlight(Column("country")))) {
            XCTAssertEqual(
                $0 as? RecordError,
                .unknownColumn(table: "places_fts", column: "country", columns: ["name", "summary"]))
        }
        XCTAssertThrowsError(try Place.all().fetchMatches(db, excerpt: .highlight(Column("name")))) {
            XCTAssertEqual(
                $0 as? RecordError,
                .invalidQuery(table: "places", reason: "fetchMatches needs a full-text search: call matching(_:) first")
            )
        }
        XCTAssertThrowsError(try Place.search("bogota").deleteAll(db)) {
            XCTAssertEqual(
                $0 as? RecordError,
                .invalidQuery(
                    table: "places",
                    reason:
                        "a full-text search request cannot delete or update: fetch the records, or filter by their ids")
            )
        }
        XCTAssertEqual(try Place.all().count(db), 7)
    }

    func testUserTextIsNeverFTS5Syntax() throws {
        let db = try makeDatabase()
        XCTAssertEqual(try names(Place.search("\"São"), db), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("paulo\""), db), ["São Paulo BR"])
        XCTAssertEqual(try names(Place.search("near"), db), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("NEAR AND"), db), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("\"remote\" -"), db), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("AND-shaped"), db), ["Near Islands US"])
        XCTAssertEqual(try names(Place.search("NEAR("), db), ["Near Islands US"])
        XCTAssertEqual(
            try names(Place.search("AND").order(Column("name").ascending), db), ["Córdoba ES", "Near Islands US"])
        for text in ["", "   ", "-", "*", "\"", "OR", "NOT", "(", ")", "^", ":", "name:"] {
            XCTAssertEqual(try names(Place.search(text), db), [], text)
        }
        XCTAssertEqual(try Place.search("").count(db), 0)
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: "bogota - lima")), db), ["Bogotá CO"])
        XCTAssertEqual(
            try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: "prieg cord")), db), ["Priego de Córdoba ES"])
    }

    func testTenThousandWords() throws {
        let db = try makeDatabase()
        let words = (0..<10_000).map { "w\($0)" }.joined(separator: " ")
        XCTAssertEqual(try names(Place.search(words), db), [])
        XCTAssertEqual(
            try names(Place.search("cordoba " + String(repeating: "priego ", count: 10_000)), db),
            ["Priego de Córdoba ES"])
        // Words past FTS5Pattern.maximumWordCount are left out, so that user text bounds the query's cost.
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: words + " bogota")), db), [])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: "bogota " + words)), db), ["Bogotá CO"])
    }

    func testRawPatternsUseFTS5SyntaxAndReportItsErrors() throws {
        let db = try makeDatabase()
        XCTAssertEqual(
            try names(
                Place.matching(FTS5Pattern(rawPattern: "name: cord* NOT priego"))
                    .order(Column("population").descending), db), ["Córdoba AR", "Córdoba ES", "Córdoba MX"])
        XCTAssertThrowsError(try Place.matching(FTS5Pattern(rawPattern: "\"unbalanced")).fetch(db)) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "unterminated string")
        }
    }
}
