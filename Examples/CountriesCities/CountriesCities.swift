import Foundation
import SQLiteRecord

/// `countries-cities [--db PATH | --postgres URL] [--data DIR] [ISO]`: builds a database of GeoNames
/// countries and cities on its first run, then answers from it.
@main
struct CountriesCities {
    static let usage = """
        usage: countries-cities [--db PATH | --postgres URL] [--data DIR] [--demo] [--update DIR] [--search TEXT] [--min-population N] [--continent CODE] [ISO]
          ISO         a country's two-letter code (JP, FR, NA): that country and its ten most populous cities
                      (without it: counts and the ten most populous cities of the world)
          --search TEXT         cities whose name holds TEXT (any case of A-Z; % and _ are plain characters),
                                most populous first; when none does, cities named with TEXT's words
                                (accents and case folded), best match first; with ISO, in that country only
          --min-population N    only cities of at least N inhabitants (with --search, or on its own)
          --continent CODE      each country of a continent (AF, AN, AS, EU, NA, OC, SA; or all) with its
                                number of cities and its three most populous, by one eager load
          --db PATH   the database to build or reuse (default: countries-cities.sqlite in the user's cache folder)
          --postgres URL  the same import and answers (ISO, or the world) on a PostgreSQL server, such as
                      postgresql://postgres@127.0.0.1:5432/postgres (build with --traits PostgreSQL)
          --data DIR  the folder holding countries.csv and cities15000.csv (default: the sample's resources)
          --demo      save, update and delete records on a temporary copy of the database, printing each step
          --update DIR  re-import DIR's countries.csv and cities15000.csv into the database with upserts, and
                      print how many rows were inserted, updated and left unchanged
        Data: GeoNames (https://www.geonames.org), CC BY 4.0.
        """

    struct Options: Equatable {
        var databasePath: String?
        var dataDirectory: String?
        var iso: String?
        var demo = false
        var updateDirectory: String?
        var help = false
        var search: String?
        var minimumPopulation: Int64?
        /// `--continent`: a GeoNames continent code, or "all".
        var continent: String?
        /// `--postgres`: a libpq connection string; the sample then runs on that server instead of SQLite.
        var postgresURL: String?

        /// True when the cities are searched rather than a country or the world summarized.
        var searches: Bool { search != nil || minimumPopulation != nil }
    }

