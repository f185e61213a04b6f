import CSQLiteRecord
import Foundation
import SQLiteRecord
import XCTest

/// `hasPrefix`, `contains` and `hasSuffix` pick exactly the rows Swift's own `hasPrefix`, `contains` and
/// `hasSuffix` pick on the stored strings (ASCII letters in either case, as the matchers promise), for search
/// and stored text that holds U+0000, text with LIKE's wildcards, and search text longer than LIKE's
/// pattern limit; and a delete by such a filter deletes only those rows.
final class TextMatcherTests: XCTestCase {
    private struct Note: Record, Equatable {
        var id: Int64?
        var body: String?
        static let tableName = "notes"
    }

    /// Stored bodies: U+0000 first, inside, last and doubled, case variants, wildcards, non-ASCII, empty.
    static let stored: [String] = [
        "", "\u{0}", "\u{0}\u{0}", "a", "A", "abc", "ABC", "aBc\u{0}", "\u{0}abc", "ab\u{0}cd", "AB\u{0}CD",
        "ab\u{0}", "\u{0}cd", "cd\u{0}ab", "zzz", "x\u{0}zzz", "\u{0}zzz", "zzz\u{0}", "100%", "100\u{0}%", "a_b",
        "a\\b", "a%\u{0}_b", "Ça va", "ça\u{0}va", "São Paulo", "são\u{0}paulo", "日本\u{0}語", "日本語", "Ab\u{0}cD\u{0}eF",
        "\u{1}\u{0}\u{1}", "line\nbreak\u{0}tab\t",
    ]

