import Foundation
import XCTest

@testable import SQLiteRecord

/// valgrind's memcheck on the sample found every fetch leaking its decoding context and column lookup: the
/// context kept its keyed container for the next row, and the container held the context.
final class DecodingContextLeakTests: XCTestCase {
    func testADecodingContextIsFreedAfterItsFetch() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        let statement = try db.makeStatement(sql: "SELECT * FROM countries")
        weak var released: RowDecodingContext?
        do {
            let context = RowDecodingContext(
                statement: statement, tableName: "countries", missingOptionalColumnIsNil: false)
            released = context
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(try context.decodeRow(Country.self), france)
            XCTAssertNotNil(context.containerBox, "the container is kept for the next row")
        }
        XCTAssertNil(released, "the context outlived its fetch")
    }
}
