import Foundation
import SQLiteRecord

/// The workloads through SQLiteRecord's public API, written as its README shows: what a user of the
/// library writes.
enum LibraryWorkloads {
    /// Opens the database file at `path` through the library, with the benchmark's pragmas.
    /// - Throws: `DatabaseError` when the file cannot be opened.
    static func open(path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        // Not in `write`: journal_mode cannot change inside a transaction.
        try queue.writeWithoutTransaction { db in try db.execute(sql: BenchSchema.pragmas) }
        return queue
    }

    /// W1: every city through `insert(_:)`, in one transaction.
    static func insert(_ cities: [BenchCity], into queue: DatabaseQueue) throws {
        try queue.write { db in
            for var city in cities {
                try city.insert(db)
            }
        }
    }

    /// W2: every row through `fetch(_:)`.
    static func fetchAll(from queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in try BenchCity.fetch(db) }
    }

    /// W3: `fetchOne(_:id:)` for each id, in one `read`.
    static func lookUp(_ ids: [Int64], in queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in
            var cities: [BenchCity] = []
            for id in ids {
                if let city = try BenchCity.fetchOne(db, id: id) { cities.append(city) }
            }
            return cities
        }
    }

    /// W3-uuid: `fetchOne(_:id:)` by UUID for each key, in one `read`.
    static func lookUp(_ uuids: [UUID], in queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in
            var cities: [BenchCity] = []
            for uuid in uuids {
                if let city = try BenchUUIDCity.fetchOne(db, id: uuid) { cities.append(city.city) }
            }
            return cities
        }
    }

    /// W4: the most populous cities of each country code through `fetch(_:where:orderBy:limit:)`, in one
    /// `read`.
    static func fetchByCountry(_ codes: [String], in queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in
            var cities: [BenchCity] = []
            for code in codes {
                cities += try BenchCity.fetch(
                    db, where: ["country_code": code], orderBy: [.descending("population")],
                    limit: BenchSchema.countryPageSize)
            }
            return cities
        }
    }

    /// W4-request: W4 through a request, with the column named by a coding key: what a user of the query
    /// interface writes.
    static func fetchByCountryRequest(_ codes: [String], in queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in
            var cities: [BenchCity] = []
            for code in codes {
                cities += try BenchCity.filter(Column(BenchCity.CodingKeys.countryCode) == code)
                    .order(Column(BenchCity.CodingKeys.population).descending)
                    .limit(BenchSchema.countryPageSize)
                    .fetch(db)
            }
            return cities
        }
    }

    /// W5: a statement of the caller's, stepped by hand, each row decoded by `RowDecoder`.
    static func decodeAll(from queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in
            let statement = try db.makeStatement(sql: BenchSchema.selectAll)
            let decoder = RowDecoder()
            var cities: [BenchCity] = []
            while try statement.step() {
                cities.append(try decoder.decode(BenchCity.self, from: statement))
            }
            return cities
        }
    }

    /// W6: every country with all its cities in one eager load (two queries), flattened in country order.
    static func eagerLoad(in queue: DatabaseQueue) throws -> [BenchCity] {
        try queue.read { db in
            let countries = try BenchCountry.order(Column("code").ascending).including(all: BenchCountry.cities)
                .fetch(db, as: BenchCountryWithCities.self)
            var cities: [BenchCity] = []
            for country in countries { cities += country.cities }
            return cities
        }
    }

    /// W7 and W7-full: every city through `upsert(_:)`, in one transaction.
    static func upsert(_ cities: [BenchCity], into queue: DatabaseQueue) throws {
        try queue.write { db in
            for var city in cities {
                try city.upsert(db)
            }
        }
    }

    /// W7-partial: each city's population through `update(_:columns:)`, in one transaction.
    static func updatePopulation(_ cities: [BenchCity], in queue: DatabaseQueue) throws {
        try queue.write { db in
            for city in cities {
                try city.update(db, columns: ["population"])
            }
        }
    }

    /// W7-changes: each city through `updateChanges(_:from:)` against the city as it was fetched.
    static func updateChanges(_ cities: [BenchCity], from originals: [BenchCity], in queue: DatabaseQueue) throws {
        try queue.write { db in
            for (city, original) in zip(cities, originals) {
                try city.updateChanges(db, from: original)
            }
        }
    }
}
