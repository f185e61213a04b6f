#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// Full-text search on PostgreSQL fed hostile text: emoji, punctuation only, to_tsquery's operators and
/// quoting characters in every initializer, words longer than a lexeme may be, and a search on a type whose
/// index was never created.
final class PostgresHostileFullTextTests: PostgresTestCase {
    struct Place: Record, FullTextSearchable, Equatable, Sendable {
        var id: Int64?
        var name: String
        var summary: String?
        static let tableName = "places"
        static let fullTextIndex = FullTextIndex(columns: ["name", "summary"])
    }

    struct Unindexed: Record, FullTextSearchable, Equatable, Sendable {
        var id: Int64?
        var name: String
        static let tableName = "unindexed"
        static let fullTextIndex = FullTextIndex(columns: ["name"])
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Place.createTable(in: connection)
        try Place.createFullTextIndex(in: connection)
        var places = [
            Place(id: nil, name: "São Paulo", summary: "🎉 party city"),
            Place(id: nil, name: "it's a\\b", summary: "c:* d&e f|g !h (i)"),
            Place(id: nil, name: "Zürich", summary: nil),
        ]
        try Place.save(connection, &places)
    }

    private func names(_ request: QueryInterfaceRequest<Place>) throws -> [String] {
        try request.order(Column("id")).fetch(connection).map(\.name)
    }

