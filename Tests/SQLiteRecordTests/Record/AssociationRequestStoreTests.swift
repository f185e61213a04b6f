import Foundation
import SQLiteRecord
import XCTest

/// A flight from a country: a child whose foreign key is not the conventional one.
private struct Departure: Record, Equatable {
    var id: Int64?
    var originId: Int64?
    var code: String
    static let tableName = "departures"
    enum CodingKeys: String, CodingKey {
        case id, code
        case originId = "origin_id"
    }
}

/// A country and its cities, as an eager load decodes them.
private struct CountryCities: Decodable, Equatable, Sendable {
    var country: Country
    var cities: [City]
}

/// A city and its country.
private struct CityCountry: Decodable, Equatable, Sendable {
    var city: City
    var country: Country
}

/// Eager loads, joined fetches and declared children saves through the default queue, and their async twins.
final class AssociationRequestStoreTests: XCTestCase {
    private let departures = Country.hasMany(Departure.self, using: "origin_id")

    override func setUpWithError() throws {
        let queue = try WorldFixtures.makeQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE departures (
                        id INTEGER PRIMARY KEY, origin_id INTEGER NOT NULL REFERENCES countries(id), code TEXT NOT NULL)
                    """)
        }
        try RecordStore.use(queue)
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var french = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_100_000, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 520_000, foundedAt: nil),
        ]
        try france.save(children: &french)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 125_000_000)
        var japanese = [City(id: nil, countryId: nil, name: "Tokyo", population: 14_000_000, foundedAt: nil)]
        try japan.save(children: &japanese)
    }

    override func tearDown() {
        RecordStore.reset()
    }

    private var eagerLoad: IncludingAllRequest<Country, City> {
        Country.order(Column("name").ascending).including(all: Country.cities.order(Column("population").descending))
    }

    private var join: JoinedRequest<City, Country> {
        City.order(Column("name").ascending).including(required: City.country)
    }

    func testDefaultStoreForms() throws {
        let countries = try eagerLoad.fetch(as: CountryCities.self)
        XCTAssertEqual(countries.map(\.country.name), ["France", "Japan"])
        XCTAssertEqual(countries.map { $0.cities.map(\.name) }, [["Paris", "Lyon"], ["Tokyo"]])
        XCTAssertEqual(try eagerLoad.fetchGroups().map { $0.1.count }, [2, 1])
        let rows = try join.fetch(as: CityCountry.self)
        XCTAssertEqual(rows.map(\.city.name), ["Lyon", "Paris", "Tokyo"])
        XCTAssertEqual(rows.map(\.country.iso), ["FR", "FR", "JP"])
        XCTAssertEqual(try join.fetchPairs().map { $0.1?.iso }, ["FR", "FR", "JP"])
    }

    func testAsyncForms() async throws {
        let countries = try await eagerLoad.fetch(as: CountryCities.self)
        XCTAssertEqual(countries.map { $0.cities.map(\.name) }, [["Paris", "Lyon"], ["Tokyo"]])
        let groups = try await eagerLoad.fetchGroups()
        XCTAssertEqual(groups.map(\.0.iso), ["FR", "JP"])
        let rows = try await join.fetch(as: CityCountry.self)
        XCTAssertEqual(rows.map(\.country.iso), ["FR", "FR", "JP"])
        let pairs = try await join.fetchPairs()
        XCTAssertEqual(pairs.map(\.0.name), ["Lyon", "Paris", "Tokyo"])
    }

    func testSavingChildrenForANamedAssociation() throws {
        var italy = Country(id: nil, name: "Italy", iso: "IT", population: 59_000_000)
        var flights = [Departure(id: nil, originId: nil, code: "AZ1")]
        try italy.save(children: &flights, for: departures)
        XCTAssertEqual(italy.id, 3)
        XCTAssertEqual(flights.map(\.originId), [3])
        XCTAssertEqual(try italy.request(for: departures).fetch(), flights)
    }

    func testSavingChildrenForANamedAssociationAsync() async throws {
        var spain = Country(id: nil, name: "Spain", iso: "ES", population: 48_000_000)
        var flights = [Departure(id: nil, originId: nil, code: "IB1"), Departure(id: nil, originId: nil, code: "IB2")]
        try await spain.save(children: &flights, for: departures)
        XCTAssertEqual(spain.id, 3)
        XCTAssertEqual(flights.map(\.originId), [3, 3])
        let stored = try await spain.request(for: departures).order(Column("code").ascending).fetch()
        XCTAssertEqual(stored, flights)
    }

    func testWithoutADefaultStoreTheFormsThrow() throws {
        RecordStore.reset()
        XCTAssertThrowsError(try eagerLoad.fetchGroups()) { XCTAssertEqual($0 as? RecordError, .noDefaultStore) }
        XCTAssertThrowsError(try join.fetchPairs()) { XCTAssertEqual($0 as? RecordError, .noDefaultStore) }
    }

    func testWithoutADefaultStoreTheAsyncFormsThrow() async throws {
        RecordStore.reset()
        do {
            _ = try await join.fetch(as: CityCountry.self)
            XCTFail("no default store")
        } catch {
            XCTAssertEqual(error as? RecordError, .noDefaultStore)
        }
    }
}
