import Foundation
import SQLiteRecord
import XCTest

/// A code whose value became an Int, over a column declared without a type that still holds text.
private struct Measure: Record, Equatable {
    var id: Int64?
    var code: Int?
    var name: String
    static let tableName = "measures"
}

/// A STRICT table's type whose name became Optional: a rebuild.
private struct StrictCity: Record, Equatable {
    var id: Int64?
    var name: String?
    var population: Int
    static let tableName = "cities"
}

/// A code that is a number or a text, and a JSON document, as `sqlite-record-gen` types them.
private struct Code: Record, Equatable {
    var id: Int64?
    var code: String?
    var doc: String?
    static let tableName = "codes"
}

/// Dry runs that check the stored values before anything is written, and rebuilds that keep what the
/// table declares and what other tables' triggers say about it.
final class SchemaChangeDataChecksTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-checks-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private func database(_ sql: String) throws -> (URL, DatabaseQueue) {
        let url = folder.appendingPathComponent("db.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: sql) }
        return (url, queue)
    }

    private func migrate<T: Record & SendableMetatype>(_ queue: DatabaseQueue, _ type: T.Type) throws {
        var migrator = DatabaseMigrator()
        migrator.registerSchemaChanges("schema changes", for: T.self)
        try migrator.migrate(queue)
    }

    func testValuesTheTypeCannotReadAreRefusedByTheDryRunAndNothingIsWritten() throws {
        let (url, queue) = try database(
            """
            CREATE TABLE measures (id INTEGER PRIMARY KEY, code, name TEXT);
            INSERT INTO measures VALUES (1, 12, 'a'), (2, 'A1', 'b'), (3, NULL, 'c'), (4, '7', 'd'), (5, 2.5, 'e');
            """)
        let plan = try queue.read { db in try Measure.schemaChanges(in: db) }
        let refusal = SchemaChangeError.unreadableValues(
            table: "measures", column: "code", valueType: "Int", count: 3,
            rows: ["rowid 2 ('A1')", "rowid 4 ('7')", "rowid 5 (2.5)"])
        // The NOT NULL of name is a change, its values are all there; code's values are not all Ints.
        XCTAssertEqual(plan.changes, [.changeNullability("name", isNotNull: true)])
        XCTAssertEqual(plan.refusals, [refusal])
        XCTAssertEqual(
            plan.description.components(separatedBy: "\n").prefix(3),
            [
                "Schema changes for table \"measures\":", "- make column \"name\" NOT NULL",
                "refused: column \"code\" of table \"measures\" holds 3 values that Int cannot read: rowid 2 ('A1'), "
                    + "rowid 4 ('7'), rowid 5 (2.5)",
            ])
        let bytes = try Data(contentsOf: url)
        XCTAssertThrowsError(try migrate(queue, Measure.self)) { error in
            XCTAssertEqual(error as? SchemaChangeError, refusal)
        }
        XCTAssertEqual(try Data(contentsOf: url), bytes)
    }

