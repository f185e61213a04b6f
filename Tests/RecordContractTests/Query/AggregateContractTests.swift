import Foundation
import SQLiteRecord
import XCTest

/// Aggregates read as the same Swift value on every engine, whatever type the engine's result has
/// (PostgreSQL's `avg` and `sum` of a BIGINT are NUMERIC, its `count` BIGINT; SQLite's are REAL and
/// INTEGER), and a value no Swift type asked for can hold is a `DecodingError` naming the column.
final class AggregateContractTests: RecordContractTestCase {
    struct Score: Record, Equatable {
        var id: Int64?
        var points: Int
        var weight: Double
        static let tableName = "scores"
    }

    /// Three scores whose points average to 3000005 / 3, a number with no exact Double.
    private func fill(_ engine: any ContractEngine) throws {
        try engine.createTable(Score.self)
        var scores = [
            Score(id: nil, points: 1_000_001, weight: 0.5), Score(id: nil, points: 1_000_002, weight: 0.25),
            Score(id: nil, points: 1_000_002, weight: 0.25),
        ]
        try engine.write { db in
            for index in scores.indices { try scores[index].insert(db) }
        }
    }

    func testAverageReadsAsTheSameDoubleDecimalAndIntOnEveryEngine() {
        onEachEngine { engine in
            try fill(engine)
            let points = Score.all().select(average(Column("points")))
            XCTAssertEqual(try engine.fetchOne(points, as: Double.self), 1_000_001.666_666_666_6)
            XCTAssertEqual(try engine.fetchOne(points, as: Double.self), 3_000_005.0 / 3.0)
            XCTAssertEqual(try engine.fetchOne(points, as: Decimal.self), Decimal(string: "1000001.6666666666"))
            let weights = Score.all().select(average(Column("weight")))
            XCTAssertEqual(try engine.fetchOne(weights, as: Double.self), 1.0 / 3.0)
            // An average with no fractional part reads as an Int; one with a fraction is refused.
            let whole = Score.filter(Column("points") == 1_000_002).select(average(Column("points")))
            XCTAssertEqual(try engine.fetchOne(whole, as: Int.self), 1_000_002)
            let mean = Score.all().select(average(Column("points")).forKey("mean"))
            let fraction = error { _ = try engine.fetchOne(mean, as: Int.self) }
            guard case DecodingError.dataCorrupted(let context)? = fraction else {
                return XCTFail("expected dataCorrupted, got \(String(describing: fraction))")
            }
            XCTAssertTrue(
                context.debugDescription.hasPrefix("Expected Int but column \"mean\" holds "), context.debugDescription)
            let none = Score.filter(Column("points") < 0).select(average(Column("points")))
            XCTAssertNil(try engine.fetchOne(none, as: Double.self))
        }
    }

    func testSumTotalAndCountReadAsTheSameIntDoubleAndDecimalOnEveryEngine() {
        onEachEngine { engine in
            try fill(engine)
            let sumOfPoints = Score.all().select(sum(Column("points")))
            XCTAssertEqual(try engine.fetchOne(sumOfPoints, as: Int.self), 3_000_005)
            XCTAssertEqual(try engine.fetchOne(sumOfPoints, as: Int64.self), 3_000_005)
            XCTAssertEqual(try engine.fetchOne(sumOfPoints, as: Double.self), 3_000_005.0)
            XCTAssertEqual(try engine.fetchOne(sumOfPoints, as: Decimal.self), Decimal(3_000_005))
            let sumOfWeights = Score.all().select(sum(Column("weight")))
            XCTAssertEqual(try engine.fetchOne(sumOfWeights, as: Double.self), 1.0)
            XCTAssertEqual(try engine.fetchOne(sumOfWeights, as: Int.self), 1)
            let totalOfPoints = Score.all().select(total(Column("points")))
            XCTAssertEqual(try engine.fetchOne(totalOfPoints, as: Double.self), 3_000_005.0)
            XCTAssertEqual(try engine.fetchOne(totalOfPoints, as: Int.self), 3_000_005)
            let noRows = Score.filter(Column("points") < 0)
            XCTAssertNil(try engine.fetchOne(noRows.select(sum(Column("points"))), as: Int.self))
            XCTAssertEqual(try engine.fetchOne(noRows.select(total(Column("points"))), as: Double.self), 0.0)
            let counted = Score.all().select(SQLExpression.countAll)
            XCTAssertEqual(try engine.fetchOne(counted, as: Int.self), 3)
            XCTAssertEqual(try engine.fetchOne(counted, as: Double.self), 3.0)
            XCTAssertEqual(try engine.fetchOne(counted, as: Decimal.self), Decimal(3))
            let distinct = Score.all().select(count(distinct: Column("points")))
            XCTAssertEqual(try engine.fetchOne(distinct, as: Int.self), 2)
            XCTAssertEqual(try engine.fetchOne(noRows.select(count(Column("points"))), as: Int.self), 0)
        }
    }

