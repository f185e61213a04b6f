#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A list of strings past 512 values is one array: it must take the column's type as the short list's
/// `$n` do, so that the same strings match the same rows however many there are.
final class PostgresLongListTests: PostgresTestCase {
    struct Item: Record, Equatable {
        var id: Int64?
        var code: UUID
        var n: Int64
        static let tableName = "items"
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Item.createTable(in: connection)
        var items = (0..<600).map { Item(id: nil, code: UUID(), n: Int64($0)) }
        try connection.transaction { try Item.insertAll(connection, &items) }
    }

    func testStringsComparedWithABigintColumnMatchInLongListsAsInShortOnes() async throws {
        let n = Column("n")
        let short = try await Item.filter(n.in((0..<512).map { "\($0)" })).count(pool)
        let long = try await Item.filter(n.in((0..<40_000).map { "\($0)" })).count(pool)
        let notLong = try await Item.filter(!n.in((1..<40_000).map { "\($0)" })).count(pool)
        XCTAssertEqual([short, long, notLong], [512, 600, 1])
    }

    func testStringsComparedWithAUUIDColumnMatchInALongList() async throws {
        let codes = try await Item.all().order(Column("n").ascending).fetch(pool).map(\.code.uuidString)
        let wanted = Array(codes.prefix(550)) + (0..<1_000).map { _ in UUID().uuidString }
        let found = try await Item.filter(Column("code").in(wanted)).fetch(pool)
        XCTAssertEqual(found.map(\.n).sorted(), (0..<550).map(Int64.init))
    }

    func testStringsWithQuotesBackslashesBracesAndNULLWordsInALongListOfTextMatchExactly() throws {
        try connection.execute("CREATE TABLE words (id TEXT PRIMARY KEY)")
        let words = (0..<700).map { "w\($0) \"'\\,{}" } + ["NULL", "", " ", "\\"]
        for word in words { _ = try connection.execute("INSERT INTO words VALUES ($1)", [try PostgresValue(text: word)]) }
        struct Word: Record { var id: String; static let tableName = "words" }
        let found = try Word.filter(Column("id").in(words + ["null", "w1"])).fetch(connection).map(\.id)
        XCTAssertEqual(found.sorted(), words.sorted())
    }
}
#endif
