#if PostgreSQL
    import Foundation
    import PostgresRecord
    import SQLiteRecord

    /// `countries-cities --postgres URL [ISO]`: the sample on a PostgreSQL server, with the same ``Country``
    /// and ``City`` types, the same CSV reading and the same Record calls as on SQLite (`save(_:children:)`,
    /// `fetch(where:orderBy:limit:)`, `fetchOne(id:)`, `count(where:)`), printing the same lines.
    ///
    /// The options that need the query interface, associations' eager loads, upserts by another key or
    /// `VACUUM INTO` (`--search`, `--min-population`, `--continent`, `--update`, `--demo`) are refused with
    /// a usage error naming them.
    enum PostgresSample {
        /// Imports the CSV files when the server has no `countries` table, then prints the country `options.iso`
        /// names or the world summary.
        /// - Throws: ``SampleError/usage(_:)`` for an option the PostgreSQL path does not run;
        ///   ``SampleError/unknownCountry(_:)``; `PostgresError` when the server cannot be reached or refuses
        ///   a statement; the errors of ``GeoNamesImport/read(countriesFile:citiesFile:)``.
        static func run(_ options: CountriesCities.Options, url: String, output: (String) -> Void) throws {
            let refused: [(String, Bool)] = [
                ("--db", options.databasePath != nil), ("--demo", options.demo),
                ("--update", options.updateDirectory != nil), ("--search", options.search != nil),
                ("--min-population", options.minimumPopulation != nil), ("--continent", options.continent != nil),
            ]
            if let option = refused.first(where: \.1)?.0 {
                throw SampleError.usage(
                    "\(option) does not run with --postgres: on PostgreSQL the sample answers ISO or the world "
                        + "summary\n\(CountriesCities.usage)")
            }
            let connection = try PostgresConnection(url)
            try open(connection, displayName: displayName(of: url), dataDirectory: options.dataDirectory, output: output)
            // One snapshot for every read of the answer, as the SQLite path's `queue.read`.
            try connection.transaction(readOnly: true) {
                if let iso = options.iso {
                    try printCountry(iso, connection, output: output)
                } else {
                    try printWorld(connection, output: output)
                }
            }
        }

        /// Brings the server's tables up to date, or imports the CSV files when it has no `countries` table:
        /// the migrations, the check of the models and every country saved with its cities, in one
        /// transaction, so a failed import leaves neither tables nor rows.
        static func open(
            _ connection: PostgresConnection, displayName: String, dataDirectory: String?,
            output: (String) -> Void
        ) throws {
            let migrator = PostgresSampleSchema.migrator
            if try !connection.columns(of: Country.tableName).isEmpty {
                let before = Set(try migrator.appliedMigrations(in: connection))
                try migrator.migrate(connection)
                let migrated = try migrator.appliedMigrations(in: connection).filter { !before.contains($0) }
                try PostgresSampleSchema.validateModels(connection)
                output("Database: \(displayName)")
                if !migrated.isEmpty {
                    output("Applied migrations: " + migrated.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                return
            }
            let data = try SampleFiles.dataDirectory(override: dataDirectory.map { URL(fileURLWithPath: $0) })
            let countries = try GeoNamesImport.read(
                countriesFile: data.appendingPathComponent(SampleFiles.countriesFileName),
                citiesFile: data.appendingPathComponent(SampleFiles.citiesFileName))
            output("Importing GeoNames countries and cities from \(data.path) into \(displayName) ...")
            let start = Date()
            let summary = try connection.transaction {
                // Inside this transaction the migrations run in savepoints: tables and rows commit together.
                try migrator.migrate(connection)
                try PostgresSampleSchema.validateModels(connection)
                var summary = GeoNamesImport.Summary(countries: 0, cities: 0)
                for (var country, var cities) in countries {
                    try country.save(connection, children: &cities)
                    summary.countries += 1
                    summary.cities += cities.count
                }
                return summary
            }
            let seconds = Date().timeIntervalSince(start)
            output(
                "Imported \(CountriesCities.grouped(summary.countries)) countries and "
                    + "\(CountriesCities.grouped(summary.cities)) cities in " + String(format: "%.2f", seconds)
                    + " s (one transaction)")
        }

        /// Counts, then the ten most populous cities of the world with their countries.
        static func printWorld(_ connection: PostgresConnection, output: (String) -> Void) throws {
            CountriesCities.worldHeading(countries: try Country.count(connection), cities: try City.count(connection))
                .forEach(output)
            let cities = try City.fetch(connection, orderBy: [.descending("population"), .ascending("name")], limit: 10)
            for (rank, city) in cities.enumerated() {
                let country = try city.countryId.flatMap { try Country.fetchOne(connection, id: $0) }
                output(CountriesCities.rankedLine(rank, city, in: country))
            }
        }

        /// The country with ISO code `iso`, its number of cities and its ten most populous.
        /// - Throws: ``SampleError/unknownCountry(_:)`` when no country has the code.
        static func printCountry(_ iso: String, _ connection: PostgresConnection, output: (String) -> Void) throws {
            guard let country = try Country.fetch(connection, where: ["iso": iso]).first else {
                throw SampleError.unknownCountry(iso)
            }
            CountriesCities.countryHeading(country, cities: try City.count(connection, where: ["country_id": country.id]))
                .forEach(output)
            let cities = try City.fetch(
                connection, where: ["country_id": country.id],
                orderBy: [.descending("population"), .ascending("name")], limit: 10)
            for (rank, city) in cities.enumerated() {
                output(CountriesCities.rankedLine(rank, city, in: nil))
            }
        }

        /// The connection string as printed: a URI without its password, `key=value` pairs without
        /// `password=`.
        static func displayName(of url: String) -> String {
            if url.contains("://"), var components = URLComponents(string: url) {
                if components.password != nil { components.password = nil }
                return components.string ?? url
            }
            return url.split(separator: " ").filter { !$0.hasPrefix("password=") }.joined(separator: " ")
        }
    }
#endif
