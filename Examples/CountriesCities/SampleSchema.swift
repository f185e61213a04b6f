import SQLiteRecord

/// The sample's schema, as a history of migrations, and the check that the models still match it.
enum SampleSchema {
    /// The tables, then their indexes. `cities.country_id` references `countries.id`, and foreign keys are
    /// on, so a city cannot point at a country that does not exist.
    ///
    /// Both migrations say IF NOT EXISTS: databases built before the sample used the migrator already have
    /// the tables and indexes, but no ledger, and migrating them only records the two steps.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 countries and cities") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS countries (
                        id INTEGER PRIMARY KEY,
                        geoname_id INTEGER NOT NULL UNIQUE,
                        iso TEXT NOT NULL UNIQUE,
                        iso3 TEXT NOT NULL,
                        iso_numeric INTEGER NOT NULL,
                        fips TEXT,
                        name TEXT NOT NULL,
                        capital TEXT,
                        area_km2 REAL NOT NULL,
                        population INTEGER NOT NULL,
                        continent_code TEXT NOT NULL,
                        tld TEXT,
                        currency_code TEXT,
                        currency_name TEXT,
                        phone TEXT,
                        postal_code_regex TEXT,
                        languages TEXT,
                        neighbours TEXT
                    );
                    CREATE TABLE IF NOT EXISTS cities (
                        id INTEGER PRIMARY KEY,
                        country_id INTEGER NOT NULL REFERENCES countries(id),
                        geoname_id INTEGER NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        latitude REAL NOT NULL,
                        longitude REAL NOT NULL,
                        country_code TEXT NOT NULL,
                        admin1_code TEXT,
                        population INTEGER NOT NULL,
                        timezone TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("2 cities indexes") { db in
            // A country's cities are found through country_id; the world's largest through population.
            try db.execute(
                sql: """
                    CREATE INDEX IF NOT EXISTS cities_country_id ON cities(country_id);
                    CREATE INDEX IF NOT EXISTS cities_population ON cities(population);
                    """)
        }
        // The words of city names, for --search: an FTS5 index kept in step by triggers (unicode61 with
        // diacritics removed, so "bogota" finds Bogotá).
        migrator.registerFullTextIndex("3 cities full-text index", for: City.self)
        return migrator
    }()

    /// Throws when ``Country`` or ``City`` no longer match their tables: at start, rather than at the first
    /// fetch that meets the difference.
    /// - Throws: `SchemaValidationError` listing every mismatch of the first model that has one.
    static func validateModels(_ db: Database) throws {
        try Country.validateSchema(in: db)
        try City.validateSchema(in: db)
    }
}