    static func main() {
        do {
            let options = try parse(Array(CommandLine.arguments.dropFirst()))
            if options.help {
                print(usage)
                return
            }
            try run(options, output: { print($0) })
        } catch {
            FileHandle.standardError.write(Data("countries-cities: error: \(error)\n".utf8))
            exit(1)
        }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--db", "--data", "--update", "--postgres":
                guard let value = remaining.popFirst() else {
                    throw SampleError.usage("\(argument) needs a value\n\(usage)")
                }
                switch argument {
                case "--db": options.databasePath = value
                case "--data": options.dataDirectory = value
                case "--postgres": options.postgresURL = value
                default: options.updateDirectory = value
                }
            case "--search", "--min-population":
                guard let value = remaining.popFirst() else {
                    throw SampleError.usage("\(argument) needs a value\n\(usage)")
                }
                if argument == "--search" {
                    options.search = value
                } else {
                    guard let number = Int64(value), number >= 0 else {
                        throw SampleError.usage("--min-population needs a whole number, not \"\(value)\"\n\(usage)")
                    }
                    options.minimumPopulation = number
                }
            case "--continent":
                guard let value = remaining.popFirst() else {
                    throw SampleError.usage("--continent needs a value\n\(usage)")
                }
                options.continent = value.uppercased()
            case "--demo":
                options.demo = true
            case "-h", "--help":
                options.help = true
            default:
                guard !argument.hasPrefix("-"), options.iso == nil else {
                    throw SampleError.usage("unexpected argument \"\(argument)\"\n\(usage)")
                }
                options.iso = argument.uppercased()
            }
        }
        return options
    }

    /// Opens or builds the database, then prints the answer through `output`.
    static func run(_ options: Options, output: (String) -> Void) throws {
        if let url = options.postgresURL {
            #if PostgreSQL
                try PostgresSample.run(options, url: url, output: output)
                return
            #else
                _ = url
                throw SampleError.postgresNotBuilt
            #endif
        }
        let databaseURL = try options.databasePath.map { URL(fileURLWithPath: $0) } ?? SampleFiles.defaultDatabaseURL()
        let queue = try openDatabase(at: databaseURL, dataDirectory: options.dataDirectory, output: output)
        if options.demo {
            try DemoTour.run(queue, output: output)
            return
        }
        if let updateDirectory = options.updateDirectory {
            try update(queue, from: URL(fileURLWithPath: updateDirectory), output: output)
            return
        }
        try queue.read { db in
            if let continent = options.continent {
                try ContinentReport.print(continent == "ALL" ? nil : continent, db, output: output)
            } else if options.searches {
                try printSearch(options, db, output: output)
            } else if let iso = options.iso {
                try printCountry(iso, db, output: output)
            } else {
                try printWorld(db, output: output)
            }
        }
    }

    /// Opens the database at `url`, importing the CSV files first when it has no `countries` table. An
    /// existing database is brought up to date by the migrations it has not had yet, each in a transaction
    /// of its own; a new one gets them in the import's transaction. Either way the models are checked
    /// against the tables before anything is read. When the import fails, a file this run created is
    /// removed, so the next run starts clean.
    static func openDatabase(at url: URL, dataDirectory: String?, output: (String) -> Void) throws -> DatabaseQueue {
        let fileManager = FileManager.default
        let existed = fileManager.fileExists(atPath: url.path)
        do {
            let queue = try DatabaseQueue(path: url.path)
            if try queue.read({ db in try db.tableExists(Country.tableName) }) {
                let migrator = SampleSchema.migrator
                let applied = try queue.read { db in try migrator.appliedMigrations(in: db) }
                try migrator.migrate(queue)
                try queue.read { db in try SampleSchema.validateModels(db) }
                output("Database: \(url.path)")
                let migrated = migrator.migrationIdentifiers.filter { !applied.contains($0) }
                if !migrated.isEmpty {
                    output("Applied migrations: " + migrated.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                return queue
            }
            let data = try SampleFiles.dataDirectory(override: dataDirectory.map { URL(fileURLWithPath: $0) })
            output("Importing GeoNames countries and cities from \(data.path) into \(url.path) ...")
            let start = Date()
            let summary = try queue.write { db in
                try GeoNamesImport.run(
                    db, countriesFile: data.appendingPathComponent(SampleFiles.countriesFileName),
                    citiesFile: data.appendingPathComponent(SampleFiles.citiesFileName))
            }
            let seconds = Date().timeIntervalSince(start)
            output(
                "Imported \(grouped(summary.countries)) countries and \(grouped(summary.cities)) cities in "
                    + String(format: "%.2f", seconds) + " s (one transaction)")
            return queue
        } catch {
            if !existed {
                for suffix in ["", "-journal", "-wal", "-shm"] {
                    try? fileManager.removeItem(atPath: url.path + suffix)
                }
            }
            throw error
        }
    }

    /// Re-imports the CSV files of `directory` with ``GeoNamesUpdate`` and prints what it did.
    static func update(_ queue: DatabaseQueue, from directory: URL, output: (String) -> Void) throws {
        output("Updating from \(directory.path) ...")
        let summary = try queue.write { db in
            try GeoNamesUpdate.run(
                db, countriesFile: directory.appendingPathComponent(SampleFiles.countriesFileName),
                citiesFile: directory.appendingPathComponent(SampleFiles.citiesFileName))
        }
        for (name, counts) in [("Countries", summary.countries), ("Cities", summary.cities)] {
            output(
                "\(name): \(grouped(counts.inserted)) inserted, \(grouped(counts.updated)) updated, "
                    + "\(grouped(counts.unchanged)) unchanged")
        }
    }

    static func printWorld(_ db: Database, output: (String) -> Void) throws {
        worldHeading(countries: try Country.count(db), cities: try City.count(db)).forEach(output)
        let cities = try City.fetch(db, orderBy: [.descending("population"), .ascending("name")], limit: 10)
        for (rank, city) in cities.enumerated() {
            let country = try city.countryId.flatMap { try Country.fetchOne(db, id: $0) }
            output(rankedLine(rank, city, in: country))
        }
    }

    static func printCountry(_ iso: String, _ db: Database, output: (String) -> Void) throws {
        guard let country = try Country.fetch(db, where: ["iso": iso]).first else {
            throw SampleError.unknownCountry(iso)
        }
        countryHeading(country, cities: try City.count(db, where: ["country_id": country.id])).forEach(output)
        let cities = try City.fetch(
            db, where: ["country_id": country.id], orderBy: [.descending("population"), .ascending("name")], limit: 10)
        for (rank, city) in cities.enumerated() {
            output(rankedLine(rank, city, in: nil))
        }
    }

    /// The cities `--search` and `--min-population` ask for (in the ISO's country when one is given), most
    /// populous first, as a request: the search text is matched literally, so `%` and `_` find only names
    /// holding them. When no name holds the text, its words are searched in the cities' full-text index
    /// instead: accents and case folded ("sao paulo" finds São Paulo), best match first (bm25), then most
    /// populous.
    static func printSearch(_ options: Options, _ db: Database, output: (String) -> Void) throws {
        typealias Key = City.CodingKeys
        var request = City.all()
        if let minimum = options.minimumPopulation { request = request.filter(Key.population >= minimum) }
        if let iso = options.iso {
            guard let country = try Country.filter(Country.CodingKeys.iso == iso).fetchOne(db) else {
                throw SampleError.unknownCountry(iso)
            }
            request = request.filter(Key.countryId == country.id)
        }
        var ordered = request.order(Key.population.descending, Key.name.ascending)
        var total: Int
        var heading = "the ten most populous"
        if let text = options.search {
            total = try request.filter(Key.name.contains(text)).count(db)
            ordered = ordered.filter(Key.name.contains(text))
            if total == 0 && text.contains(where: { $0.isLetter || $0.isNumber }) {
                heading = "the ten best matches"
                let words = request.search(text)
                total = try words.count(db)
                output("No city name holds \"\(text)\"; cities named with its words, best match first:")
                ordered = words.order(SQLExpression.fullTextRank, Key.population.descending, Key.name.ascending)
            }
        } else {
            total = try request.count(db)
        }
        let found = total == 1 ? "1 city" : "\(grouped(total)) cities"
        output(found + (total > 10 ? "; \(heading):" : total > 0 ? ":" : ""))
        let cities = try ordered.limit(10).fetch(db)
        for (rank, city) in cities.enumerated() {
            let country = try city.countryId.flatMap { try Country.fetchOne(db, id: $0) }
            output(rankedLine(rank, city, in: country))
        }
    }

    /// The world answer's first lines: the counts, then the heading of the ten most populous cities.
    static func worldHeading(countries: Int, cities: Int) -> [String] {
        ["\(grouped(countries)) countries, \(grouped(cities)) cities", "The ten most populous cities of the world:"]
    }

    /// A country answer's first lines: the country, then the heading of its most populous cities.
    static func countryHeading(_ country: Country, cities: Int) -> [String] {
        let capital = country.capital.map { ", capital \($0)" } ?? ""
        return [
            "\(country.name) (\(country.iso), \(country.iso3)): population \(grouped(country.population))"
                + "\(capital), continent \(country.continentCode)",
            "\(grouped(cities)) cities over 15,000 inhabitants; the most populous:",
        ]
    }

    /// One line of a ranking, `rank` counted from 0: ` 1. Tokyo, Japan (9,733,276)`, without the country when
    /// `country` is nil.
    static func rankedLine(_ rank: Int, _ city: City, in country: Country?) -> String {
        let place = country.map { "\(city.name), \($0.name)" } ?? city.name
        return String(format: "%2d. ", rank + 1) + "\(place) (\(grouped(city.population)))"
    }

    static func grouped<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
