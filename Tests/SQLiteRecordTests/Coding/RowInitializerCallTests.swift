import XCTest

@testable import SQLiteRecord

/// A row initializer's record coming out of a fetch generic over `T`: whole and as its own type, another type
/// refused before `init(row:)` runs, and a row initializer that decodes another type through the same context
/// (which replaces the context's call while the first one runs) leaves the first call valid. Run under the
/// address sanitizer, a record read from freed or too-small memory, or a call object freed while it runs,
/// would fail.
final class RowInitializerCallTests: XCTestCase {
    /// Long strings (not stored inline), so that a lost retain or release would show.
    private struct City: FetchableRecord, Equatable {
        var name: String
        var timezone: String?
        var population: Int64

        init(name: String, timezone: String?, population: Int64) {
            self.name = name
            self.timezone = timezone
            self.population = population
        }

        init(row: borrowing FetchedRow) throws {
            name = try row[0, as: String.self]
            timezone = try row[1, as: String?.self]
            population = try row[2, as: Int64.self]
        }
    }

    /// Larger than `City`; its row initializer decodes the same row as a `City` first, through the context
    /// it was handed.
    private struct Region: FetchableRecord, Equatable {
        var capital: City
        var area: Double

        init(row: borrowing FetchedRow) throws {
            capital = try XCTUnwrap(row.context).decodeRow(City.self)
            area = try row[2, as: Double.self]
        }
    }

    /// A row initializer that must not run.
    private struct Refused: FetchableRecord {
        struct Ran: Error {}
        init(row: borrowing FetchedRow) throws { throw Ran() }
    }

    private let longName = String(repeating: "Saint-Rémy-de-Provence ", count: 4)

    private let sql = "SELECT ?, 'Europe/Paris', 9547 UNION ALL SELECT 'Arles', NULL, 51031"

    /// The two rows of ``sql`` (the first named ``longName``), decoded as `T` through one context.
    private func decodeRows<T: Decodable>(as type: T.Type) throws -> [T] {
        let db = try Database()
        let statement = try db.makeStatement(sql: sql)
        try statement.bind(.text(longName), at: 1)
        let context = RowDecodingContext(statement: statement, tableName: nil, missingOptionalColumnIsNil: true)
        var rows: [T] = []
        while try statement.step() { rows.append(try context.decodeRow(type)) }
        return rows
    }

    func testTheRecordComesOutWholeAsItsOwnType() throws {
        XCTAssertEqual(
            try decodeRows(as: City.self),
            [
                City(name: longName, timezone: "Europe/Paris", population: 9_547),
                City(name: "Arles", timezone: nil, population: 51_031),
            ])
    }

    func testAnotherTypeIsRefusedWithoutCallingTheRowInitializer() throws {
        let db = try Database()
        let statement = try db.makeStatement(sql: sql)
        let context = RowDecodingContext(statement: statement, tableName: nil, missingOptionalColumnIsNil: true)
        XCTAssertTrue(try statement.step())
        let call = RowInitializerCall.of(Refused.self)
        XCTAssertThrowsError(try call.call(as: City.self, context: context)) { error in
            guard case DecodingError.typeMismatch(let type, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(type == City.self)
            XCTAssertEqual(detail.debugDescription, "A row initializer was asked for a City")
        }
        XCTAssertThrowsError(try call.call(as: Refused.self, context: context)) { error in
            XCTAssertTrue(error is Refused.Ran)
        }
    }

    func testARowInitializerDecodingAnotherTypeThroughItsContextLeavesItsOwnCallValid() throws {
        // Each Region row decodes a City first: the context's call turns from Region's to City's and back on
        // every row, while Region's runs.
        let regions = try decodeRows(as: Region.self)
        XCTAssertEqual(regions.map(\.capital.name), [longName, "Arles"])
        XCTAssertEqual(regions.map(\.area), [9_547, 51_031])
        XCTAssertEqual(regions.last?.capital, City(name: "Arles", timezone: nil, population: 51_031))
    }
}
