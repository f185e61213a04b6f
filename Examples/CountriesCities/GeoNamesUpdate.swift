import Foundation
import SQLiteRecord

/// Re-imports GeoNames' CSV files into a database built before: every country and city is upserted by its
/// GeoNames id (`INSERT ... ON CONFLICT ("geoname_id") DO UPDATE`), so new rows are inserted, rows whose
/// values changed are updated, and rows that already hold the file's values are left alone (not written).
enum GeoNamesUpdate {
    /// How many rows of one table were inserted, updated and left unchanged.
    struct Counts: Equatable {
        var inserted = 0
        var updated = 0
        var unchanged = 0

        mutating func add(_ outcome: UpsertOutcome) {
            switch outcome {
            case .inserted: inserted += 1
            case .updated: updated += 1
            case .unchanged: unchanged += 1
            }
        }
    }

    /// What an update did to each table.
    struct Summary: Equatable {
        var countries = Counts()
        var cities = Counts()
    }

    /// Reads both files, then upserts every country and every city in one transaction (a savepoint when
    /// `db` is in one already): a failure leaves the database as it was. A city's `country_id` is the id of
    /// its country's row, old or new.
    /// - Throws: ``CSVError`` for malformed CSV, naming file and line, before the database is touched;
    ///   `DatabaseError` when a row violates a constraint.
    static func run(_ db: Database, countriesFile: URL, citiesFile: URL) throws -> Summary {
        let countryTable = try CSVReader.read(contentsOf: countriesFile)
        let cityTable = try CSVReader.read(contentsOf: citiesFile)
        let countries = try GeoNamesImport.parseCountries(countryTable)
        let cities = try GeoNamesImport.parseCities(cityTable)
        let knownCodes = Set(countries.map(\.iso))
        if let orphan = cities.first(where: { !knownCodes.contains($0.city.countryCode) }) {
            throw CSVError(
                fileName: cityTable.fileName, line: orphan.line,
                message: "country code \"\(orphan.city.countryCode)\" is not in \(countryTable.fileName)")
        }
        return try db.transaction(.immediate) {
            var summary = Summary()
            var countryIDs: [String: Int64] = [:]
            for var country in countries {
                summary.countries.add(try country.upsert(db, onConflict: ["geoname_id"]))
                countryIDs[country.iso] = country.id
            }
            for (var city, _) in cities {
                city.countryId = countryIDs[city.countryCode]
                summary.cities.add(try city.upsert(db, onConflict: ["geoname_id"]))
            }
            return summary
        }
    }
}