    /// Search text: each kind above, and pieces of the stored texts.
    static let needles: [String] = {
        var needles: Set<String> = [
            "\u{0}", "\u{0}\u{0}", "\u{0}zzz", "zzz\u{0}", "\u{0}a", "b\u{0}c", "B\u{0}C", "AB\u{0}", "%", "\u{0}%",
            "_", "\\", "%\u{0}_", "ç", "Ç", "語", "本\u{0}語", "\u{0}va", "\u{0}PAULO", "\u{1}\u{0}", "\t", "",
        ]
        for text in stored {
            let scalars = Array(text.unicodeScalars)
            for start in 0..<scalars.count {
                for end in (start + 1)...scalars.count {
                    var piece = String.UnicodeScalarView()
                    piece.append(contentsOf: scalars[start..<end])
                    needles.insert(String(piece))
                }
            }
        }
        return needles.sorted()
    }()

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        for (index, body) in Self.stored.enumerated() {
            var note = Note(id: Int64(index + 1), body: body)
            try note.insert(db)
        }
        var empty = Note(id: Int64(Self.stored.count + 1), body: nil)
        try empty.insert(db)
        // Stored whole: the table holds every U+0000.
        let lengths = try db.fetchAll(Int.self, sql: "SELECT length(CAST(body AS BLOB)) FROM notes WHERE body IS NOT NULL ORDER BY id")
        XCTAssertEqual(lengths, Self.stored.map(\.utf8.count))
        return db
    }

    /// Swift's answer: `starts(with:)`, `firstRange(of:)` and a reversed `starts(with:)` on the UTF-8 of the
    /// stored strings, with the 26 ASCII letters folded to lower case on both sides. On these strings (no
    /// combining marks, no CR LF) that is what `String`'s `hasPrefix`, `contains` and `hasSuffix` answer
    /// character by character; Foundation's `contains`, which Linux reads as a C string, stops at U+0000.
    /// With `caseInsensitive`, Swift's answer on both texts after Unicode full case folding, which the
    /// case-insensitive matchers promise.
    private static func swiftAnswer(_ matcher: Int, stored: String, needle: String, caseInsensitive: Bool) -> Bool {
        let body = folded(caseInsensitive ? stored.folding(options: .caseInsensitive, locale: nil) : stored)
        let text = folded(caseInsensitive ? needle.folding(options: .caseInsensitive, locale: nil) : needle)
        switch matcher {
        case 0: return body.starts(with: text)
        case 1: return text.isEmpty || body.firstRange(of: text) != nil
        default: return body.reversed().starts(with: text.reversed())
        }
    }

    private static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    private static let names = ["hasPrefix", "contains", "hasSuffix"]

    private static func condition(_ matcher: Int, _ needle: String, caseInsensitive: Bool) -> SQLExpression {
        switch (matcher, caseInsensitive) {
        case (0, false): return Column("body").hasPrefix(needle)
        case (1, false): return Column("body").contains(needle)
        case (_, false): return Column("body").hasSuffix(needle)
        case (0, true): return Column("body").caseInsensitiveHasPrefix(needle)
        case (1, true): return Column("body").caseInsensitiveContains(needle)
        case (_, true): return Column("body").caseInsensitiveHasSuffix(needle)
        }
    }

    /// Runs every matcher (or its case-insensitive twin) over `db` with each of `needles`, through fetch and
    /// count, and returns how many cases ran and those that did not pick Swift's rows.
    private func mismatches(_ db: Database, _ needles: [String], caseInsensitive: Bool) throws -> (Int, [String]) {
        var cases = 0
        var failures: [String] = []
        for needle in needles {
            for matcher in 0..<3 {
                let expected = Self.stored.indices.filter {
                    Self.swiftAnswer(matcher, stored: Self.stored[$0], needle: needle, caseInsensitive: caseInsensitive)
                }.map { Int64($0 + 1) }
                let condition = Self.condition(matcher, needle, caseInsensitive: caseInsensitive)
                let picked = try Note.filter(condition).order(Column("id")).fetch(db).compactMap(\.id)
                let counted = try Note.filter(condition).count(db)
                if picked != expected || counted != expected.count {
                    let name = (caseInsensitive ? "caseInsensitive " : "") + Self.names[matcher]
                    failures.append("\(name)(\(needle.debugDescription)): \(picked) != \(expected)")
                }
                cases += 1
            }
        }
        return (cases, failures)
    }

    func testEveryMatcherPicksWhatSwiftPicksWithNULAnywhere() throws {
        let (cases, failures) = try mismatches(try makeDatabase(), Self.needles, caseInsensitive: false)
        print("TextMatcherTests: \(cases) matcher cases (\(Self.needles.count) texts x 3 matchers) over \(Self.stored.count) stored texts")
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(cases, 1_000)
    }

    func testADeleteByANULFilterDeletesOnlyTheRowsItMatches() throws {
        let db = try makeDatabase()
        let before = try db.fetchAll(String.self, sql: "SELECT hex(body) FROM notes WHERE body IS NOT NULL ORDER BY id")
        // LIKE would read '%' (the pattern up to its U+0000) and delete every row.
        XCTAssertEqual(try Note.filter(Column("body").contains("\u{0}zzzz")).deleteAll(db), 0)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT hex(body) FROM notes WHERE body IS NOT NULL ORDER BY id"), before)
        // "ab\0cd", "AB\0CD", "ab\0" and "Ab\0cD\0eF"; LIKE would read 'ab%' and delete "abc" and "ABC" too.
        XCTAssertEqual(try Note.filter(Column("body").hasPrefix("ab\u{0}")).deleteAll(db), 4)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes WHERE hex(lower(body)) LIKE '616200%'"), 0)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes WHERE lower(body) = 'abc'"), 2)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes"), Self.stored.count + 1 - 4)
        // Of what is left, only "\0cd" ends with "cd": LIKE would read it as "" and miss it.
        XCTAssertEqual(try Note.filter(Column("body").hasSuffix("cd")).deleteAll(db), 1)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes WHERE body = ?", arguments: ["\u{0}cd"]), 0)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes"), Self.stored.count + 1 - 5)
    }

    /// Stores `bodies` in a new database and runs every matcher (or its case-insensitive twin) with `long`
    /// and three variants of it, asserting Swift's rows through fetch and count; returns the database and
    /// how many cases ran.
    private func matchLongText(
        _ long: String, in bodies: [String], caseInsensitive: Bool
    ) throws -> (Database, Int) {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        for (index, body) in bodies.enumerated() {
            var note = Note(id: Int64(index + 1), body: body)
            try note.insert(db)
        }
        var cases = 0
        for needle in [long, long.uppercased(), "\u{0}" + long, long + "\u{0}"] {
            for matcher in 0..<3 {
                let expected = bodies.indices.filter {
                    Self.swiftAnswer(matcher, stored: bodies[$0], needle: needle, caseInsensitive: caseInsensitive)
                }.map { Int64($0 + 1) }
                let condition = Self.condition(matcher, needle, caseInsensitive: caseInsensitive)
                let picked = try Note.filter(condition).order(Column("id")).fetch(db).compactMap(\.id)
                XCTAssertEqual(picked, expected, "\(Self.names[matcher]) of \(needle.utf8.count) bytes")
                XCTAssertEqual(try Note.filter(condition).count(db), expected.count)
                cases += 1
            }
        }
        return (db, cases)
    }

    func testSearchTextOverLIKEsPatternLimitMatchesAsSwiftDoes() throws {
        var cases = 0
        // 60,000 bytes, 90,000 once escaped (over LIKE's limit); 100 bytes, 150 escaped (over the 64 bytes a
        // contains or hasSuffix writes as LIKE, not over a prefix's limit); 12 bytes, 18 escaped (LIKE).
        for repeats in [15_000, 25, 3] {
            let long = String(repeating: "ab%_", count: repeats)
            let bodies = [
                "x" + long + "y", long, long.dropLast() + "Z", "AB%_" + long, "nothing",
                "x" + long.uppercased() + "\u{0}",
            ]
            let (db, count) = try matchLongText(long, in: bodies, caseInsensitive: false)
            XCTAssertEqual(try Note.filter(Column("body").contains(long)).deleteAll(db), 4)
            XCTAssertEqual(try db.fetchAll(Int64.self, sql: "SELECT id FROM notes ORDER BY id"), [3, 5])
            cases += count
        }
        print("TextMatcherTests: \(cases) long-pattern cases")
    }

    func testTheUsualFormsKeepTheirSQLAndTheIndex() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT COLLATE NOCASE)")
        try db.execute(sql: "CREATE INDEX notes_body ON notes(body)")
        let (_, log) = try SelectLog.logging(db) {
            _ = try Note.filter(Column("body").hasPrefix("San")).fetch(db)
            _ = try Note.filter(Column("body").contains("a")).fetch(db)
            _ = try Note.filter(Column("body").hasSuffix("a")).fetch(db)
            _ = try Note.filter(Column("body").contains("a\u{0}")).fetch(db)
            // Patterns of 64 bytes are LIKE; of 65, instr and hex, whose cost per row cannot grow with the
            // search text's length as LIKE's can; a prefix stays LIKE (and an index search) at any length.
            _ = try Note.filter(Column("body").contains(String(repeating: "a", count: 62))).fetch(db)
            _ = try Note.filter(Column("body").contains(String(repeating: "a", count: 63))).fetch(db)
            _ = try Note.filter(Column("body").hasSuffix(String(repeating: "a", count: 64))).fetch(db)
            _ = try Note.filter(Column("body").hasPrefix(String(repeating: "a", count: 1_000))).fetch(db)
        }
        XCTAssertEqual(
            log.filter { $0.hasPrefix(#"SELECT * FROM "notes""#) },
            [
                #"SELECT * FROM "notes" WHERE "body" LIKE ? ESCAPE '\'"#,
                #"SELECT * FROM "notes" WHERE "body" LIKE ? ESCAPE '\' OR instr("body", ?) > ? AND instr(lower("body"), lower(?)) > ?"#,
                #"SELECT * FROM "notes" WHERE "body" LIKE ? ESCAPE '\' AND instr("body", ?) = ? OR instr("body", ?) > ? AND substr(hex(lower("body")), ?) = hex(lower(?))"#,
                #"SELECT * FROM "notes" WHERE instr(lower("body"), lower(?)) > ?"#,
                #"SELECT * FROM "notes" WHERE "body" LIKE ? ESCAPE '\' OR instr("body", ?) > ? AND instr(lower("body"), lower(?)) > ?"#,
                #"SELECT * FROM "notes" WHERE instr(lower("body"), lower(?)) > ?"#,
                #"SELECT * FROM "notes" WHERE substr(hex(lower("body")), ?) = hex(lower(?))"#,
                #"SELECT * FROM "notes" WHERE "body" LIKE ? ESCAPE '\'"#,
            ])
        let plan = try db.fetchAll(
            sql: #"EXPLAIN QUERY PLAN SELECT * FROM "notes" WHERE "body" LIKE ? ESCAPE '\'"#, arguments: ["San%"]
        ).map { try $0["detail", as: String.self] }
        XCTAssertTrue(plan.contains { $0.contains("INDEX notes_body") }, "\(plan)")
    }

    // MARK: like() with a pattern of the caller's own

    /// The refusal of a pattern for column "body" of "notes" that `problem` describes.
    private static func refusal(_ problem: String) -> String {
        "Invalid request on table \"notes\": the LIKE pattern for column \"body\" " + problem
    }

    private static func likeRefusal(_ position: Int) -> String {
        refusal(
            "holds U+0000 at character \(position) (counting from 0); SQLite's LIKE reads a pattern only up to "
                + "U+0000, so it would match more than the pattern says; use hasPrefix, contains or hasSuffix to "
                + "match text holding U+0000 literally")
    }

    func testALikePatternHoldingNULIsRefusedAndDeletesNothing() throws {
        let db = try makeDatabase()
        let before = try db.fetchAll(Int.self, sql: "SELECT id FROM notes ORDER BY id")
        // SQLite itself reads the pattern up to U+0000: 'a\0%' matches as 'a' (both cases of it).
        XCTAssertEqual(
            try db.scalar(Int.self, sql: "SELECT count(*) FROM notes WHERE body LIKE ?", arguments: ["a\u{0}%"]), 2)
        XCTAssertThrowsError(try Note.filter(Column("body").like("a\u{0}%")).deleteAll(db)) { error in
            XCTAssertEqual("\(error)", Self.likeRefusal(1))
        }
        XCTAssertThrowsError(try Note.filter(Column("body").notLike("%\u{0}")).deleteAll(db)) { error in
            XCTAssertEqual("\(error)", Self.likeRefusal(1))
        }
        XCTAssertThrowsError(try Note.filter(Column("body").like("日本\u{0}%")).fetch(db)) { error in
            XCTAssertEqual("\(error)", Self.likeRefusal(2), "counted in characters, not bytes")
        }
        XCTAssertThrowsError(try Note.filter(Column("body").like("\u{0}")).count(db)) { error in
            XCTAssertEqual("\(error)", Self.likeRefusal(0))
        }
        XCTAssertEqual(try db.fetchAll(Int.self, sql: "SELECT id FROM notes ORDER BY id"), before, "nothing deleted")
        // A pattern with no U+0000 runs as written.
        XCTAssertEqual(try Note.filter(Column("body").like("a%")).count(db), 12)
    }

    private static func lengthRefusal(_ length: Int) -> String {
        refusal(
            "is \(length) bytes of UTF-8, over SQLite's limit of 50000 (SQLITE_LIMIT_LIKE_PATTERN_LENGTH), past "
                + "which LIKE fails with \"LIKE or GLOB pattern too complex\"; use hasPrefix, contains or hasSuffix to "
                + "match long text literally")
    }

    func testALikePatternOverSQLitesLimitIsRefusedNamingItAndChangesNothing() throws {
        let db = try makeDatabase()
        let long = String(repeating: "a", count: 49_999) + "%"  // 50,000 bytes: the longest pattern SQLite takes
        let changed = Note(id: 1, body: String(repeating: "A", count: 50_000) + "\u{0}")
        try changed.update(db)
        let before = try db.fetchAll(String.self, sql: "SELECT hex(body) FROM notes ORDER BY id")
        // SQLite's own answer past its limit, and its limit on this connection.
        XCTAssertThrowsError(
            try db.scalar(Int.self, sql: "SELECT count(*) FROM notes WHERE body LIKE ?", arguments: [long + "%"])
        ) { error in
            XCTAssertTrue("\(error)".contains("LIKE or GLOB pattern too complex"), "\(error)")
        }
        // Asking for a higher limit gets SQLite's hard upper bound, the same 50,000.
        XCTAssertEqual(sqlite3Limit(db), 50_000)
        var cases = 0
        for pattern in [long + "%", "%" + long, long + "日", String(repeating: "本", count: 20_000)] {
            let runs: [(String, (Database) throws -> Void)] = [
                ("fetch", { _ = try Note.filter(Column("body").like(pattern)).fetch($0) }),
                ("count", { _ = try Note.filter(Column("body").like(pattern)).count($0) }),
                ("deleteAll", { _ = try Note.filter(Column("body").like(pattern)).deleteAll($0) }),
                ("notLike deleteAll", { _ = try Note.filter(Column("body").notLike(pattern)).deleteAll($0) }),
                ("updateAll", {
                    _ = try Note.filter(Column("body").like(pattern)).updateAll($0, Column("body").set(to: "changed"))
                }),
            ]
            for (name, run) in runs {
                XCTAssertThrowsError(try run(db), name) { error in
                    XCTAssertEqual("\(error)", Self.lengthRefusal(pattern.utf8.count), name)
                }
                cases += 1
            }
        }
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT hex(body) FROM notes ORDER BY id"), before)
        // A pattern of exactly 50,000 bytes runs, and picks what SQLite's LIKE picks.
        let sqlite = try db.fetchAll(
            Int64.self, sql: "SELECT id FROM notes WHERE body LIKE ? ORDER BY id", arguments: [long])
        XCTAssertEqual(sqlite, [1])
        XCTAssertEqual(
            try Note.filter(Column("body").like(long)).order(Column("id")).fetch(db).compactMap(\.id), sqlite)
        XCTAssertEqual(try Note.filter(Column("body").like(long)).deleteAll(db), 1)
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT hex(body) FROM notes ORDER BY id"), Array(before.dropFirst()))
        print("TextMatcherTests: \(cases) like() patterns over 50,000 bytes refused, 0 rows changed")
    }

    /// The connection's `SQLITE_LIMIT_LIKE_PATTERN_LENGTH`, and what asking for more sets it to.
    private func sqlite3Limit(_ db: Database) -> Int {
        let current = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1_000_000)
        return Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, current))
    }

    // MARK: Case-insensitive matchers

    func testTheCaseInsensitiveMatchersPickWhatSwiftPicksOnTheFoldedTextWithNULAnywhere() throws {
        let db = try makeDatabase()
        // Folding keeps every U+0000: Swift's answer below reads the whole folded text.
        XCTAssertEqual(
            "Ab\u{0}ÇD".folding(options: .caseInsensitive, locale: nil).unicodeScalars.map(\.value),
            [97, 98, 0, 231, 100])
        let needles = Self.needles + ["SÃO\u{0}PAULO", "\u{0}ÇA", "ÇA\u{0}VA", "日本\u{0}"]
        let (cases, failures) = try mismatches(db, needles, caseInsensitive: true)
        print("TextMatcherTests: \(cases) case-insensitive matcher cases over \(Self.stored.count) stored texts")
        XCTAssertEqual(failures, [])
        // A delete by a U+0000 filter: LIKE would read "\0zzzz" as "" and delete every row.
        let before = try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes")
        XCTAssertEqual(try Note.filter(Column("body").caseInsensitiveContains("\u{0}ZZZZ")).deleteAll(db), 0)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes"), before)
        // "x\0zzz" and "\0zzz" hold "ZZZ" after their U+0000, where LIKE stops reading: deleted with "zzz" and
        // "zzz\0".
        XCTAssertEqual(try Note.filter(Column("body").caseInsensitiveContains("ZZZ")).deleteAll(db), 4)
        XCTAssertEqual(
            try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes WHERE instr(body, 'zzz') > 0"), 0)
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM notes"), before.map { $0 - 4 })
    }

    func testCaseInsensitiveSearchTextOverLIKEsPatternLimitMatchesAsSwiftDoes() throws {
        let long = String(repeating: "äb%_", count: 12_000)  // 60,000 bytes, 84,000 once escaped
        let bodies = [
            "x" + long + "y", long.uppercased(), long.dropLast() + "Z", "ÄB%_" + long, "nothing",
            "x" + long.uppercased() + "\u{0}", "\u{0}" + long,
        ]
        let (db, cases) = try matchLongText(long, in: bodies, caseInsensitive: true)
        XCTAssertEqual(try Note.filter(Column("body").caseInsensitiveContains(long.uppercased())).deleteAll(db), 5)
        XCTAssertEqual(try db.fetchAll(Int64.self, sql: "SELECT id FROM notes ORDER BY id"), [3, 5])
        print("TextMatcherTests: \(cases) case-insensitive long-pattern cases")
    }
}