    func testEmojiPunctuationAndOperatorsAreTextInEverySearch() throws {
        let patterns: [(String) -> FTS5Pattern] = [
            FTS5Pattern.init(matchingAllTokensIn:), FTS5Pattern.init(matchingAnyTokenIn:),
            FTS5Pattern.init(matchingAllPrefixesIn:),
        ]
        for text in ["🎉🎉 🎉", "!!!", "...", "&|!()", ":*", "'", "''", "\\", "\\'", "'\\", "<->", "<2>", "!(", "—"] {
            XCTAssertEqual(try names(Place.search(text)), [], text)
            for pattern in patterns { XCTAssertEqual(try names(Place.matching(pattern(text))), [], text) }
        }
        // Beyond ASCII every character is a letter to PostgreSQL's parser in a C-locale database: an emoji is a
        // word to `search(_:)`, and nothing to the initializers, which keep words with a letter or a digit.
        XCTAssertEqual(try names(Place.search("🎉")), ["São Paulo"])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: "🎉"))), [])
        XCTAssertEqual(try names(Place.search("party")), ["São Paulo"])
        XCTAssertEqual(try names(Place.search("🎉 party")), ["São Paulo"])
        for text in ["it's", "IT'S a\\b", "d&e", "f|g", "!h", "(i)"] {
            XCTAssertEqual(try names(Place.search(text)), ["it's a\\b"], text)
            for pattern in patterns { XCTAssertEqual(try names(Place.matching(pattern(text))), ["it's a\\b"], text) }
        }
        XCTAssertEqual(try names(Place.search("c:*")), ["it's a\\b"])
        // `:*` in a word is text to the initializers; only the prefix pattern's own `:*` makes a prefix.
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllTokensIn: "c:*"))), ["it's a\\b"])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: "c:*"))), ["it's a\\b"])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: "c:*"))), ["São Paulo", "it's a\\b"])
        // A quote in a word is text of its lexeme, never the end of one: `&` and `|` stay words of no letter.
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: "zurich' & 'sao"))), ["São Paulo", "Zürich"])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllTokensIn: "zurich' & 'sao"))), [])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: "zü' | 'sã"))), [])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: "zü"))), ["Zürich"])
    }

    func testARunOfDashesIsNoDeeperThanTsquerysStack() throws {
        // websearch_to_tsquery reads each `-` before an operand as a NOT, and its parser holds at most 32
        // pending operators: 33 dashes were "tsquery stack too small" (SQLSTATE 54000) before the bound.
        let dashes = String(repeating: "-", count: 40)
        XCTAssertEqual(try names(Place.search(dashes)), [])
        XCTAssertEqual(try names(Place.search(dashes + "zurich")), ["Zürich"])
        XCTAssertEqual(try names(Place.search(String(repeating: "- ", count: 40) + "zurich")), ["Zürich"])
        // An odd run is a NOT, an even one none, past the bound as within it.
        XCTAssertEqual(try names(Place.search("sao " + String(repeating: "-", count: 33) + "zurich")), ["São Paulo"])
        XCTAssertEqual(try names(Place.search("sao " + String(repeating: "- ", count: 34) + "paulo")), ["São Paulo"])
        XCTAssertEqual(try names(Place.search("sao " + String(repeating: "-", count: 35) + "paulo")), [])
        XCTAssertEqual(try names(Place.search("zurich -sao")), ["Zürich"])
        XCTAssertEqual(FTS5Pattern.boundedSearchText(dashes + "x"), String(repeating: "-", count: 16) + "x")
        XCTAssertEqual(FTS5Pattern.boundedSearchText("-" + dashes + "x"), String(repeating: "-", count: 17) + "x")
        XCTAssertEqual(FTS5Pattern.boundedSearchText("a--b --c"), "a--b --c")
    }

    struct Overlong: Record, FullTextSearchable, Equatable, Sendable {
        var id: Int64?
        var name: String
        static let tableName = String(repeating: "p", count: 70)
        static let fullTextIndex = FullTextIndex(columns: ["name"])
    }

    func testATableNameOverPostgreSQLs63BytesIsRefusedWithItsIndex() throws {
        // The server would cut the table's name to 63 bytes, which another table's could share: the table
        // and its index are refused before anything runs.
        let refused = RecordError.identifierTooLong(
            table: Overlong.tableName, identifier: Overlong.tableName, bytes: 70, limit: 63)
        XCTAssertThrowsError(try Overlong.createTable(in: connection)) { XCTAssertEqual($0 as? RecordError, refused) }
        XCTAssertThrowsError(try Overlong.createFullTextIndex(in: connection)) {
            XCTAssertEqual($0 as? RecordError, refused)
        }
        let tables = try connection.query("SELECT count(*)::int8 FROM pg_tables WHERE tablename LIKE 'ppp%'")
        XCTAssertEqual(try tables[0].decode(Int.self, at: 0), 0)
    }

    func testHighlightMarkersWithQuotesCommasAndEqualSignsAreWrittenAsGiven() throws {
        for (open, close) in [("\"", "\""), ("<b class=\"x\">", "</b>"), (",", ";"), ("a, StopSel=x", "="), ("''", "\\"), ("", "")] {
            let matches = try Place.search("zurich").fetchMatches(connection, excerpt: .highlight(Column("name"), open: open, close: close))
            XCTAssertEqual(matches.map(\.excerpt), [open + "Zürich" + close], open)
        }
    }

    func testRandomTextOfOperatorsAndWordsIsNeverAnError() throws {
        // A fixed sequence (a linear congruential generator), so that a failure names its text.
        // Dashes weigh most, so that runs past the parser's 32 pending operators come up.
        let pieces = ["-----", "- - ", "-", " ", "'", "\"", "or", "OR", "a", "(", ")", ":", "*", "!", "&", "|", "\\", "é", "—", "\u{0}", "<->"]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<300 {
            let text = (0..<(1 + next(200))).map { _ in pieces[next(pieces.count)] }.joined()
            XCTAssertNoThrow(try Place.search(text).fetch(connection), text)
            XCTAssertNoThrow(try Place.search(text + " zurich").fetch(connection), text)
        }
    }

    func testAMegabyteOfPunctuationAndAWordBeyondALexemesLengthRunAsNoQuery() throws {
        // 30,000 operands with no lexeme (`'`, `"`, `:`) were "stack depth limit exceeded" (54001) before the
        // bound: a run of punctuation counts towards the 64 words in all, so a word after a megabyte of it is
        // past the end.
        let punctuation = String(repeating: "- ! ( ) ' \" : * & | ", count: 50_001)
        XCTAssertGreaterThan(punctuation.utf8.count, 1_000_000)
        XCTAssertEqual(try names(Place.search(punctuation)), [])
        XCTAssertEqual(try names(Place.search(String(repeating: "' ", count: 30_000))), [])
        XCTAssertEqual(try names(Place.search("zurich " + punctuation)), ["Zürich"])
        XCTAssertEqual(try names(Place.search(punctuation + " zurich")), [])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAnyTokenIn: punctuation + " zurich"))), ["Zürich"])
        // One character of 3,001 scalars (a letter and its combining marks) is one word of 6 KB, longer than
        // the 2,047 bytes of a lexeme: PostgreSQL drops it, from the index and from the query alike.
        let heavy = "a" + String(repeating: "\u{301}", count: 3_000)
        XCTAssertEqual(heavy.count, 1)
        XCTAssertEqual(try names(Place.search(heavy)), [])
        XCTAssertEqual(try names(Place.matching(FTS5Pattern(matchingAllPrefixesIn: heavy))), [])
        var place = Place(id: nil, name: heavy + " Lima", summary: nil)
        try place.save(connection)
        XCTAssertEqual(try names(Place.search("lima")), [place.name])
    }
}
#endif