    /// `validateSchema` accepts a String over INTEGER_OR_TEXT and JSON columns (each reads back), so the plan
    /// asks for no retype: the two agree, one rule.
    func testAStringOverAnIntegerOrTextOrJSONColumnIsNoChange() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE codes (id INTEGER PRIMARY KEY, code INTEGER_OR_TEXT, doc JSON);
            INSERT INTO codes VALUES (1, 9001, '{"a": 1}'), (2, 'EPSG', '[1, 2]');
            CREATE VIEW code_list AS SELECT code FROM codes;
            """)
        try queue.read { db in
            try Code.validateSchema(in: db)
            let plan = try Code.schemaChanges(in: db)
            XCTAssertEqual(plan.changes, [])
            XCTAssertEqual(plan.statements, [])
            XCTAssertEqual(plan.description, "Schema changes for table \"codes\": none")
        }
    }

    func testARebuildKeepsStrict() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL) STRICT;
            INSERT INTO cities VALUES (1, 'Paris', 2100000), (2, 'Lyon', 520000);
            """)
        let plan = try queue.read { db in try StrictCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.changeNullability("name", isNotNull: false)])
        XCTAssertTrue(
            plan.statements.contains(
                "CREATE TABLE \"sqliterecord_new_cities\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT, "
                    + "\"population\" INT NOT NULL) STRICT"), plan.sql)
        try migrate(queue, StrictCity.self)
        try queue.read { db in
            XCTAssertEqual(try db.scalar(Int64.self, sql: "SELECT strict FROM pragma_table_list WHERE name = 'cities'"), 1)
            XCTAssertEqual(
                try StrictCity.fetch(db),
                [
                    StrictCity(id: 1, name: "Paris", population: 2_100_000),
                    StrictCity(id: 2, name: "Lyon", population: 520_000),
                ])
            XCTAssertTrue(try StrictCity.schemaChanges(in: db).isEmpty)
        }
        // Type enforcement stays: STRICT refuses text in an INT column.
        XCTAssertThrowsError(
            try queue.write { db in try db.execute(sql: "INSERT INTO cities VALUES (3, 'Ys', 'many')") })
    }

    func testATriggerOfAnotherTableThatNamesTheRebuiltTableIsDroppedAndRecreated() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);
            CREATE TABLE visits (id INTEGER PRIMARY KEY, city_id INTEGER);
            CREATE TRIGGER visits_count AFTER INSERT ON visits BEGIN
                UPDATE cities SET population = population + 1 WHERE id = new.city_id;
            END;
            INSERT INTO cities VALUES (1, 'Paris', 10);
            """)
        let plan = try queue.read { db in try StrictCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.statements.first, "DROP TRIGGER \"visits_count\"")
        XCTAssertTrue(
            plan.statements.contains(
                "CREATE TRIGGER visits_count AFTER INSERT ON visits BEGIN\n"
                    + "    UPDATE cities SET population = population + 1 WHERE id = new.city_id;\nEND"), plan.sql)
        try migrate(queue, StrictCity.self)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO visits (city_id) VALUES (1)")
            XCTAssertEqual(try StrictCity.fetch(db), [StrictCity(id: 1, name: "Paris", population: 11)])
            XCTAssertTrue(try StrictCity.schemaChanges(in: db).isEmpty)
        }
    }
}

/// A city whose `name` column the app now calls `title`, and reads as Optional.
private struct TitledCity: Record, Equatable {
    var id: Int64?
    var title: String?
    var population: Int
    static let tableName = "cities"
}

extension SchemaChangeDataChecksTests {
    /// A declared rename is `ALTER TABLE RENAME COLUMN`, which carries every constraint of the column to the
    /// new name (NOT NULL, DEFAULT, UNIQUE, its indexes); the Optional the type now declares then drops NOT
    /// NULL by a rebuild, which keeps the rest.
    func testARenameCarriesEveryConstraintOfTheColumn() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unnamed' UNIQUE,
                population INT NOT NULL);
            CREATE INDEX cities_name_population ON cities (name, population);
            INSERT INTO cities VALUES (1, 'Paris', 2100000), (2, 'Lyon', 520000);
            """)
        let options = SchemaChangeOptions(renamedColumns: ["name": "title"])
        let plan = try queue.read { db in try TitledCity.schemaChanges(in: db, options: options) }
        XCTAssertEqual(
            plan.changes, [.renameColumn(from: "name", to: "title"), .changeNullability("title", isNotNull: false)])
        var migrator = DatabaseMigrator()
        migrator.registerSchemaChanges("title", for: TitledCity.self, options: options)
        try migrator.migrate(queue)
        try queue.write { db in
            XCTAssertEqual(
                try db.fetchAll(
                    String.self,
                    sql: "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name LIKE 'cities%' ORDER BY name"),
                [
                    "CREATE TABLE \"cities\" (\"id\" INTEGER PRIMARY KEY, \"title\" TEXT DEFAULT 'unnamed', "
                        + "\"population\" INT NOT NULL, UNIQUE (\"title\"))",
                    "CREATE INDEX cities_name_population ON cities (\"title\", population)",
                ])
            XCTAssertEqual(try TitledCity.fetch(db).map(\.title), ["Paris", "Lyon"])
            XCTAssertTrue(try TitledCity.schemaChanges(in: db).isEmpty)
            var ys = TitledCity(id: nil, title: nil, population: 1)
            try ys.insert(db)
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO cities (title, population) VALUES ('Paris', 1)"))
        }
    }
}
