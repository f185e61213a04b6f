import Foundation
import SQLiteRecord
import XCTest

@testable import CountriesCities

final class SampleSchemaTests: XCTestCase {
    /// The schema as the sample created it before it used the migrator: one script, no ledger.
    static let scriptBeforeTheMigrator = """
        CREATE TABLE countries (
            id INTEGER PRIMARY KEY, geoname_id INTEGER NOT NULL UNIQUE, iso TEXT NOT NULL UNIQUE, iso3 TEXT NOT NULL,
            iso_numeric INTEGER NOT NULL, fips TEXT, name TEXT NOT NULL, capital TEXT, area_km2 REAL NOT NULL,
            population INTEGER NOT NULL, continent_code TEXT NOT NULL, tld TEXT, currency_code TEXT,
            currency_name TEXT, phone TEXT, postal_code_regex TEXT, languages TEXT, neighbours TEXT
        );
        CREATE TABLE cities (
            id INTEGER PRIMARY KEY, country_id INTEGER NOT NULL REFERENCES countries(id),
            geoname_id INTEGER NOT NULL UNIQUE, name TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
            country_code TEXT NOT NULL, admin1_code TEXT, population INTEGER NOT NULL, timezone TEXT NOT NULL
        );
        CREATE INDEX cities_country_id ON cities(country_id);
        CREATE INDEX cities_population ON cities(population);
        """

    private var folder: URL!
    private var path: String { folder.appendingPathComponent("world.sqlite").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sample-schema-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testTheImportAppliesBothMigrationsInItsTransaction() throws {
        let queue = try DatabaseQueue()
        _ = try queue.write { db in
            try GeoNamesImport.run(
                db, countriesFile: GeoNamesImportTests.countriesFile, citiesFile: GeoNamesImportTests.citiesFile)
        }
        try queue.read { db in
            XCTAssertEqual(
                try SampleSchema.migrator.appliedMigrations(in: db),
                ["1 countries and cities", "2 cities indexes", "3 cities full-text index"])
            XCTAssertEqual(
                try db.indexes(on: "cities").filter { $0.origin == .createIndex }.map(\.columns),
                [["country_id"], ["population"]])
            XCTAssertEqual(try db.foreignKeys(in: "cities").map(\.parentTable), ["countries"])
            XCTAssertNoThrow(try SampleSchema.validateModels(db))
        }
    }

    func testADatabaseFromBeforeTheMigratorIsMigratedInPlace() throws {
        try DatabaseQueue(path: path).write { db in try db.execute(sql: Self.scriptBeforeTheMigrator) }
        let before = try Self.schemaObjects(path)

        var lines: [String] = []
        try CountriesCities.run(.init(databasePath: path)) { lines.append($0) }
        XCTAssertEqual(
            Array(lines.prefix(3)),
            [
                "Database: \(path)",
                "Applied migrations: \"1 countries and cities\", \"2 cities indexes\", \"3 cities full-text index\"",
                "0 countries, 0 cities",
            ])
        // The tables and indexes stay as they were; the ledger and the full-text index are new.
        let after = try Self.schemaObjects(path)
        XCTAssertEqual(after.filter { $0.first.map { "\($0)" }?.contains("cities_fts") != true }, before)
        XCTAssertEqual(
            after.compactMap { row -> String? in
                guard case .text(let name)? = row.first, name.hasPrefix("cities_fts") else { return nil }
                return name
            },
            [
                "cities_fts", "cities_fts_ad", "cities_fts_ai", "cities_fts_au", "cities_fts_config", "cities_fts_data",
                "cities_fts_docsize", "cities_fts_idx",
            ])
        XCTAssertEqual(before.count, 4)

        lines = []
        try CountriesCities.run(.init(databasePath: path)) { lines.append($0) }
        XCTAssertEqual(Array(lines.prefix(2)), ["Database: \(path)", "0 countries, 0 cities"])
    }

    func testAnOlderSampleDatabaseGetsTheIndexMigration() throws {
        let queue = try DatabaseQueue(path: path)
        try SampleSchema.migrator.migrate(queue, upTo: "1 countries and cities")
        XCTAssertEqual(
            try queue.read { db in try db.indexes(on: "cities") }.map(\.name),
            [
                "sqlite_autoindex_cities_1"
            ])

        var lines: [String] = []
        try CountriesCities.run(.init(databasePath: path)) { lines.append($0) }
        XCTAssertEqual(lines[1], "Applied migrations: \"2 cities indexes\", \"3 cities full-text index\"")
        XCTAssertEqual(
            try queue.read { db in try db.indexes(on: "cities") }.map(\.name),
            ["cities_country_id", "cities_population", "sqlite_autoindex_cities_1"])
    }

    func testANewerDatabaseIsRefusedAndKept() throws {
        let queue = try DatabaseQueue(path: path)
        try SampleSchema.migrator.migrate(queue)
        var newer = SampleSchema.migrator
        newer.registerMigration("3 from the future") { db in try db.execute(sql: "CREATE TABLE future (id)") }
        try newer.migrate(queue)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        XCTAssertThrowsError(try CountriesCities.run(.init(databasePath: path)) { _ in }) { error in
            XCTAssertEqual(
                error as? MigrationError, .unknownAppliedMigrations(unknown: ["3 from the future"], path: path))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    func testModelsThatNoLongerMatchAreReportedAtStart() throws {
        let queue = try DatabaseQueue(path: path)
        try SampleSchema.migrator.migrate(queue)
        try queue.write { db in try db.execute(sql: "ALTER TABLE cities DROP COLUMN timezone") }

        XCTAssertThrowsError(try CountriesCities.run(.init(databasePath: path)) { _ in }) { error in
            XCTAssertEqual(
                error as? SchemaValidationError,
                SchemaValidationError(
                    recordType: "City", table: "cities",
                    mismatches: [.missingColumn("timezone", key: "timezone", valueType: "String", isOptional: false)]))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "a database this run did not create is kept")
    }

    /// The name and SQL of every table and index but SQLite's own and the ledger, by name.
    static func schemaObjects(_ path: String) throws -> [[SQLiteValue]] {
        try Database(path: path).fetchAll(
            sql: "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY name"
        ).map(\.values)
    }
}
