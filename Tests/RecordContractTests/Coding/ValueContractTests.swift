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

    func testNaNIsRefusedInAStoredValueAndInAFilterAndNothingIsWritten() {
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
            XCTAssertNotNil(filtered)
            let deleted = error { _ = try engine.write { db in try Reading.deleteAll(db, where: ["value": Double.nan]) } }
            XCTAssertNotNil(deleted)
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
