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
}