    /// An integer sum past 2^53 reads as the exact `Int` on both, and is refused as a `Double`, which cannot
    /// hold it; its `total` is the nearest Double on both.
    func testASumPast2To53ReadsExactlyAsAnIntAndItsTotalAsTheNearestDouble() {
        onEachEngine { engine in
            try engine.createTable(Score.self)
            var score = Score(id: nil, points: 9_007_199_254_740_993, weight: 0)
            try engine.write { db in try score.insert(db) }
            let summed = Score.all().select(sum(Column("points")).forKey("summed"))
            XCTAssertEqual(try engine.fetchOne(summed, as: Int.self), 9_007_199_254_740_993)
            XCTAssertEqual(try engine.fetchOne(summed, as: Decimal.self), Decimal(string: "9007199254740993"))
            let inexact = error { _ = try engine.fetchOne(summed, as: Double.self) }
            guard case DecodingError.dataCorrupted(let context)? = inexact else {
                return XCTFail("expected dataCorrupted, got \(String(describing: inexact))")
            }
            XCTAssertTrue(
                context.debugDescription.hasPrefix("Expected Double but column \"summed\" holds "),
                context.debugDescription)
            let totalled = Score.all().select(total(Column("points")))
            XCTAssertEqual(try engine.fetchOne(totalled, as: Double.self), 9_007_199_254_740_992.0)
        }
    }

    /// The one difference left: SQLite's `sum` of integers beyond `Int64` is an error of the statement
    /// ("integer overflow"); PostgreSQL's is a NUMERIC, read as a `Decimal`, and refused as an `Int` naming
    /// the column, the value and its type.
    func testASumBeyondInt64IsRefusedAsAnInt() {
        onEachEngine { engine in
            try engine.createTable(Score.self)
            var scores = [Score(id: nil, points: .max, weight: 0), Score(id: nil, points: 1, weight: 0)]
            try engine.write { db in
                for index in scores.indices { try scores[index].insert(db) }
            }
            let request = Score.all().select(sum(Column("points")).forKey("total_points"))
            let thrown = error { _ = try engine.fetchOne(request, as: Int.self) }
            if engine.isSQLite {
                guard let databaseError = thrown as? DatabaseError else {
                    return XCTFail("expected DatabaseError, got \(String(describing: thrown))")
                }
                XCTAssertEqual(databaseError.message, "integer overflow")
            } else {
                guard case DecodingError.dataCorrupted(let context)? = thrown else {
                    return XCTFail("expected dataCorrupted, got \(String(describing: thrown))")
                }
                XCTAssertEqual(
                    context.debugDescription,
                    "Expected Int but column \"total_points\" holds NUMERIC 9223372036854775808, out of range")
                XCTAssertEqual(
                    try engine.fetchOne(request, as: Decimal.self), Decimal(string: "9223372036854775808"))
            }
        }
    }
}
