import Foundation
import SQLiteRecord

/// `countries-cities --demo`: the record calls at work, on a throwaway copy of the database, so the real
/// one is never changed.
enum DemoTour {
    /// Copies the database behind `queue` with `VACUUM INTO`, runs the tour on the copy, prints each step
    /// through `output`, and removes the copy.
    /// - Throws: ``DatabaseError`` or ``RecordError`` from a step that should have worked.
    static func run(_ queue: DatabaseQueue, output: (String) -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("countries-cities-demo-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copyPath = folder.appendingPathComponent("demo.sqlite").path
        try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copyPath]) }
        let demo = try DatabaseQueue(path: copyPath)
        output("Demo on a copy of the database (VACUUM INTO \(copyPath)):")

        // 1. A country and its cities, in one save.
        var atlantis = Country(
            id: nil, geonameId: 900_000_001, iso: "XA", iso3: "XAT", isoNumeric: 999, fips: nil, name: "Atlantis",
            capital: "Poseidonia", areaKm2: 21_000, population: 120_000, continentCode: "EU", tld: nil,
            currencyCode: nil, currencyName: nil, phone: nil, postalCodeRegex: nil, languages: "grc", neighbours: nil)
        var cities = [
            demoCity(900_000_011, "Poseidonia", population: 70_000),
            demoCity(900_000_012, "Metropolis", population: 30_000),
            demoCity(900_000_013, "Gadeira", population: 20_000),
        ]
        try demo.write { db in try atlantis.save(db, children: &cities) }
        output(
            "1. save(children:): Atlantis got id \(atlantis.id.map(String.init) ?? "nil"); its cities got ids "
                + cities.map { $0.id.map(String.init) ?? "nil" }.joined(separator: ", ")
                + " and country_id \(cities[0].countryId.map(String.init) ?? "nil")")

        // 2. An update.
        cities[1].population += 5_000
        try demo.write { db in try cities[1].save(db) }
        let stored = try demo.read { db in try City.fetchOne(db, id: cities[1].id ?? 0) }
        output("2. save() again updates: Metropolis now has \(stored.map { String($0.population) } ?? "no row")")

        // 3. A save whose third child breaks a constraint leaves nothing behind.
        var lemuria = Country(
            id: nil, geonameId: 900_000_002, iso: "XL", iso3: "XLM", isoNumeric: 998, fips: nil, name: "Lemuria",
            capital: nil, areaKm2: 1, population: 1, continentCode: "AS", tld: nil, currencyCode: nil,
            currencyName: nil, phone: nil, postalCodeRegex: nil, languages: nil, neighbours: nil)
        var lemurians = [
            demoCity(900_000_021, "Mu", population: 1),
            demoCity(900_000_022, "Kumari", population: 1),
            demoCity(900_000_011, "Poseidonia again", population: 1),  // geoname_id is UNIQUE: taken in step 1
        ]
        do {
            try demo.write { db in try lemuria.save(db, children: &lemurians) }
            output("3. unexpected: the failing save went through")
        } catch {
            let left = try demo.read { db in try Country.count(db, where: ["iso": "XL"]) }
            output("3. save(children:) with a bad third child failed: \(error)")
            output(
                "   rows left behind: \(left) countries named Lemuria; Lemuria's id in memory: "
                    + "\(lemuria.id.map(String.init) ?? "nil"); its cities' ids: "
                    + lemurians.map { $0.id.map(String.init) ?? "nil" }.joined(separator: ", "))
        }

        // 4. Delete the country with its cities.
        let deleted = try demo.write { db in try atlantis.delete(db, with: cities) }
        let remaining = try demo.read { db in
            (try Country.count(db, where: ["iso": "XA"]), try City.count(db, where: ["country_code": "XA"]))
        }
        output(
            "4. delete(with:): deleted Atlantis: \(deleted); \(remaining.0) countries and \(remaining.1) cities "
                + "with code XA remain")
        let totals = try demo.read { db in (try Country.count(db), try City.count(db)) }
        output("The copy ends as it began: \(totals.0) countries, \(CountriesCities.grouped(totals.1)) cities")
    }

    private static func demoCity(_ geonameId: Int64, _ name: String, population: Int64) -> City {
        City(
            id: nil, countryId: nil, geonameId: geonameId, name: name, latitude: 36.0, longitude: -6.0,
            countryCode: "XA", admin1Code: nil, population: population, timezone: "Atlantic/Canary")
    }
}
