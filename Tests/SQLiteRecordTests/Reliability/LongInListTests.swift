import Foundation
import SQLiteRecord
import XCTest

/// `in(_:)` and `notIn(_:)` with lists of 0 to 40,000 texts, some holding U+0000, pick exactly the rows
/// Swift's `Array.contains` picks on the stored strings, on both sides of the length where the list is
/// bound as JSON; and a delete by such a list deletes only those rows.
final class LongInListTests: XCTestCase {
    private struct Word: Record {
        var id: Int64?
        var text: String?
        static let tableName = "words"
    }

    static let lengths = [0, 1, 2, 3, 100, 511, 512, 513, 600, 1_000, 4_096, 10_000, 32_767, 40_000]

    /// Stored: "a", "a\0b", "a\0", "\0", "", and numbered words with and without U+0000, plus NULL.
    private static func storedTexts() -> [String] {
        var texts = ["a", "a\u{0}b", "a\u{0}", "\u{0}", "", "b", "\u{0}\u{0}", "1", "01"]
        for number in 0..<3_000 {
            texts.append(number % 3 == 0 ? "w\(number)\u{0}x" : "w\(number)")
        }
        return texts
    }

    private func makeDatabase(_ texts: [String]) throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE words (id INTEGER PRIMARY KEY, text TEXT)")
        try db.transaction {
            for (index, text) in texts.enumerated() {
                var word = Word(id: Int64(index + 1), text: text)
                try word.insert(db)
            }
            var none = Word(id: Int64(texts.count + 1), text: nil)
            try none.insert(db)
        }
        return db
    }

    /// A list of `count` texts: some stored, some stored but for what follows a U+0000 ("a\0b" where "a" is
    /// stored), some not stored at all.
    private static func list(_ count: Int, using generator: inout SeededGenerator) -> [String] {
        let pool = ["a\u{0}b", "a\u{0}c", "\u{0}", "b\u{0}", "1\u{0}", "", "a", "zz", "1"]
        return (0..<count).map { index in
            switch index % 4 {
            case 0: return pool[Int.random(in: 0..<pool.count, using: &generator)]
            case 1: return "w\(Int.random(in: 0..<3_000, using: &generator))"
            case 2: return "w\(Int.random(in: 0..<3_000, using: &generator))\u{0}x"
            default: return "w\(Int.random(in: 0..<3_000, using: &generator))\u{0}"
            }
        }
    }

    func testListsOfZeroToFortyThousandTextsPickWhatArrayContainsPicks() throws {
        let texts = Self.storedTexts()
        let db = try makeDatabase(texts)
        var generator = SeededGenerator(seed: ReliabilitySeed.make("SQLITE_RECORD_IN_SEED", suite: "LongInListTests"))
        var cases = 0
        for count in Self.lengths {
            let values = Self.list(count, using: &generator)
            // Array.contains, through a Set of the same strings (the same String equality) to keep it fast.
            let members = Set(values)
            let inList = texts.indices.filter { members.contains(texts[$0]) }.map { Int64($0 + 1) }
            var notInList = texts.indices.filter { !members.contains(texts[$0]) }.map { Int64($0 + 1) }
            // SQLite: `NULL NOT IN ()` is true, and NULL is out of no other list.
            if count == 0 { notInList.append(Int64(texts.count + 1)) }
            let picked = try Word.filter(Column("text").in(values)).order(Column("id")).fetch(db).compactMap(\.id)
            XCTAssertEqual(picked, inList, "in, \(count) values")
            let left = try Word.filter(Column("text").notIn(values)).order(Column("id")).fetch(db).compactMap(\.id)
            XCTAssertEqual(left, notInList, "notIn, \(count) values")
            XCTAssertEqual(try Word.filter(Column("text").in(values)).count(db), inList.count, "count, \(count) values")
            cases += 2
        }
        print("LongInListTests: \(cases) list cases, \(Self.lengths.count) lengths from 0 to 40,000 values")
    }

    func testADeleteByALongListDeletesOnlyItsRows() throws {
        let texts = Self.storedTexts()
        let db = try makeDatabase(texts)
        // 600 values, past the JSON threshold: "a\0b" and its like must not delete "a".
        let values = (0..<600).map { $0 % 2 == 0 ? "a\u{0}b" : "w\($0)\u{0}" }
        XCTAssertEqual(try Word.filter(Column("text").in(values)).deleteAll(db), 1)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM words WHERE text = ?", arguments: ["a\u{0}b"]), 0)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM words WHERE text = 'a'"), 1)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM words"), texts.count)
        XCTAssertEqual(try Word.filter(Column("text").notIn(values + ["a"])).deleteAll(db), texts.count - 2)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT text FROM words WHERE text IS NOT NULL"), ["a"])
    }
}
