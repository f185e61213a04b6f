// The README's Swift blocks, verbatim: this file compiles them, `testTheTourRuns` runs them, and
// `testTheREADMEShowsThisCode` fails when the README and this file drift apart.
// swift-format-ignore-file: the README's layout is kept as it is.
import Foundation
import SQLiteRecord

struct Country: Record {
    var id: Int64?  // nil until saved; save() sets it from the rowid
    var name: String
    var iso: String
    var population: Int64
    static let tableName = "countries"
}

struct City: Record {
    var id: Int64?
    var countryId: Int64?
    var name: String
    var population: Int
    var foundedAt: Date?
    static let tableName = "cities"
    enum CodingKeys: String, CodingKey {
        case id, name, population
        case countryId = "country_id"
        case foundedAt = "founded_at"
    }
    mutating func bind(to parent: any Record) {
        if let country = parent as? Country { countryId = country.id }
    }
}

// The README's association, declared as its text says.
extension Country {
    static let cities = hasMany(City.self)
}

struct CountryWithCities: Decodable {
    var country: Country
    var cities: [City]
}

import XCTest

// The README's live query ("Observing changes").
#if canImport(Observation)
@available(macOS 14, iOS 17, *)
@MainActor
func largestCountry(in writer: some AsyncDatabaseWriter) -> LiveQuery<[Country]> {
    let query = LiveQuery(Country.all().order(Column("population").descending).limit(1), in: writer)
    // query.isLoading, then query.value == [the largest country], again after each commit to countries
    return query
}
#endif

final class ReadmeTourTests: XCTestCase {
    #if canImport(Observation)
    /// The README's live query: loading, then the largest country, then the new largest after a commit.
    @MainActor
    func testTheLiveQueryFollowsTheLargestCountry() async throws {
        guard #available(macOS 14, iOS 17, *) else { throw XCTSkip("the Observation framework needs macOS 14") }
        let queue = try DatabaseQueue()
        try await queue.write { db in try Country.createTable(in: db) }
        var france = Country(id: nil, name: "France", iso: "FR", population: 68_000_000)
        try await france.insert(queue)
        let query = largestCountry(in: queue)
        XCTAssertTrue(query.isLoading)
        try await waitForLargest("France", query)
        var germany = Country(id: nil, name: "Germany", iso: "DE", population: 84_000_000)
        try await germany.insert(queue)
        try await waitForLargest("Germany", query)
    }

    @available(macOS 14, iOS 17, *)
    @MainActor
    private func waitForLargest(_ name: String, _ query: LiveQuery<[Country]>) async throws {
        let deadline = Date().addingTimeInterval(5)
        while query.value?.map(\.name) != [name] && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertEqual(query.value?.map(\.name), [name])
    }
    #endif

