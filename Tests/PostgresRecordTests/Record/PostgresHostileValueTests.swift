#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// Values PostgreSQL refuses or that sit at the edge of its types, and names that are SQL keywords: a clear
/// error before anything is written, or the exact value back.
final class PostgresHostileValueTests: PostgresTestCase {
    struct Note: Record, Equatable {
        var id: Int64?
        var title: String
        var body: String
        static let tableName = "notes"
    }

    struct Tag: Record, Equatable {
        var id: String
        var label: String
        static let tableName = "tags"
    }

    /// A table and columns named by reserved words, in mixed case and with a double quote.
    struct Order: Record, Equatable {
        var id: Int64?
        var user: String
        var select: Int64
        var mixedCase: String
        var quoted: String
        static let tableName = "order"
        enum CodingKeys: String, CodingKey {
            case id, user, select
            case mixedCase = "MixedCase"
            case quoted = "say \"hi\""
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Note.createTable(in: connection)
        try Tag.createTable(in: connection)
    }

    private func assertNULRefused(
        _ error: any Error, column: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case EncodingError.invalidValue(_, let context) = error else {
            return XCTFail("\(error)", file: file, line: line)
        }
        XCTAssertEqual(context.codingPath.map(\.stringValue), [column], file: file, line: line)
        XCTAssertEqual(
            context.debugDescription,
            "column \"\(column)\" of table \"\(column == "id" || column == "label" ? "tags" : "notes")\": "
                + "PostgreSQL text cannot hold a NUL character (U+0000)", file: file, line: line)
    }

    func testTextWithNULInASavedRecordNamesTableAndColumnAndWritesNothing() async throws {
        var note = Note(id: nil, title: "a\u{0}b", body: "")
        do {
            try await note.save(pool)
            XCTFail("no error")
        } catch {
            assertNULRefused(error, column: "title")
        }
        XCTAssertNil(note.id)
        var tag = Tag(id: "k\u{0}", label: "x")
        do {
            try await tag.save(pool)
            XCTFail("no error")
        } catch {
            assertNULRefused(error, column: "id")
        }
        do {
            _ = try await Tag.fetchOne(pool, id: "k\u{0}")
            XCTFail("no error")
        } catch {
            assertNULRefused(error, column: "id")
        }
        XCTAssertEqual(try text("SELECT ((SELECT count(*) FROM notes) + (SELECT count(*) FROM tags))::text"), "0")
    }

    func testTextWithNULInAWhereDictionaryIsRefusedAsAFilterValueNamingTableAndColumn() async throws {
        for call in [
            { _ = try await Note.fetch(self.pool, where: ["title": "a\u{0}"]) },
            { _ = try await Note.count(self.pool, where: ["body": "", "title": "\u{0}"]) },
            { _ = try await Note.deleteAll(self.pool, where: ["title": "x\u{0}y"]) },
        ] as [() async throws -> Void] {
            do {
                try await call()
                XCTFail("no error")
            } catch {
                // As a request's filter value is refused, on both engines.
                XCTAssertEqual(
                    error as? RecordError,
                    .invalidQueryValue(
                        table: "notes", column: "title", type: "String",
                        reason: "PostgreSQL text cannot hold a NUL character (U+0000)"))
            }
        }
    }

    func testTextWithNULInTheSixthRecordOfABatchWritesNoneAndGivesNoIDs() throws {
        var notes = (0..<10).map { Note(id: nil, title: "note \($0)", body: $0 == 5 ? "x\u{0}" : "") }
        do {
            try connection.transaction { try Note.insertAll(connection, &notes) }
            XCTFail("no error")
        } catch {
            assertNULRefused(error, column: "body")
        }
        XCTAssertEqual(notes.compactMap(\.id), [])
        XCTAssertEqual(try text("SELECT count(*)::text FROM notes"), "0")
    }

    struct Labels: Codable, Equatable { var names: [String] }

    struct Poster: Record, Equatable {
        var id: Int64?
        var labels: Labels
        static let tableName = "posters"
    }

    func testANULInANestedValuesTextIsRefusedBeforeAnythingIsSentAndABatchWritesNone() throws {
        try Poster.createTable(in: connection)
        var posters = (0..<4).map { Poster(id: nil, labels: Labels(names: ["ok", $0 == 2 ? "a\u{0}b" : "\\u0000"])) }
        do {
            try connection.transaction { try Poster.insertAll(connection, &posters) }
            XCTFail("no error")
        } catch EncodingError.invalidValue(_, let context) {
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["labels"])
            XCTAssertTrue(context.debugDescription.contains("cannot hold a NUL character (U+0000)"), context.debugDescription)
        }
        XCTAssertEqual(posters.compactMap(\.id), [])
        XCTAssertEqual(try text("SELECT count(*)::text FROM posters"), "0")
        // A backslash before "u0000" in the text itself is no NUL: it is stored and read back as it was.
        var backslashed = Poster(id: nil, labels: Labels(names: ["\\u0000", "\\\\u0000"]))
        try backslashed.insert(connection)
        XCTAssertEqual(try Poster.fetchOne(connection, id: try XCTUnwrap(backslashed.id)), backslashed)
    }

    func testReservedWordsMixedCaseAndQuotesAsTableAndColumnNames() async throws {
        try Order.createTable(in: connection)
        try Order.validateSchema(in: connection)
        var order = Order(id: nil, user: "ann", select: 3, mixedCase: "M", quoted: "q\"")
        try await order.save(pool)
        order.user = "bob"
        try await order.save(pool)
        let fetched = try await Order.fetchOne(pool, id: try XCTUnwrap(order.id))
        XCTAssertEqual(fetched, order)
        let matching = try await Order.fetch(
            pool, where: ["user": "bob", "MixedCase": "M", "say \"hi\"": "q\""],
            orderBy: [.ascending("select"), .descending("say \"hi\"")])
        XCTAssertEqual(matching, [order])
        var more = [
            Order(id: nil, user: "cy", select: 1, mixedCase: "", quoted: ""),
            Order(id: nil, user: "di", select: 2, mixedCase: "", quoted: ""),
        ]
        try connection.transaction { try Order.insertAll(connection, &more) }
        let select = Column(Order.CodingKeys.select)
        let updated = try await Order.filter(Column(Order.CodingKeys.user) == "cy").updateAll(
            pool, [select.set(to: select + 10)])
        XCTAssertEqual(updated, 1)
        let unquoted = try await Order.filter(Column(Order.CodingKeys.quoted) == "").order(select.descending).fetch(pool)
        XCTAssertEqual(unquoted.map(\.user), ["cy", "di"])
        let deleted = try await Order.all().order(select.ascending).limit(1).deleteAll(pool)
        XCTAssertEqual(deleted, 1)
        let deletedOne = try await order.delete(pool)
        XCTAssertTrue(deletedOne)
        XCTAssertEqual(
            try text("SELECT string_agg(\"user\" || ':' || \"select\" || ':' || \"MixedCase\", ',') FROM \"order\""),
            "cy:11:")
    }
}
#endif
