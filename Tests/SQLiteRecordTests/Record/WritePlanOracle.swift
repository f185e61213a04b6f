import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// The oracle of the write plan reuse tests: the same records written with the plans kept and reused, and
/// with a fresh plan made from each record (the plans dropped before every write), compared outcome by
/// outcome and row by row.
enum WritePlanOracle {
    /// Everything a user could inspect about an error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "DatabaseError(\(error.resultCode), \(error.message), sql: \(error.sql ?? "nil"), "
                + "arguments: \(error.arguments.map { "\($0.values)" } ?? "nil"), description: \(error))"
        }
        if let error = error as? EncodingError, case .invalidValue(let value, let context) = error {
            return "EncodingError.invalidValue(\(value), path: \(context.codingPath.map(\.stringValue)), "
                + "\(context.debugDescription))"
        }
        return "\(type(of: error)): \(error)"
    }

    /// Every row of `table` as SQL literals, in rowid order.
    static func rows(_ db: Database, _ table: String) throws -> [String] {
        let names = try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
        let expression = names.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
        return try db.fetchAll(String.self, sql: "SELECT \(expression) FROM \"\(table)\" ORDER BY rowid")
    }

    /// Every row of `table` with each value's storage class and bytes: exact where quote() is not (text
    /// holding NUL).
    static func rawRows(_ db: Database, _ table: String) throws -> [String] {
        let names = try db.fetchAll(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
        let expression = names.map { "typeof(\"\($0)\") || ':' || hex(\"\($0)\")" }.joined(separator: " || '|' || ")
        return try db.fetchAll(String.self, sql: "SELECT \(expression) FROM \"\(table)\" ORDER BY rowid")
    }
}

extension XCTestCase {
    /// What the oracle does with each record.
    enum WritePlanOperation { case insert, update }

    /// Writes `records` on a database where the plans are kept and reused, and on one where the plans are
    /// dropped before every write (each record then makes its own plan, bound from its own encoding, as the
    /// first record of a type does); asserts each outcome and the final rows are equal. `setup` records are
    /// inserted first on both (for updates). Returns the outcomes and rows of the database that kept its plans.
    @discardableResult
    func assertKeptPlanMatchesFreshPlans<R: Record>(
        _ schema: String, table: String, _ records: [R], operation: WritePlanOperation = .insert, setup: [R] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (outcomes: [String], rows: [String]) {
        func run(freshPlans: Bool) throws -> (outcomes: [String], rows: [String], raw: [String], db: Database) {
            let db = try Database()
            try db.execute(sql: schema)
            for var record in setup { try record.insert(db) }
            var outcomes: [String] = []
            for var record in records {
                if freshPlans { db.recordCache = nil }
                do {
                    switch operation {
                    case .insert: try record.insert(db)
                    case .update: try record.update(db)
                    }
                    outcomes.append("ok id=\((record.id as? Int64).map(String.init) ?? "nil")")
                } catch {
                    outcomes.append(WritePlanOracle.describe(error))
                }
            }
            return (outcomes, try WritePlanOracle.rows(db, table), try WritePlanOracle.rawRows(db, table), db)
        }
        let kept = try run(freshPlans: false)
        let fresh = try run(freshPlans: true)
        XCTAssertEqual(kept.outcomes.count, fresh.outcomes.count, file: file, line: line)
        for (index, (outcome, reference)) in zip(kept.outcomes, fresh.outcomes).enumerated() {
            XCTAssertEqual(outcome, reference, "record \(index): kept plan vs fresh plan", file: file, line: line)
        }
        XCTAssertEqual(kept.rows, fresh.rows, "rows: kept plan vs fresh plans", file: file, line: line)
        XCTAssertEqual(kept.raw, fresh.raw, "raw rows: kept plan vs fresh plans", file: file, line: line)
        let plans = RecordConnectionCache.of(kept.db)
        let kinds: [RecordWritePlan.Kind] = [.insertWithID, .insertWithoutID, .update]
        XCTAssertTrue(
            kinds.contains { plans.writePlan(for: ObjectIdentifier(R.self), $0) != nil },
            "the database kept a plan (else the test did not exercise it)", file: file, line: line)
        XCTAssertGreaterThan(
            plans.writes, 0, "a record was written through a kept plan (else the test did not exercise it)",
            file: file, line: line)
        return (kept.outcomes, kept.rows)
    }

    /// The plan `db` keeps for `type` and `kind`; nil when it keeps none.
    func keptPlan<R: Record>(_ type: R.Type, _ kind: RecordWritePlan.Kind, in db: Database) -> RecordWritePlan? {
        RecordConnectionCache.of(db).writePlan(for: ObjectIdentifier(type), kind)
    }
}