    private var folder: URL!
    private var previousDirectory = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        previousDirectory = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
    }

    override func tearDownWithError() throws {
        RecordStore.reset()
        _ = FileManager.default.changeCurrentDirectoryPath(previousDirectory)
        try FileManager.default.removeItem(at: folder)
    }

    func testTheTourRuns() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS countries (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, iso TEXT NOT NULL UNIQUE, population INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS cities (
                    id INTEGER PRIMARY KEY, country_id INTEGER NOT NULL REFERENCES countries(id),
                    name TEXT NOT NULL, population INTEGER NOT NULL, founded_at TEXT);
                """)
        }
        try RecordStore.use(queue)

        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try france.save()  // INSERT; france.id is set
        france.population += 1
        try france.save()  // UPDATE "countries" SET ... WHERE "id" = ?

        var cities = [
            City(id: nil, countryId: nil, name: "Paris", population: 2_138_551, foundedAt: nil),
            City(id: nil, countryId: nil, name: "Lyon", population: 522_969, foundedAt: nil),
        ]
        try france.save(children: &cities)  // one transaction: bind(to:) then save for each city

        let big = try City.fetch(where: ["country_id": france.id], orderBy: [.descending("population")], limit: 10)
        let one = try City.fetchOne(id: 1)
        let n = try City.count(where: ["country_id": france.id])
        let joined = try City.fetch(
            sql: "SELECT cities.* FROM cities JOIN countries ON countries.id = cities.country_id WHERE countries.iso = ?",
            arguments: ["FR"])
        try cities[1].delete()

        // An explicit connection: several calls in one transaction of your own.
        try queue.write { db in
            var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
            try japan.save(db)
            var tokyo = [City(id: nil, countryId: nil, name: "Tokyo", population: 9_733_276, foundedAt: nil)]
            try japan.save(db, children: &tokyo)
        }

        var more = [
            City(id: nil, countryId: france.id, name: "Marseille", population: 870_731, foundedAt: nil),
            City(id: nil, countryId: france.id, name: "Nice", population: 342_669, foundedAt: nil),
        ]
        try City.save(&more)  // many records, one transaction
        let large = try City.fetch(where: "population > ?", arguments: [500_000], orderBy: [.ascending("name")])
        let second = try City.fetch(orderBy: [.ascending("name")], limit: 1, offset: 1)
        let removed = try City.deleteAll(where: ["name": "Nice"])
        let exists = try City.exists(id: 1)

        // SQLite itself, one call away: typed scalars, named arguments, rows, any Decodable.
        try queue.write { db in
            let count = try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? 0
            try db.execute(
                sql: "UPDATE cities SET population = :population WHERE name = :name",
                arguments: ["population": 2_145_906, "name": "Paris"])
            let changed = db.changesCount  // rows the last UPDATE changed
            let row = try db.fetchOne(sql: "SELECT name, population FROM cities WHERE id = ?", arguments: [1])
            let population = try row?["population", as: Int.self]
            let names = try db.fetchAll(String.self, sql: "SELECT name FROM cities ORDER BY name")
            print(count, changed, population ?? 0, names)
        }

        func biggestCities() async throws -> [City] {
            try await City.fetch(orderBy: [.descending("population")], limit: 3)
        }

        // A key the app chooses (UUID, String, an enum, or a struct of several columns): save() inserts or
        // updates the row with that key, in one INSERT ... ON CONFLICT statement.
        struct Traveler: Record {
            var id: UUID
            var name: String
            static let tableName = "travelers"
        }

        try queue.write { db in try Traveler.createTable(in: db) }
        var ann = Traveler(id: UUID(), name: "Ann")
        try ann.save()  // inserted
        ann.name = "Ann B."
        try ann.save()  // updated, never a second row
        let traveler = try Traveler.fetchOne(id: ann.id)

        let population = Column(City.CodingKeys.population)
        let name = Column(City.CodingKeys.name)
        let millions = try City.filter(population > 1_000_000 && name != "Tokyo")
            .order(population.descending)
            .fetch()  // SELECT * FROM "cities" WHERE "population" > ? AND "name" <> ? ORDER BY "population" DESC
        let marseilles = try City.filter(name.hasPrefix("Mar")).count()  // % and _ in the text are plain characters
        let listed = try City.filter(name.in(["Paris", "Lyon"])).fetch()
        let everyone = try City.select(sum(population)).fetchOne(as: Int.self)
        try City.filter(population < 1_000_000).updateAll(population.set(to: population + 1))

        let families = try queue.read { db in  // two queries however many countries, never one per country
            try Country.including(all: Country.cities.order(population.descending)).fetch(db, as: CountryWithCities.self)
        }
        XCTAssertEqual(families.map(\.country.name), ["France", "Japan"])
        XCTAssertEqual(families.map { $0.cities.map(\.name) }, [["Paris", "Marseille"], ["Tokyo"]])

        XCTAssertEqual(millions.map(\.name), ["Paris"])
        XCTAssertEqual(marseilles, 1)
        XCTAssertEqual(listed.map(\.name), ["Paris"])
        XCTAssertEqual(everyone, 12_749_913)
        XCTAssertEqual(try City.fetchOne(where: ["name": "Marseille"])?.population, 870_732)

        XCTAssertEqual(france.id, 1)
        XCTAssertEqual(traveler?.name, "Ann B.")
        XCTAssertEqual(try Traveler.count(), 1)
        XCTAssertEqual(big.map(\.name), ["Paris", "Lyon"])
        XCTAssertEqual(one?.name, "Paris")
        XCTAssertEqual(n, 2)
        XCTAssertEqual(joined.map(\.name), ["Paris", "Lyon"])
        XCTAssertEqual(try Country.fetchOne(id: 1)?.population, 66_000_001)
        XCTAssertEqual(try City.fetch(where: ["name": "Tokyo"]).first?.countryId, 2)
        XCTAssertEqual(more.map(\.name), ["Marseille", "Nice"])
        XCTAssertNotNil(more[0].id)
        XCTAssertEqual(large.map(\.name), ["Marseille", "Paris", "Tokyo"])
        XCTAssertEqual(second.map(\.name), ["Nice"])
        XCTAssertEqual(removed, 1)
        XCTAssertTrue(exists)
        XCTAssertEqual(try City.fetchOne(where: ["name": "Paris"])?.population, 2_145_906)
        XCTAssertEqual(try City.fetch(orderBy: [.ascending("name")]).map(\.name), ["Marseille", "Paris", "Tokyo"])
    }

    /// The README's advice for `async` functions: `await` after `try`, and a value returned from the
    /// `@Sendable` write closure rather than a captured `var` mutated in it.
    func testTheAsyncAdviceCompilesAndRuns() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(
                sql: "CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT, iso TEXT, population INTEGER)")
        }
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        france = try await queue.write { [france] db in
            var copy = france
            try copy.save(db)
            return copy
        }
        XCTAssertEqual(france.id, 1)
    }

    func testTheQueueOrPoolSectionRuns() throws {
        func openLibrary(at path: String) throws -> DatabasePool {
            let pool = try DatabasePool(path: path)  // WAL mode; reads run beside the write
            try RecordStore.use(pool)  // save(), fetch() and the async twins now go through the pool
            return pool
        }

        let pool = try openLibrary(at: folder.appendingPathComponent("library.sqlite").path)
        try pool.write { db in
            try db.execute(
                sql: "CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT, iso TEXT, population INTEGER)")
        }
        var peru = Country(id: nil, name: "Peru", iso: "PE", population: 34_000_000)
        try peru.save()
        XCTAssertEqual(try Country.fetch().map(\.name), ["Peru"])
        XCTAssertEqual(try pool.read { db in try db.scalar(String.self, sql: "PRAGMA journal_mode") }, "wal")
    }

    func testTheAsyncDatabaseWriterExampleRuns() async throws {
        func importCountries(_ countries: [Country], into writer: some AsyncDatabaseWriter) async throws -> Int {
            var countries = countries
            try await Country.save(writer, &countries)  // one transaction: all or nothing, ids set
            return try await Country.count(writer)  // rows in the table now
        }

        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(
                sql: "CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT, iso TEXT, population INTEGER)")
        }
        let countries = [
            Country(id: nil, name: "Peru", iso: "PE", population: 34_000_000),
            Country(id: nil, name: "Chile", iso: "CL", population: 19_000_000),
        ]
        let total = try await importCountries(countries, into: queue)
        XCTAssertEqual(total, 2)
        let stored = try await Country.fetch(queue, orderBy: [.ascending("id")])
        XCTAssertEqual(stored.map(\.name), ["Peru", "Chile"])
    }

    func testTheObservingChangesSectionRuns() async throws {
        func waitForFrance(in queue: DatabaseQueue) async throws -> Country? {
            let observation = ValueObservation.tracking { db in
                try Country.all().filter(Column("iso") == "FR").fetchOne(db)
            }
            for try await france in observation.values(in: queue) {
                if let france { return france }  // the current value first, then one after each commit to countries
            }
            return nil
        }

        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(
                sql: "CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT, iso TEXT, population INTEGER)")
        }
        let waiting = Task { try await waitForFrance(in: queue) }
        try await Task.sleep(nanoseconds: 50_000_000)
        try await queue.write { db in
            var peru = Country(id: nil, name: "Peru", iso: "PE", population: 34_000_000)
            try peru.save(db)
            var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
            try france.save(db)
        }
        let france = try await waiting.value
        XCTAssertEqual(france?.id, 2)
        XCTAssertEqual(france?.name, "France")
    }

    func testTheREADMEShowsThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Self.codeLines(source)
        // The PostgreSQL section's tour needs the trait and a server: PostgresReadmeTourTests keeps it.
        let parts = readme.components(separatedBy: "\n## PostgreSQL\n")
        XCTAssertEqual(parts.count, 2)
        let sectionsAfter = parts.dropFirst().first?.components(separatedBy: "\n## ").dropFirst() ?? []
        let outsidePostgres = parts[0] + "\n## " + sectionsAfter.joined(separator: "\n## ")
        let blocks = outsidePostgres.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        XCTAssertEqual(blocks.count, 10)
        for block in blocks {
            let lines = Self.codeLines(block)
            let found = sourceLines.indices.contains { start in
                start + lines.count <= sourceLines.count && Array(sourceLines[start..<start + lines.count]) == lines
            }
            XCTAssertTrue(found, "README block not in ReadmeTourTests.swift:\n\(block)")
        }
    }

    /// Lines without indentation, blank lines dropped.
    private static func codeLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
