import Foundation
import SQLiteRecord
import XCTest

/// Integer overflow in an `updateAll` that computes: refused on every engine, with no row changed, where
/// SQLite alone would store the result as a REAL (9.223372036854776e18 for `Int64.max + 1`).
final class ArithmeticUpdateContractTests: RecordContractTestCase {
    struct Counter: Record, Equatable {
        var id: Int64?
        var value: Int
        static let tableName = "counters"
    }

    /// Two counters, `first` and 5, in that order.
    private func fill(_ engine: any ContractEngine, first: Int) throws {
        try engine.createTable(Counter.self)
        var counters = [Counter(id: nil, value: first), Counter(id: nil, value: 5)]
        try engine.write { db in
            for index in counters.indices { try counters[index].insert(db) }
        }
    }

    private func values(_ engine: any ContractEngine) throws -> [Int] {
        try engine.write { db in try Counter.fetch(db, orderBy: [.ascending("id")]) }.map(\.value)
    }

    /// The SQLite message or PostgreSQL SQLSTATE of an integer overflow.
    private func overflow(_ engine: any ContractEngine) -> String {
        engine.isSQLite ? "integer overflow" : "22003"
    }

    func testAnIncrementBeyondInt64MaxIsRefusedAndNoRowChanges() {
        onEachEngine { engine in
            try fill(engine, first: .max - 1)
            let value = Column("value")
            XCTAssertEqual(try engine.updateAll(Counter.all(), [value.set(to: value + 1)]), 2)
            XCTAssertEqual(try values(engine), [.max, 6])
            let thrown = error { _ = try engine.updateAll(Counter.all(), [value.set(to: value + 1)]) }
            XCTAssertEqual(engine.engineErrorCode(thrown), overflow(engine), "\(String(describing: thrown))")
            XCTAssertEqual(try values(engine), [.max, 6])
        }
    }

    func testEveryOperatorAndANestedOneOverflowAlike() {
        onEachEngine { engine in
            try fill(engine, first: .min)
            let value = Column("value")
            let overflowing: [(String, SQLExpression)] = [
                ("value - 1", value - 1), ("value * 2", value * 2), ("value / -1", value / -1), ("-value", -value),
                ("(value - 1) + 1", (value - 1) + 1), ("value * 1 + (value - 1)", value * 1 + (value - 1)),
            ]
            for (name, expression) in overflowing {
                let thrown = error { _ = try engine.updateAll(Counter.all(), [value.set(to: expression)]) }
                XCTAssertEqual(
                    engine.engineErrorCode(thrown), overflow(engine), "\(name): \(String(describing: thrown))")
                XCTAssertEqual(try values(engine), [.min, 5], name)
            }
            // Arithmetic that stays in range is computed as before, REAL operands included.
            XCTAssertEqual(try engine.updateAll(Counter.all(), [value.set(to: (value + 1) - 1)]), 2)
            XCTAssertEqual(try engine.updateAll(Counter.filter(value == 5), [value.set(to: value * 3 - 1)]), 1)
            XCTAssertEqual(try values(engine), [.min, 14])
            XCTAssertEqual(try engine.updateAll(Counter.filter(value == 14), [value.set(to: value / 2.0)]), 1)
            XCTAssertEqual(try values(engine), [.min, 7])
        }
    }

    struct Gauge: Record, Equatable {
        var id: Int64?
        var small: Int32
        var value: Int
        static let tableName = "gauges"
    }

    /// What still differs, as the article's "What differs" table says: an Int32 column past its range, and a
    /// division by zero.
    func testANarrowColumnPastItsRangeAndADivisionByZeroAsEachEngineHasThem() {
        onEachEngine { engine in
            try engine.createTable(Gauge.self)
            var gauge = Gauge(id: nil, small: .max, value: 1)
            try engine.write { db in try gauge.insert(db) }
            let (small, value) = (Column("small"), Column("value"))
            let divided = error { _ = try engine.updateAll(Gauge.all(), [value.set(to: value / 0)]) }
            if engine.isSQLite {
                // Every SQLite integer column holds 64 bits: the row takes 2147483648, which no Int32 reads.
                XCTAssertEqual(try engine.updateAll(Gauge.all(), [small.set(to: small + 1)]), 1)
                XCTAssertEqual(try engine.integer("SELECT small FROM gauges"), 2_147_483_648)
                let read = error { _ = try engine.write { db in try Gauge.fetchOne(db, id: gauge.id) } }
                guard case DecodingError.dataCorrupted? = read else {
                    return XCTFail("expected dataCorrupted, got \(String(describing: read))")
                }
                // x / 0 is NULL, which the NOT NULL column refuses.
                XCTAssertEqual((divided as? DatabaseError)?.isConstraintViolation, true)
            } else {
                let widened = error { _ = try engine.updateAll(Gauge.all(), [small.set(to: small + 1)]) }
                XCTAssertEqual(engine.engineErrorCode(widened), "22003")
                XCTAssertEqual(engine.engineErrorCode(divided), "22012")
                XCTAssertEqual(try engine.write { db in try Gauge.fetchOne(db, id: gauge.id) }, gauge)
            }
            XCTAssertEqual(try engine.integer("SELECT value FROM gauges"), 1)
        }
    }
}
