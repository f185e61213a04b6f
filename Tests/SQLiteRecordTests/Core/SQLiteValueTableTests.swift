import Foundation
import XCTest

@testable import SQLiteRecord

/// The one value table: an ``SQLiteValue`` (what ``Row`` reads) and a statement's column read in place (what
/// the decoder reads) convert alike, value for value, with the same reasons for what does not convert.
final class SQLiteValueTableTests: XCTestCase {
    private let stored: [SQLiteValue] = [
        .null, .integer(0), .integer(1), .integer(70_000), .integer(-3), .integer(Int64.max), .real(2), .real(1.5),
        .real(.infinity), .real(1e300), .text("true"), .text("N"), .text("175"), .text("2024-05-01 12:30:00"),
        .text("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"), .text("19.99"), .text("12abc"), .text(""),
        .blob(Data(repeating: 7, count: 16)), .blob(Data([1, 2])),
    ]

    /// Runs `convert` on each stored value, once as an SQLiteValue and once as the column of a statement that
    /// selects it, and requires the same outcome.
    private func assertAlike<T: Equatable>(
        _ convert: (any SQLiteStoredValue) throws(SQLiteConversionFailure) -> T, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let db = try Database()
        for value in stored {
            let statement = try db.makeStatement(sql: "SELECT ?")
            try statement.bind(value, at: 1)
            XCTAssertTrue(try statement.step())
            let column = StatementColumn(statement.row, at: 0)
            let fromValue = Result { () throws(SQLiteConversionFailure) -> T in try convert(value) }
            let fromColumn = Result { () throws(SQLiteConversionFailure) -> T in try convert(column) }
            switch (fromValue, fromColumn) {
            case (.success(let left), .success(let right)):
                XCTAssertEqual(left, right, "\(value)", file: file, line: line)
            case (.failure(let left), .failure(let right)):
                XCTAssertEqual(left.kind, right.kind, "\(value)", file: file, line: line)
                XCTAssertEqual(left.reason, right.reason, "\(value)", file: file, line: line)
            default:
                XCTFail("\(value): \(fromValue) from the value, \(fromColumn) from the column", file: file, line: line)
            }
        }
    }

    func testEveryConversionReadsAValueAndAColumnAlike() throws {
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.integer(Int16.self, from: value)
        }
        try assertAlike { value throws(SQLiteConversionFailure) in
            try SQLiteValueTable.integer(UInt64.self, from: value)
        }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.double(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.float(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.bool(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.string(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.data(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.date(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.uuid(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.decimal(from: value) }
        try assertAlike { value throws(SQLiteConversionFailure) in try SQLiteValueTable.url(from: value) }
    }

    /// The reasons a user reads in the decoder's errors, from the table.
    func testTheReasonsOfTheTable() {
        func reason<T>(_ convert: () throws(SQLiteConversionFailure) -> T) -> String? {
            do throws(SQLiteConversionFailure) {
                _ = try convert()
                return nil
            } catch { return error.reason }
        }
        XCTAssertEqual(
            reason { () throws(SQLiteConversionFailure) in
                try SQLiteValueTable.integer(Int16.self, from: SQLiteValue.integer(70_000))
            }, "out of range")
        XCTAssertEqual(
            reason { () throws(SQLiteConversionFailure) in
                try SQLiteValueTable.integer(Int.self, from: SQLiteValue.real(1.5))
            }, "which is not a whole number")
        XCTAssertEqual(
            reason { () throws(SQLiteConversionFailure) in try SQLiteValueTable.bool(from: SQLiteValue.integer(2)) },
            "which is neither 0 nor 1")
        XCTAssertEqual(
            reason { () throws(SQLiteConversionFailure) in try SQLiteValueTable.uuid(from: SQLiteValue.blob(Data([1])))
            }, "which is not 16 bytes")
        XCTAssertEqual(
            reason { () throws(SQLiteConversionFailure) in try SQLiteValueTable.decimal(from: SQLiteValue.text("12abc"))
            }, "which is not a decimal number")
        XCTAssertEqual(Int16(sqliteValue: .integer(70_000)), nil)
        XCTAssertEqual(Int16(sqliteValue: .real(12)), 12)
    }
}
