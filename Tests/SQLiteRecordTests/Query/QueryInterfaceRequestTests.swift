import Foundation
import XCTest

@testable import SQLiteRecord

/// The exact SQL and arguments of every request form and expression.
final class QueryInterfaceRequestTests: XCTestCase {
    private var db: Database!

    override func setUpWithError() throws {
        db = try QueryFixtures.makeDatabase()
    }

    private func select(_ request: QueryInterfaceRequest<Novel>) throws -> SQLQuery {
        try request.compiled(db, .select)
    }

    private func sql(_ request: QueryInterfaceRequest<Novel>, _ statement: RequestStatement = .select) throws -> String
    {
        try request.compiled(db, statement).sql
    }

    func testComparisons() throws {
        typealias Key = Novel.CodingKeys
        let query = try select(Novel.filter(Key.pages > 100 && Key.pages <= 400 && Key.title != "Dune"))
        XCTAssertEqual(
            query.sql, "SELECT * FROM \"novels\" WHERE \"pages\" > ? AND \"pages\" <= ? AND \"title\" <> ?")
        XCTAssertEqual(query.arguments.values, [.integer(100), .integer(400), .text("Dune")])
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages") < 10 || Column("pages") >= 300)),
            "SELECT * FROM \"novels\" WHERE \"pages\" < ? OR \"pages\" >= ?")
        XCTAssertEqual(
            try sql(Novel.filter(Column("rating") == Column("pages"))),
            "SELECT * FROM \"novels\" WHERE \"rating\" = \"pages\"")
    }

    func testNullTests() throws {
        XCTAssertEqual(
            try sql(Novel.filter(Column("rating") == nil)), "SELECT * FROM \"novels\" WHERE \"rating\" IS NULL")
        XCTAssertEqual(
            try sql(Novel.filter(Novel.CodingKeys.rating != nil)),
            "SELECT * FROM \"novels\" WHERE \"rating\" IS NOT NULL")
        // An Optional that is nil at run time tests NULL too: `= NULL` would match nothing.
        let none: Double? = nil
        let query = try select(Novel.filter(Column("rating") == none))
        XCTAssertEqual(query.sql, "SELECT * FROM \"novels\" WHERE \"rating\" IS NULL")
        XCTAssertEqual(query.arguments.values, [])
        XCTAssertEqual(
            try sql(Novel.filter(Column("rating") != none)), "SELECT * FROM \"novels\" WHERE \"rating\" IS NOT NULL")
        let some: Double? = 4.5
        XCTAssertEqual(try select(Novel.filter(Column("rating") == some)).arguments.values, [.real(4.5)])
    }

    func testLogicNestsWithTheParenthesesItNeeds() throws {
        let a = Column("pages") > 1
        let b = Column("pages") < 2
        let c = Column("title") == "x"
        XCTAssertEqual(
            try sql(Novel.filter((a || b) && c)),
            "SELECT * FROM \"novels\" WHERE (\"pages\" > ? OR \"pages\" < ?) AND \"title\" = ?")
        XCTAssertEqual(
            try sql(Novel.filter(a || b && c)),
            "SELECT * FROM \"novels\" WHERE \"pages\" > ? OR \"pages\" < ? AND \"title\" = ?")
        XCTAssertEqual(
            try sql(Novel.filter(!(a && b))), "SELECT * FROM \"novels\" WHERE NOT (\"pages\" > ? AND \"pages\" < ?)")
        XCTAssertEqual(try sql(Novel.filter(!a)), "SELECT * FROM \"novels\" WHERE NOT \"pages\" > ?")
        // Two filters AND together.
        XCTAssertEqual(
            try sql(Novel.filter(a || b).filter(c)),
            "SELECT * FROM \"novels\" WHERE (\"pages\" > ? OR \"pages\" < ?) AND \"title\" = ?")
    }

    func testArithmetic() throws {
        let query = try select(Novel.filter(Column("pages") * 2 + 10 > 500))
        XCTAssertEqual(query.sql, "SELECT * FROM \"novels\" WHERE \"pages\" * ? + ? > ?")
        XCTAssertEqual(query.arguments.values, [.integer(2), .integer(10), .integer(500)])
        XCTAssertEqual(
            try sql(Novel.filter((Column("pages") + 1) * 2 > Column("rating") - -Column("pages") / 3)),
            "SELECT * FROM \"novels\" WHERE (\"pages\" + ?) * ? > \"rating\" - -\"pages\" / ?")
    }

    func testListsBetweenAndPatterns() throws {
        let list = try select(Novel.filter(Column("genre").in([Genre.poetry, .essay])))
        XCTAssertEqual(list.sql, "SELECT * FROM \"novels\" WHERE \"genre\" IN (?, ?)")
        XCTAssertEqual(list.arguments.values, [.text("poetry"), .text("essay")])
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages").notIn([1, 2, 3]))),
            "SELECT * FROM \"novels\" WHERE \"pages\" NOT IN (?, ?, ?)")
        XCTAssertEqual(try sql(Novel.filter(Column("pages").in([Int]()))), "SELECT * FROM \"novels\" WHERE 0")
        XCTAssertEqual(try sql(Novel.filter(Column("pages").notIn([Int]()))), "SELECT * FROM \"novels\" WHERE 1")
        let between = try select(Novel.filter(Column("pages").between(100, and: 300)))
        XCTAssertEqual(between.sql, "SELECT * FROM \"novels\" WHERE \"pages\" BETWEEN ? AND ?")
        XCTAssertEqual(between.arguments.values, [.integer(100), .integer(300)])
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages").notBetween(1, and: 2))),
            "SELECT * FROM \"novels\" WHERE \"pages\" NOT BETWEEN ? AND ?")
        let like = try select(Novel.filter(Column("title").like("D%")))
        XCTAssertEqual(like.sql, "SELECT * FROM \"novels\" WHERE \"title\" LIKE ?")
        XCTAssertEqual(like.arguments.values, [.text("D%")])
        let prefix = try select(Novel.filter(Column("title").hasPrefix("100%_\\")))
        XCTAssertEqual(prefix.sql, "SELECT * FROM \"novels\" WHERE \"title\" LIKE ? ESCAPE '\\'")
        XCTAssertEqual(prefix.arguments.values, [.text("100\\%\\_\\\\%")])
        // The second test reads the rows whose text holds U+0000, where LIKE stops reading (SearchTextMatch).
        XCTAssertEqual(
            try select(Novel.filter(Column("title").contains("a_b"))).arguments.values,
            [.text("%a\\_b%"), .text("\u{0}"), .integer(0), .text("a_b"), .integer(0)])
        XCTAssertEqual(
            try select(Novel.filter(Column("title").hasSuffix("%"))).arguments.values,
            [.text("%\\%"), .text("\u{0}"), .integer(0), .text("\u{0}"), .integer(0), .integer(-2), .text("%")])
        XCTAssertEqual(
            try sql(Novel.filter(Column("title").collating(.nocase) == "dune")),
            "SELECT * FROM \"novels\" WHERE \"title\" COLLATE \"NOCASE\" = ?")
    }

    func testALongListIsBoundAsJSON() throws {
        let pages = Array(0..<1_000)
        let query = try select(Novel.filter(Column("pages").in(pages)))
        XCTAssertEqual(
            query.sql,
            "SELECT * FROM \"novels\" WHERE (\"pages\" IN (SELECT +value FROM json_each(?)) OR (typeof(\"pages\") = "
                + "'blob' AND hex(\"pages\") IN (SELECT value FROM json_each(?))))")
        XCTAssertEqual(query.arguments.values.count, 2)
        XCTAssertEqual(query.arguments.values.last, .text("[]"))
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages").notIn(pages))),
            "SELECT * FROM \"novels\" WHERE NOT (\"pages\" IN (SELECT +value FROM json_each(?)) OR (typeof(\"pages\") "
                + "= 'blob' AND hex(\"pages\") IN (SELECT value FROM json_each(?))))")
        XCTAssertEqual(
            JSONList.arrays([.integer(1), .real(2.5), .text("a\"\\\u{1}é"), .null, .blob(Data([0xAB, 0x01]))]).scalars,
            "[1,2.5,\"a\\\"\\\\\\u0001é\",null]")
        XCTAssertEqual(JSONList.arrays([.blob(Data([0xAB, 0x01]))]).blobs, "[\"AB01\"]")
    }

    func testOrderingLimitAndOffset() throws {
        let query = try select(
            Novel.order(Column("rating").descending(nulls: .last), Novel.CodingKeys.title.ascending).limit(2, offset: 1)
        )
        XCTAssertEqual(
            query.sql,
            "SELECT * FROM \"novels\" ORDER BY \"rating\" DESC NULLS LAST, \"title\" ASC LIMIT ? OFFSET ?")
        XCTAssertEqual(query.arguments.values, [.integer(2), .integer(1)])
        XCTAssertEqual(
            try sql(Novel.order(Column("pages"), (Column("pages") * -1).descending, Ordering.descending("title"))),
            "SELECT * FROM \"novels\" ORDER BY \"pages\" ASC, \"pages\" * ? DESC, \"title\" DESC")
        XCTAssertEqual(
            try sql(Novel.order(Column("rating").ascending(nulls: .last)).order(Column("title").descending)),
            "SELECT * FROM \"novels\" ORDER BY \"title\" DESC", "order replaces the order set before")
    }

    func testSelectionsAggregatesGroupAndHaving() throws {
        let query = try select(
            Novel.select(
                Column("genre"), SQLExpression.countAll.forKey("count"), average(Column("pages")).forKey("pages")
            )
            .filter(Column("in_print") == true)
            .group(Column("genre"))
            .having(count(Column("id")) > 1)
            .order(Column("count").descending))
        XCTAssertEqual(
            query.sql,
            "SELECT \"genre\", count(*) AS \"count\", avg(\"pages\") AS \"pages\" FROM \"novels\" WHERE \"in_print\" = ? "
                + "GROUP BY \"genre\" HAVING count(\"id\") > ? ORDER BY \"count\" DESC")
        XCTAssertEqual(query.arguments.values, [.integer(1), .integer(1)])
        XCTAssertEqual(
            try sql(
                Novel.select(
                    count(distinct: Column("genre")), sum(Column("pages")), total(Column("rating")),
                    min(Column("pages")), max(Column("pages")))),
            "SELECT count(DISTINCT \"genre\"), sum(\"pages\"), total(\"rating\"), min(\"pages\"), max(\"pages\") "
                + "FROM \"novels\"")
        XCTAssertEqual(
            try sql(Novel.select(Column("genre")).distinct()), "SELECT DISTINCT \"genre\" FROM \"novels\"")
    }

    func testCountExistsDeleteAndUpdate() throws {
        XCTAssertEqual(try sql(Novel.all(), .count), "SELECT count(*) FROM \"novels\"")
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages") > 1).order(Column("title")), .count),
            "SELECT count(*) FROM \"novels\" WHERE \"pages\" > ?")
        XCTAssertEqual(
            try sql(Novel.order(Column("title")).limit(2), .count),
            "SELECT count(*) FROM (SELECT * FROM \"novels\" ORDER BY \"title\" ASC LIMIT ?)")
        XCTAssertEqual(
            try sql(Novel.select(Column("genre")).group(Column("genre")), .count),
            "SELECT count(*) FROM (SELECT \"genre\" FROM \"novels\" GROUP BY \"genre\")")
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages") > 1).order(Column("title")), .exists),
            "SELECT EXISTS (SELECT * FROM \"novels\" WHERE \"pages\" > ?)")
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages") > 1), .delete), "DELETE FROM \"novels\" WHERE \"pages\" > ?")
        XCTAssertEqual(
            try sql(Novel.order(Column("pages").descending).limit(2), .delete),
            "DELETE FROM \"novels\" WHERE rowid IN (SELECT rowid FROM \"novels\" ORDER BY \"pages\" DESC LIMIT ?)")
        let update = try Novel.filter(Column("genre") == Genre.poetry).compiled(
            db, .update, assignments: [Column("pages").set(to: Column("pages") + 1), Column("rating").set(to: nil)])
        XCTAssertEqual(
            update.sql,
            "UPDATE \"novels\" SET \"pages\" = (SELECT CASE WHEN typeof(\"sqliterecord_left\" + "
                + "\"sqliterecord_right\") = 'real' AND typeof(\"sqliterecord_left\") = 'integer' AND "
                + "typeof(\"sqliterecord_right\") = 'integer' THEN abs(-9223372036854775807 - 1) ELSE "
                + "\"sqliterecord_left\" + \"sqliterecord_right\" END FROM (SELECT \"pages\" AS \"sqliterecord_left\", "
                + "? AS \"sqliterecord_right\")), \"rating\" = NULL WHERE \"genre\" = ?")
        XCTAssertEqual(update.arguments.values, [.integer(1), .text("poetry")])
    }

    func testSQLOfYourOwn() throws {
        let query = try select(
            Novel.filter(sql: "length(title) > ?", arguments: [5]).filter(
                SQLExpression(sql: "pages % ? = 0", arguments: [2])
            )
            .limit(3))
        XCTAssertEqual(
            query.sql, "SELECT * FROM \"novels\" WHERE (length(title) > ?) AND (pages % ? = 0) LIMIT ?")
        XCTAssertEqual(query.arguments.values, [.integer(5), .integer(2), .integer(3)])
    }

    /// Values go through the record type's encoder: its UUID, date, Bool, Decimal and enum forms.
    func testValuesAreEncodedAsTheRecordTypeStoresThem() throws {
        let isbn = QueryFixtures.isbn
        let uuid = try select(Novel.filter(Column("isbn") == isbn))
        XCTAssertEqual(uuid.sql, "SELECT * FROM \"novels\" WHERE \"isbn\" IN (?, ?, ?)")
        let bytes = withUnsafeBytes(of: isbn.uuid) { Data($0) }
        XCTAssertEqual(
            uuid.arguments.values,
            [
                .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
                .blob(bytes),
            ])
        XCTAssertEqual(
            try sql(Novel.filter(Column("isbn") != isbn)), "SELECT * FROM \"novels\" WHERE \"isbn\" NOT IN (?, ?, ?)")
        let values = try select(
            Novel.filter(
                Column("published_at") < QueryFixtures.date(0) && Column("in_print") == false
                    && Column("price") > Decimal(string: "8.5")! && Column("genre") == Genre.fiction))
        XCTAssertEqual(
            values.arguments.values,
            [.text("1970-01-01 00:00:00.000"), .integer(0), .real(8.5), .text("fiction")])

        // Meter's encoder: BLOB UUIDs (first), unix seconds, snake_case coding keys.
        let sensorQuery = try Meter.filter(
            Column(Meter.CodingKeys.serialNumber) == isbn
                && Column(Meter.CodingKeys.installedAt) > QueryFixtures.date(1.5)
        ).compiled(db, .select)
        XCTAssertEqual(
            sensorQuery.sql,
            "SELECT * FROM \"meters\" WHERE \"serial_number\" IN (?, ?, ?) AND \"installed_at\" > ?")
        XCTAssertEqual(
            sensorQuery.arguments.values,
            [
                .blob(bytes), .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
                .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .real(1.5),
            ])
    }

    /// A shape's SQL is written once per connection: the same String comes back, and other values do not
    /// change it.
    func testTheSQLOfAShapeIsBuiltOnce() throws {
        let first = try select(Novel.filter(Column("pages") > 1).order(Column("title")).limit(5))
        let second = try select(Novel.filter(Column("pages") > 99).order(Column("title")).limit(50))
        XCTAssertEqual(first.sql, second.sql)
        XCTAssertEqual(second.arguments.values, [.integer(99), .integer(50)])
        // A different shape: a nil value tests IS NULL, a UUID three forms.
        let none: Int? = nil
        XCTAssertEqual(
            try sql(Novel.filter(Column("pages") == none)), "SELECT * FROM \"novels\" WHERE \"pages\" IS NULL")
        XCTAssertEqual(try sql(Novel.filter(Column("pages") == 3)), "SELECT * FROM \"novels\" WHERE \"pages\" = ?")
        // After a schema change the shape is checked again.
        try db.execute(sql: "ALTER TABLE novels DROP COLUMN rating")
        XCTAssertThrowsError(try select(Novel.filter(Column("rating") > 1))) { error in
            XCTAssertEqual(
                error as? RecordError,
                .unknownColumn(
                    table: "novels", column: "rating",
                    columns: ["id", "title", "genre", "pages", "published_at", "isbn", "in_print", "price"]))
        }
    }
}
