#if PostgreSQL
import Dispatch
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A task cancelled in the middle of a parent and children save, at the children's `willSave`: after the
/// parent's row was written and before the children's batch is sent.
final class PostgresHostileCancelTests: PostgresGatedSaveTestCase {
    func testACancelAtAChildsWillSaveWritesNothingAndLeavesTheRecordsAsTheyCame() async throws {
        let gate = Gate(name: "Lyon")
        City.gate = gate
        let pool = self.pool!
        final class Seen: @unchecked Sendable {
            var country: Country?
            var cities: [City] = []
        }
        let seen = Seen()
        let task = Task {
            try await pool.write { connection in
                var country = Country(id: nil, name: "France")
                var cities = [City(id: nil, countryId: nil, name: "Paris"), City(id: nil, countryId: nil, name: "Lyon")]
                do {
                    try country.save(connection, children: &cities)
                } catch {
                    seen.country = country
                    seen.cities = cities
                    throw error
                }
            }
        }
        await gate.waitForArrival()
        task.cancel()
        gate.release()
        do {
            try await task.value
            XCTFail("the save committed")
        } catch is CancellationError {}
        XCTAssertEqual(seen.country, Country(id: nil, name: "France"))
        XCTAssertEqual(seen.cities.map(\.id), [nil, nil])
        XCTAssertEqual(seen.cities.map(\.countryId), [nil, nil])
        XCTAssertEqual(try storedCounts(), "0,0")
        // The pool's next save runs, and the same one through the pool is whole.
        City.gate = nil
        var country = Country(id: nil, name: "France")
        var cities = [City(id: nil, countryId: nil, name: "Paris"), City(id: nil, countryId: nil, name: "Lyon")]
        try await country.save(pool, children: &cities)
        XCTAssertNotNil(country.id)
        XCTAssertEqual(cities.map(\.countryId), [country.id, country.id])
        XCTAssertEqual(try storedCounts(), "1,2")
    }

    func testACancelledPoolChildrenSaveLeavesTheCallersRecordsUntouched() async throws {
        let gate = Gate(name: "Lyon")
        City.gate = gate
        let pool = self.pool!
        let task = Task { () -> (Country, [City]) in
            var country = Country(id: nil, name: "France")
            var cities = [City(id: nil, countryId: nil, name: "Paris"), City(id: nil, countryId: nil, name: "Lyon")]
            do {
                try await country.save(pool, children: &cities)
            } catch {
                XCTAssertTrue(error is CancellationError, "\(error)")
            }
            return (country, cities)
        }
        await gate.waitForArrival()
        task.cancel()
        gate.release()
        let (country, cities) = await task.value
        XCTAssertNil(country.id)
        XCTAssertEqual(cities.map(\.id), [nil, nil])
        XCTAssertEqual(try storedCounts(), "0,0")
    }
}
#endif
