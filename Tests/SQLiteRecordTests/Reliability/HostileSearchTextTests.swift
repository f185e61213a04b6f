import Foundation
import SQLiteRecord
import XCTest

private struct Town: Record, FullTextSearchable, Equatable {
    var id: Int64?
    var name: String
    static let tableName = "towns"
    static let fullTextIndex = FullTextIndex(columns: ["name"])
}

/// User text in `search(_:)` and the `FTS5Pattern` initializers that read it: U+0000 is never an FTS5 syntax
/// error, and text that repeats a word or piles up words builds a query of at most
/// `FTS5Pattern.maximumWordCount` words of at most `FTS5Pattern.maximumWordLength` characters.
final class HostileSearchTextTests: XCTestCase {
    private func makeDatabase() throws -> Database {
        let db = try Database()
        try Town.createTable(in: db)
        try Town.createFullTextIndex(in: db)
        for name in ["São Paulo", "Córdoba", "Priego de Córdoba", "Paulo Afonso", String(repeating: "x", count: 100)]
        {
            var town = Town(id: nil, name: name)
            try town.insert(db)
        }
        return db
    }

    private func names(_ request: QueryInterfaceRequest<Town>, _ db: Database) throws -> [String] {
        try request.fetch(db).map(\.name).sorted()
    }

    func testNULInSearchTextSeparatesWordsAndIsNeverSyntax() throws {
        let db = try makeDatabase()
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: "são\u{0}paulo").rawPattern, "\"são\" \"paulo\"")
        XCTAssertEqual(try names(Town.search("são\u{0}paulo"), db), ["São Paulo"])
        XCTAssertEqual(try names(Town.search("paulo\u{0}"), db), ["Paulo Afonso", "São Paulo"])
        var cases = 0
        for text in ["\u{0}", "\u{0}\"", "\"\u{0}", "a\u{0}\"b", "\u{0}*", "córdoba\u{0}\u{0}de", "\u{0}NEAR(\u{0}"] {
            for pattern in [
                FTS5Pattern(matchingAllTokensIn: text), FTS5Pattern(matchingAnyTokenIn: text),
                FTS5Pattern(matchingAllPrefixesIn: text),
            ] {
                XCTAssertFalse(pattern.rawPattern.unicodeScalars.contains("\u{0}"), text.debugDescription)
                XCTAssertNoThrow(try Town.matching(pattern).fetch(db), text.debugDescription)
                cases += 1
            }
        }
        XCTAssertEqual(try names(Town.search("córdoba\u{0}\u{0}de"), db), ["Priego de Córdoba"])
        print("HostileSearchTextTests: \(cases) NUL patterns")
    }

    func testRepeatedAndPiledUpWordsBuildABoundedQuery() throws {
        continueAfterFailure = false
        let db = try makeDatabase()
        // 100,000 repeats (800 KB): one phrase, the same rows as the word once.
        let repeated = String(repeating: "córdoba CÓRDOBA ", count: 50_000)
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: repeated).rawPattern, "\"córdoba\"")
        XCTAssertEqual(try names(Town.search(repeated), db), ["Córdoba", "Priego de Córdoba"])
        // Forty distinct words: the first 16 are kept.
        let words = (0..<40).map { "w\($0)" }
        let piled = FTS5Pattern(matchingAnyTokenIn: words.joined(separator: " ") + " paulo").rawPattern
        XCTAssertEqual(piled, words.prefix(16).map { "\"\($0)\"" }.joined(separator: " OR "))
        XCTAssertEqual(FTS5Pattern.maximumWordCount, 16)
        // A word of 1,000,000 characters is cut to its first 64 and matched as a prefix: it still finds the
        // long token it starts. A word of punctuated letters (one token each) stays 64 characters too.
        let long = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: long).rawPattern, "\"" + String(repeating: "x", count: 64) + "\"*")
        XCTAssertEqual(try names(Town.search(long), db), [String(repeating: "x", count: 100)])
        let dotted = String(repeating: "a.", count: 500_000)
        XCTAssertEqual(FTS5Pattern(matchingAllTokensIn: dotted).rawPattern.count, 64 + 3)
        XCTAssertEqual(try names(Town.search(dotted), db), [])
    }

    /// Found by Tests/Fuzz/FullTextSearchFuzz: a quote followed by a combining mark is one Character, which
    /// compared unequal to `"`, so its quote was not doubled and the FTS5 string ended early ("fts5: syntax
    /// error near \"(\""). The fuzzer's input, then smaller cases of each quote the patterns double.
    func testAQuoteFollowedByACombiningMarkIsStillDoubled() throws {
        let db = try makeDatabase()
        let fuzzed: [UInt8] = [
            0x22, 0x71, 0x75, 0x6F, 0x74, 0x65, 0x27, 0x22, 0xE0, 0xBE, 0xB1, 0xBB, 0xDF, 0xAC, 0xB0, 0xB0, 0x28, 0x28,
            0x78, 0x72, 0x7A, 0x74, 0x65, 0x20, 0xCE, 0x2A,
        ]
        let text = String(decoding: fuzzed, as: UTF8.self)
        XCTAssertEqual(try names(Town.search(text), db), [])
        XCTAssertEqual(try names(Town.matching(FTS5Pattern(matchingAnyTokenIn: text)), db), [])
        XCTAssertEqual(
            FTS5Pattern(matchingAllTokensIn: "a\"\u{301}(b").rawPattern, "\"a\"\"\u{301}(b\"")
        XCTAssertEqual(
            FTS5Pattern(matchingAllPrefixesIn: "\"\u{0FB1}São").rawPattern, "\"\"\"\u{0FB1}São\"*")
        // The tokenizer reads the quote and the mark as separators: the words are "São" and "Paulo".
        XCTAssertEqual(try names(Town.search("\"\u{0FB1}São Paulo"), db), ["São Paulo"])
        XCTAssertEqual(try names(Town.search("são \"\u{301}"), db), ["São Paulo"])
        for text in ["\"\u{301}", "x\"\u{301}\"\u{301}y", "'\u{301}", "\\\u{301}", "\"\u{20DD}NEAR(a"] {
            for pattern in [
                FTS5Pattern(matchingAllTokensIn: text), FTS5Pattern(matchingAnyTokenIn: text),
                FTS5Pattern(matchingAllPrefixesIn: text),
            ] {
                XCTAssertNoThrow(try Town.matching(pattern).fetch(db), text.debugDescription)
            }
        }
    }
}
