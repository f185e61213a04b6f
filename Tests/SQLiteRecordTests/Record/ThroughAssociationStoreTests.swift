import Foundation
import SQLiteRecord
import XCTest

/// A landmark of a city: what a country reaches through its cities.
private struct Landmark: Record, Equatable, Sendable {
    var id: Int64?
    var cityId: Int64
    var name: String
    static let tableName = "landmarks"
    enum CodingKeys: String, CodingKey {
        case id, name
        case cityId = "city_id"
    }
}

private struct CountryLandmarks: Decodable, Equatable, Sendable {
    var country: Country
    var landmarks: [Landmark]
}

/// A through association whose second step is to many (a country's landmarks, through its cities), loaded
/// through the default queue and its async twins.
final class ThroughAssociationStoreTests: XCTestCase {
    private let landmarks = Country.hasMany(
        Landmark.self, through: Country.cities.order(Column("population").descending),
        using: City.hasMany(Landmark.self).order(Column("name").ascending))

    override func setUpWithError() throws {
        let queue = try WorldFixtures.makeQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE landmarks (
                        id INTEGER PRIMARY KEY, city_id INTEGER NOT NULL REFERENCES cities(id), name TEXT NOT NULL)
                    """)
        }
        try RecordStore.use(queue)
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var french = [
            City(id: nil, countryId: nil, name: "Lyon", population: 520_000, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Paris", population: 2_100_000, foundedAt: nil),
        ]
        try france.save(children: &french)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 125_000_000)
        var japanese = [City(id: nil, countryId: nil, name: "Tokyo", population: 14_000_000, foundedAt: nil)]
        try japan.save(children: &japanese)
        var nauru = Country(id: nil, name: "Nauru", iso: "NR", population: 12_000)
        try nauru.save()
        for (city, name) in [(2, "Louvre"), (1, "Fourvière"), (2, "Eiffel Tower"), (3, "Skytree")] as [(Int64, String)]
        {
            var landmark = Landmark(id: nil, cityId: city, name: name)
            try landmark.save()
        }
    }

    override func tearDown() {
        RecordStore.reset()
    }

    func testEachCitysLandmarksInTheCitiesOrder() throws {
        let loaded = try Country.order(Column("name").ascending).including(all: landmarks)
            .fetch(as: CountryLandmarks.self)
        XCTAssertEqual(loaded.map(\.country.name), ["France", "Japan", "Nauru"])
        // Paris (the larger) first, each city's landmarks by name.
        XCTAssertEqual(
            loaded.map { $0.landmarks.map(\.name) }, [["Eiffel Tower", "Louvre", "Fourvière"], ["Skytree"], []])
        let groups = try Country.filter(Column("iso") == "JP").including(all: landmarks).fetchGroups()
        XCTAssertEqual(groups.map { $0.1.map(\.name) }, [["Skytree"]])
    }

    func testTheAsyncTwins() async throws {
        let loaded = try await Country.order(Column("name").descending).including(all: landmarks.limit(2))
            .fetch(as: CountryLandmarks.self)
        XCTAssertEqual(loaded.map { $0.landmarks.map(\.name) }, [[], ["Skytree"], ["Eiffel Tower", "Louvre"]])
        let groups = try await Country.including(all: landmarks.order(Column("name").descending)).fetchGroups()
        XCTAssertEqual(groups.map { $0.1.map(\.name) }, [["Louvre", "Fourvière", "Eiffel Tower"], ["Skytree"], []])
    }
}
