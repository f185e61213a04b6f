#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A loop of `where:` fetches of one form: the connection keeps the last form's SQL text and checked columns
/// (forgotten with the table's columns), the decoding of the last result of a SQL text (moved off its rows),
/// and one parameter buffer. Each call still finds its own rows and checks what it was not checked for
/// (decoders kept past such fetches: `PostgresRowDecoderKeyTypeTests`).
final class PostgresFetchFormTests: PostgresTestCase {
    typealias Town = PostgresTown

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Town.createTable(in: connection)
        let towns: [(String, String?, Int64)] = [
            ("Lyon", "ARA", 522_969), ("Grenoble", "ARA", 158_198), ("Annecy", "ARA", 130_721),
            ("Rennes", "BRE", 222_485), ("Brest", "BRE", 139_926), ("Nowhere", nil, 12),
        ]
        for (name, region, population) in towns {
            var town = Town(id: nil, name: name, region: region, population: population)
            try town.insert(connection)
        }
    }

    private func names(region: String?, limit: Int? = nil) throws -> [String] {
        try Town.fetch(connection, where: ["region": region], orderBy: [.descending("population")], limit: limit)
            .map(\.name)
    }

    func testALoopOfFetchesOfOneFormFindsEachCallsRows() throws {
        for _ in 0..<3 {
            XCTAssertEqual(try names(region: "ARA", limit: 2), ["Lyon", "Grenoble"])
            XCTAssertEqual(try names(region: "BRE", limit: 2), ["Rennes", "Brest"])
            XCTAssertEqual(try names(region: "XX", limit: 2), [])
            XCTAssertEqual(try names(region: nil, limit: 2), ["Nowhere"])
            XCTAssertEqual(try names(region: "ARA"), ["Lyon", "Grenoble", "Annecy"])
        }
        // Another key set, then the first again.
        XCTAssertEqual(try Town.fetch(connection, where: ["name": "Brest"]).map(\.population), [139_926])
        XCTAssertEqual(try names(region: "BRE", limit: 1), ["Rennes"])
    }

    /// A value larger than the parameter buffer the connection keeps, then small ones: each call binds its own.
    func testAHugeArgumentThenSmallOnesEachFindTheirRows() throws {
        let huge = String(repeating: "é", count: 100_000)
        XCTAssertEqual(try names(region: huge, limit: 2), [])
        XCTAssertEqual(try names(region: "BRE", limit: 2), ["Rennes", "Brest"])
        XCTAssertThrowsError(try connection.query("SELECT 1 / $1::int", [PostgresValue(Int64(0))]))
        XCTAssertEqual(try names(region: "ARA", limit: 1), ["Lyon"])
    }

    /// The columns a fetch was checked for are checked again once this connection changed the table: the
    /// dropped column is reported by name, as before any fetch.
    func testAColumnDroppedAfterAFetchIsReportedByName() throws {
        XCTAssertEqual(try names(region: "ARA", limit: 1), ["Lyon"])
        try connection.execute("ALTER TABLE towns DROP COLUMN region")
        XCTAssertThrowsError(try names(region: "ARA", limit: 1)) { error in
            guard case RecordError.unknownColumn(let table, let column, let columns) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "towns")
            XCTAssertEqual(column, "region")
            XCTAssertEqual(columns, ["id", "name", "population"])
        }
    }

    func testAnOrderingColumnDroppedAfterAFetchIsReportedByName() throws {
        XCTAssertEqual(try names(region: "BRE"), ["Rennes", "Brest"])
        try connection.execute("ALTER TABLE towns DROP COLUMN population")
        XCTAssertThrowsError(try Town.fetch(connection, where: ["region": "BRE"], orderBy: [.descending("population")]))
        { error in
            guard case RecordError.unknownColumn(_, let column, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(column, "population")
        }
    }
}
#endif
