import Foundation
import SQLiteRecord
import XCTest

/// Values whose storage the engines would treat differently by nature, held to one behaviour.
final class ValueContractTests: RecordContractTestCase {
    struct Reading: Record, Equatable {
        var id: Int64?
        var value: Double
        static let tableName = "readings"
    }

    func testNaNIsRefusedInAStoredValueAndInAFilterInTheSameWordsAndNothingIsWritten() {
        onEachEngine { engine in
            try engine.createTable(Reading.self)
            var reading = Reading(id: nil, value: .nan)
            let stored = error { try engine.write { db in try reading.insert(db) } }
            guard case EncodingError.invalidValue(_, let context)? = stored else {
                return XCTFail("expected EncodingError.invalidValue, got \(String(describing: stored))")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["value"])
            XCTAssertNil(reading.id)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM readings"), 0)
            var one = Reading(id: nil, value: 1)
            try engine.write { db in try one.insert(db) }
            let filtered = error { _ = try engine.write { db in try Reading.fetch(db, where: ["value": Double.nan]) } }
            let deleted = error { _ = try engine.write { db in try Reading.deleteAll(db, where: ["value": Double.nan]) } }
            let requested = error {
                _ = try engine.write { db in try Reading.filter(Column("value") == Double.nan).fetch(db) }
            }
            // A filter value is refused as a filter's (the table, the column, the type, why); a stored value as
            // the encoder's, in the same words.
            XCTAssertTrue(context.debugDescription.hasSuffix(
                "NaN is refused on every engine (SQLite would store it as NULL, PostgreSQL would match it in a "
                    + "filter and sort it above every number)"), context.debugDescription)
            for refused in [filtered, deleted, requested] {
                guard case RecordError.invalidQueryValue(let table, let column, let type, let reason)? = refused else {
                    XCTFail("expected RecordError.invalidQueryValue, got \(String(describing: refused))")
                    continue
                }
                XCTAssertEqual([table, column, type], ["readings", "value", "Double"])
                XCTAssertTrue(reason.hasPrefix("Cannot store Double NaN in column \"value\""), reason)
                XCTAssertTrue(reason.hasSuffix("sort it above every number)"), reason)
            }
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM readings"), 1)
        }
    }

    func testInfinitiesAreStoredAndReadBack() {
        onEachEngine { engine in
            try engine.createTable(Reading.self)
            var high = Reading(id: nil, value: .infinity)
            var low = Reading(id: nil, value: -.infinity)
            try engine.write { db in
                try high.insert(db)
                try low.insert(db)
            }
            XCTAssertEqual(try engine.write { db in try Reading.fetchOne(db, id: high.id) }?.value, .infinity)
            XCTAssertEqual(try engine.write { db in try Reading.fetchOne(db, id: low.id) }?.value, -.infinity)
            let found = try engine.write { db in try Reading.fetch(db, where: ["value": Double.infinity]) }
            XCTAssertEqual(found, [high])
        }
    }

    struct Tagged: Record, Equatable {
        var id: Int64?
        var tags: [String]
        var scores: [Double?]
        var ids: [UUID]?
        static let tableName = "tagged"
    }

    /// An array of scalars reads back as it was saved on both engines, each storing it its own way: JSON text
    /// on SQLite, a PostgreSQL array (`text[]`, `double precision[]`) on PostgreSQL.
    func testArraysOfScalarsReadBackAsSavedOnBothEngines() {
        onEachEngine { engine in
            try engine.createTable(Tagged.self)
            var record = Tagged(id: nil, tags: ["a", "b \"c\"", ""], scores: [1.5, nil, -0.25], ids: nil)
            let id = try XCTUnwrap(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"))
            var other = Tagged(id: nil, tags: [], scores: [], ids: [id])
            try engine.write { db in
                try record.insert(db)
                try other.insert(db)
            }
            XCTAssertEqual(try engine.write { db in try Tagged.fetchOne(db, id: record.id) }, record)
            XCTAssertEqual(try engine.write { db in try Tagged.fetchOne(db, id: other.id) }, other)
            XCTAssertEqual(
                try engine.text("SELECT CAST(tags AS TEXT) FROM tagged WHERE id = \(try XCTUnwrap(record.id))"),
                engine.name == "SQLite" ? #"["a","b \"c\"",""]"# : #"{a,"b \"c\"",""}"#)
        }
    }

    struct Shelf: Codable, Equatable {
        var row: Int
        var side: String
    }

    struct Placed: Record, Equatable {
        var id: Int64?
        var shelf: Shelf
        var tags: [String]
        static let tableName = "placed"
    }

    /// An array or a struct in a filter (a `where:` value, a request's `==` and `in(_:)`) is compared with what
    /// `save()` stored, on both engines: the record's JSON text on SQLite, the PostgreSQL array or JSONB
    /// value on PostgreSQL.
    func testAnArrayOrAStructInAFilterFindsTheRowSaveWroteOnEachEngine() {
        onEachEngine { engine in
            try engine.createTable(Placed.self)
            var left = Placed(id: nil, shelf: Shelf(row: 1, side: "left"), tags: ["a", "b \"c\""])
            var right = Placed(id: nil, shelf: Shelf(row: 2, side: "right"), tags: [])
            try engine.write { db in
                try left.insert(db)
                try right.insert(db)
            }
            try engine.write { db in
                XCTAssertEqual(try Placed.fetch(db, where: ["tags": ["a", "b \"c\""]]), [left])
                XCTAssertEqual(try Placed.fetch(db, where: ["tags": [String]()]), [right])
                XCTAssertEqual(try Placed.fetch(db, where: ["shelf": Shelf(row: 2, side: "right")]), [right])
                XCTAssertEqual(try Placed.count(db, where: ["shelf": Shelf(row: 2, side: "left")]), 0)
                XCTAssertEqual(try Placed.filter(Column("tags") == ["a", "b \"c\""]).fetch(db), [left])
                XCTAssertEqual(try Placed.filter(Column("shelf") == left.shelf).fetchOne(db), left)
                XCTAssertEqual(
                    try Placed.filter(Column("shelf").in([left.shelf, right.shelf])).order(Column("id")).fetch(db),
                    [left, right])
                XCTAssertEqual(try Placed.deleteAll(db, where: ["shelf": left.shelf]), 1)
            }
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM placed"), 1)
        }
    }
}
