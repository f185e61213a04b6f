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
}
