import Foundation
import SQLiteRecord

/// `--continent CODE` (or `--continent all`): each country with its city count and three most populous
/// cities, read with one eager load, two queries however many countries there are.
enum ContinentReport {
    /// GeoNames' continent codes and their names.
    static let continents = [
        "AF": "Africa", "AN": "Antarctica", "AS": "Asia", "EU": "Europe", "NA": "North America",
        "OC": "Oceania", "SA": "South America",
    ]

    /// The countries of `continent` (a code, or nil for all) with their cities, most populous first.
    static func countries(_ continent: String?, _ db: Database) throws -> [CountryWithCities] {
        var countries = Country.order(Country.CodingKeys.name.ascending)
        if let continent { countries = countries.filter(Country.CodingKeys.continentCode == continent) }
        return try countries.including(all: Country.cities.order(City.CodingKeys.population.descending))
            .fetch(db, as: CountryWithCities.self)
    }

    /// Prints the report, then how many queries it ran.
    /// - Throws: ``SampleError/unknownContinent(_:)`` for a code GeoNames does not use, or a database error.
    static func print(_ continent: String?, _ db: Database, output: (String) -> Void) throws {
        if let continent, continents[continent] == nil { throw SampleError.unknownContinent(continent) }
        let counter = QueryCounter()
        db.trace { counter.note($0.sql) }
        defer { db.trace(nil) }
        let countries = try self.countries(continent, db)
        let queries = counter.count
        let title = continent.flatMap { continents[$0] } ?? "All countries"
        let cityCount = countries.reduce(0) { $0 + $1.cities.count }
        output("\(title): \(countries.count) countries, \(CountriesCities.grouped(cityCount)) cities")
        for entry in countries {
            let top = entry.cities.prefix(3).map { "\($0.name) (\(CountriesCities.grouped($0.population)))" }
            let cities = entry.cities.count == 1 ? "1 city" : "\(CountriesCities.grouped(entry.cities.count)) cities"
            output(
                "\(entry.country.name) (\(entry.country.iso)), \(cities)"
                    + (top.isEmpty ? "" : ": " + top.joined(separator: ", ")))
        }
        output("\(queries) \(queries == 1 ? "query" : "queries") (one eager load: countries, then all their cities)")
    }
}

/// Counts the SELECT statements a connection runs (schema reads are PRAGMAs and do not count). The trace
/// handler runs on the connection's thread; `lock` guards `selects` for the reader after.
final class QueryCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var selects = 0

    /// Counts `sql` when it is a query.
    func note(_ sql: String) {
        guard sql.hasPrefix("SELECT") else { return }
        lock.lock()
        selects += 1
        lock.unlock()
    }

    /// The queries counted so far.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return selects
    }
}
