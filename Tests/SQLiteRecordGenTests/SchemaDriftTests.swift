import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecordGen

/// `sqlite-record-gen diff`: a database against the reference database the app's migrations make.
final class SchemaDriftTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-record-diff-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private static let referenceSQL = """
        CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL DEFAULT 0,
            founded_at TEXT, country_id INTEGER REFERENCES countries(id) ON DELETE CASCADE);
        CREATE UNIQUE INDEX cities_name ON cities(name);
        CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
        """

    func testADatabaseThatDriftedPrintsThePlanAndExitsTwo() throws {
        let reference = folder.appendingPathComponent("reference.sqlite")
        try GeneratorFixtures.makeDatabase(at: reference, sql: Self.referenceSQL)
        let production = folder.appendingPathComponent("production.sqlite")
        try GeneratorFixtures.makeDatabase(
            at: production,
            sql: """
                CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL DEFAULT 0,
                    country_id INTEGER REFERENCES countries(id) ON DELETE CASCADE);
                CREATE TABLE legacy (x);
                INSERT INTO countries VALUES (1, 'France');
                INSERT INTO cities VALUES (1, 'Paris', 2100000, 1);
                """)
        let bytes = try Data(contentsOf: production)
        let plans = try SchemaDrift.plans(database: production.path, reference: reference.path)
        XCTAssertEqual(plans.map(\.table), ["cities", "countries", "tags"])
        XCTAssertEqual(
            plans[0].description,
            """
            Schema changes for table "cities":
            - add column "founded_at" TEXT
            - add UNIQUE index "cities_name_unique" on ("name")
            ALTER TABLE "cities" ADD COLUMN "founded_at" TEXT;
            CREATE UNIQUE INDEX "cities_name_unique" ON "cities" ("name");
            """)
        XCTAssertTrue(plans[1].isEmpty)
        XCTAssertEqual(plans[2].changes, [.createTable("tags")])
        XCTAssertEqual(plans[2].sql, "CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT NOT NULL);")
        XCTAssertEqual(
            GeneratorCommand.runDiff([production.path, "--reference", reference.path]), 2)
        XCTAssertEqual(GeneratorCommand.runDiff([production.path, "--reference", reference.path, "--tables", "countries"]), 0)
        // Read-only: the database is as it was.
        XCTAssertEqual(try Data(contentsOf: production), bytes)
    }

    /// A CHECK the reference declares and the database lacks is drift, refused over the rows that fail it.
    func testACheckTheDatabaseLacksIsDrift() throws {
        let reference = folder.appendingPathComponent("reference.sqlite")
        try GeneratorFixtures.makeDatabase(
            at: reference,
            sql: """
                CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> ''),
                    population INTEGER NOT NULL, CONSTRAINT positive CHECK (population >= 0));
                """)
        let production = folder.appendingPathComponent("production.sqlite")
        try GeneratorFixtures.makeDatabase(
            at: production,
            sql: """
                CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> ''),
                    population INTEGER NOT NULL);
                INSERT INTO towns VALUES (1, 'Lyon', 516092), (2, 'Nowhere', -1);
                """)
        let plans = try SchemaDrift.plans(database: production.path, reference: reference.path)
        XCTAssertEqual(plans.map(\.changes), [[.addCheck("population >= 0")]])
        XCTAssertEqual(
            plans.first?.refusals, [.checkViolations(table: "towns", check: "population >= 0", count: 1, rows: ["rowid 2"])])
        XCTAssertEqual(GeneratorCommand.runDiff([production.path, "--reference", reference.path]), 2)
        XCTAssertEqual(GeneratorCommand.runDiff([reference.path, "--reference", reference.path]), 0)
    }

    func testTheReferenceAgainstItselfHasNoDrift() throws {
        for (index, sql) in [Self.referenceSQL, GeneratorFixtures.allTypesSQL, GeneratorFixtures.identifiersSQL].enumerated() {
            let reference = folder.appendingPathComponent("reference\(index).sqlite")
            try GeneratorFixtures.makeDatabase(at: reference, sql: sql)
            let plans = try SchemaDrift.plans(database: reference.path, reference: reference.path)
            XCTAssertEqual(plans.filter { !$0.isEmpty }.map(\.description), [], "fixture \(index)")
            XCTAssertEqual(GeneratorCommand.runDiff([reference.path, "--reference", reference.path]), 0)
        }
    }

    func testDiffUsageErrors() throws {
        let cases: [([String], String)] = [
            ([], "diff: no database file given"),
            (["a.sqlite"], "diff: --reference REFERENCE is required"),
            (["a.sqlite", "--reference"], "--reference needs a value"),
            (["a.sqlite", "--exit-code"], "unknown option --exit-code"),
        ]
        for (arguments, message) in cases {
            XCTAssertThrowsError(try GeneratorCommand.parseDiff(arguments), "\(arguments)") { error in
                XCTAssertEqual(error as? GeneratorError, .usage(message))
            }
        }
        XCTAssertEqual(GeneratorCommand.run(arguments: ["diff", "a.sqlite"]), 64)
        XCTAssertEqual(GeneratorCommand.run(arguments: ["diff", "missing.sqlite", "--reference", "missing.sqlite"]), 1)
    }
}
