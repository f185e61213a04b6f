import SQLiteRecord
import XCTest

/// The FTS5 queries built from user text: every word an FTS5 string, nothing of the user's text syntax.
final class FTS5PatternTests: XCTestCase {
    func testEachWordIsQuotedAsAnFTS5String() {
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: "sao paulo").rawPattern, "\"sao\" \"paulo\"")
        XCTAssertEqual(FTS5Pattern(matchingAnyTokenIn: "lyon  nantes\n").rawPattern, "\"lyon\" OR \"nantes\"")
        XCTAssertEqual(FTS5Pattern(matchingAllPrefixesIn: "sao pau").rawPattern, "\"sao\"* \"pau\"*")
    }

    func testOperatorsAndQuotesAreText() {
        XCTAssertEqual(
            FTS5Pattern(matchingAllTokensIn: "a NEAR b AND c OR d NOT e").rawPattern,
            "\"a\" \"NEAR\" \"b\" \"AND\" \"c\" \"OR\" \"d\" \"NOT\" \"e\"")
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: "\"São Paulo").rawPattern, "\"\"\"São\" \"Paulo\"")
        XCTAssertEqual(
            FTS5Pattern(matchingAllTokensIn: "title:x -y z* ^w").rawPattern, "\"title:x\" \"-y\" \"z*\" \"^w\"")
    }

    func testTextWithoutWordsIsTheEmptyPhrase() {
        for text in ["", "   ", "-", "*", "\"", "\"\"", "( ) - * ^ :"] {
            XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: text).rawPattern, "\"\"", text)
            XCTAssertEqual(FTS5Pattern(matchingAnyTokenIn: text).rawPattern, "\"\"", text)
        }
        XCTAssertEqual(FTS5Pattern(matchingAnyTokenIn: "lyon - nantes").rawPattern, "\"lyon\" OR \"nantes\"")
    }

    func testRawPatternIsKeptAsGiven() {
        XCTAssertEqual(FTS5Pattern(rawPattern: "name: cord* NEAR(a b)").rawPattern, "name: cord* NEAR(a b)")
    }
}
