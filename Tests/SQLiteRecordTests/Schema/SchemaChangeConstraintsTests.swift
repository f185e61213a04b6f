import Foundation
import SQLiteRecord
import XCTest

/// A town whose population became Optional: a rebuild of a table whose population is NOT NULL.
private struct Town: Record, Equatable {
    var id: Int64?
    var name: String
    var population: Int?
    static let tableName = "towns"
}

/// A tag of a WITHOUT ROWID table whose uses became Optional.
private struct Tag: Record, Equatable {
    var id: String
    var uses: Int?
    static let tableName = "tags"
    static let withoutRowID = true
}

/// A town whose table must check its population.
private struct CheckedTown: Record, Equatable {
    var id: Int64?
    var name: String
    var population: Int
    static let tableName = "towns"
    static let tableDefinition = TableDefinition().check("population >= 0", name: "population_not_negative")
}

/// A town with a rank to add, whose default fails the rank's CHECK.
private struct RankedTown: Record, Equatable {
    var id: Int64?
    var name: String
    var population: Int
    var rank: Int
    static let tableName = "towns"
    enum CodingKeys: String, CodingKey { case id, name, population, rank }
    static let tableDefinition = TableDefinition().defaultValue(CodingKeys.rank, -1).check("rank >= 0")
}

/// Rebuilds that keep what the table declares (collations, CHECK constraints, WITHOUT ROWID, partial and
/// expression indexes, triggers), a new CHECK's dry run, and renames that carry every constraint of the
/// column. After each applied plan a fresh plan is empty and every stored row reads.
final class SchemaChangeConstraintsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-constraints-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private func database(_ sql: String, file: String = "db.sqlite") throws -> (URL, DatabaseQueue) {
        let url = folder.appendingPathComponent(file)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: sql) }
        return (url, queue)
    }

    private func migrate<T: Record & SendableMetatype>(
        _ queue: DatabaseQueue, _ type: T.Type, options: SchemaChangeOptions = SchemaChangeOptions()
    ) throws {
        var migrator = DatabaseMigrator()
        migrator.registerSchemaChanges("schema changes", for: T.self, options: options)
        try migrator.migrate(queue)
    }

    /// The rows of `sql`, each as its values' SQL literals.
    private func rows(_ queue: DatabaseQueue, _ sql: String) throws -> [String] {
        try queue.read { db in
            try db.fetchAll(sql: sql).map { row in
                row.values.map { value -> String in
                    switch value {
                    case .null: return "NULL"
                    case .integer(let integer): return String(integer)
                    case .real(let real): return String(real)
                    case .text(let text): return "'" + text + "'"
                    case .blob(let data): return "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
                    }
                }.joined(separator: ", ")
            }
        }
    }

    /// The message of the error `sql` throws.
    private func failure(_ queue: DatabaseQueue, _ sql: String) -> String? {
        do {
            try queue.write { db in try db.execute(sql: sql) }
            return nil
        } catch {
            return (error as? DatabaseError)?.message ?? "\(error)"
        }
    }

    private func assertSettled<T: Record & Equatable>(
        _ queue: DatabaseQueue, _ type: T.Type, _ expected: [T], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try queue.read { db in
            let plan = try T.schemaChanges(in: db)
            XCTAssertTrue(plan.isEmpty, "\(plan)", file: file, line: line)
            XCTAssertEqual(try T.all().order(Column(T.primaryKeyColumn)).fetch(db), expected, file: file, line: line)
        }
    }

    // MARK: - A rebuild keeps what the table declares

    func testARebuildKeepsCheckConstraintsAndCollations() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY,
                name TEXT NOT NULL COLLATE NOCASE CONSTRAINT named CHECK (length(name) > 0),
                population INT NOT NULL, -- people
                CONSTRAINT positive CHECK (population >= 0));
            INSERT INTO towns VALUES (1, 'Paris', 2100000), (2, 'lyon', 520000);
            """)
        let plan = try queue.read { db in try Town.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.changeNullability("population", isNotNull: false)])
        XCTAssertEqual(plan.refusals, [])
        XCTAssertEqual(
            plan.statements.first,
            "CREATE TABLE \"sqliterecord_new_towns\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL "
                + "COLLATE NOCASE CONSTRAINT named CHECK (length(name) > 0), \"population\" INT, "
                + "CONSTRAINT positive CHECK (population >= 0))")
        try migrate(queue, Town.self)
        XCTAssertEqual(
            try rows(queue, "SELECT * FROM towns ORDER BY id"), ["1, 'Paris', 2100000", "2, 'lyon', 520000"])
        // The collation: NOCASE equality and order.
        XCTAssertEqual(try rows(queue, "SELECT id FROM towns WHERE name = 'PARIS'"), ["1"])
        XCTAssertEqual(try rows(queue, "SELECT name FROM towns ORDER BY name"), ["'lyon'", "'Paris'"])
        // Both CHECK constraints.
        XCTAssertEqual(failure(queue, "INSERT INTO towns VALUES (3, '', 1)"), "CHECK constraint failed: named")
        XCTAssertEqual(failure(queue, "INSERT INTO towns VALUES (3, 'Ys', -1)"), "CHECK constraint failed: positive")
        try assertSettled(
            queue, Town.self,
            [Town(id: 1, name: "Paris", population: 2_100_000), Town(id: 2, name: "lyon", population: 520_000)])
    }

    func testARebuildKeepsWithoutRowID() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE tags (id TEXT PRIMARY KEY COLLATE NOCASE, uses INTEGER NOT NULL CHECK (uses >= 0))
                WITHOUT ROWID;
            INSERT INTO tags VALUES ('swift', 3), ('sqlite', 1);
            """)
        let plan = try queue.read { db in try Tag.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.changeNullability("uses", isNotNull: false)])
        XCTAssertEqual(
            plan.statements.first,
            "CREATE TABLE \"sqliterecord_new_tags\" (\"id\" TEXT NOT NULL COLLATE NOCASE, \"uses\" INTEGER "
                + "CHECK (uses >= 0), PRIMARY KEY (\"id\")) WITHOUT ROWID")
        try migrate(queue, Tag.self)
        XCTAssertEqual(try rows(queue, "SELECT wr FROM pragma_table_list WHERE name = 'tags'"), ["1"])
        XCTAssertEqual(try rows(queue, "SELECT * FROM tags ORDER BY id"), ["'sqlite', 1", "'swift', 3"])
        XCTAssertEqual(
            failure(queue, "INSERT INTO tags VALUES ('SWIFT', 1)"), "UNIQUE constraint failed: tags.id")
        try assertSettled(queue, Tag.self, [Tag(id: "sqlite", uses: 1), Tag(id: "swift", uses: 3)])
    }

    func testARebuildKeepsPartialIndexes() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);
            CREATE UNIQUE INDEX towns_big_names ON towns (name) WHERE population > 1000000;
            INSERT INTO towns VALUES (1, 'Paris', 2100000), (2, 'Lyon', 520000), (3, 'Lyon', 1000);
            """)
        try migrate(queue, Town.self)
        XCTAssertEqual(
            try rows(queue, "SELECT sql FROM sqlite_schema WHERE name = 'towns_big_names'"),
            ["'CREATE UNIQUE INDEX towns_big_names ON towns (name) WHERE population > 1000000'"])
        XCTAssertEqual(
            failure(queue, "INSERT INTO towns VALUES (4, 'Paris', 3000000)"), "UNIQUE constraint failed: towns.name")
        XCTAssertNil(failure(queue, "INSERT INTO towns VALUES (4, 'Paris', 3000)"))
        try assertSettled(
            queue, Town.self,
            [
                Town(id: 1, name: "Paris", population: 2_100_000), Town(id: 2, name: "Lyon", population: 520_000),
                Town(id: 3, name: "Lyon", population: 1000), Town(id: 4, name: "Paris", population: 3000),
            ])
    }

    func testARebuildKeepsExpressionIndexes() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);
            CREATE UNIQUE INDEX towns_lower_name ON towns (lower(name));
            INSERT INTO towns VALUES (1, 'Paris', 2100000);
            """)
        try migrate(queue, Town.self)
        XCTAssertEqual(
            try rows(queue, "SELECT sql FROM sqlite_schema WHERE name = 'towns_lower_name'"),
            ["'CREATE UNIQUE INDEX towns_lower_name ON towns (lower(name))'"])
        XCTAssertEqual(
            failure(queue, "INSERT INTO towns VALUES (2, 'PARIS', 1)"),
            "UNIQUE constraint failed: index 'towns_lower_name'")
        try assertSettled(queue, Town.self, [Town(id: 1, name: "Paris", population: 2_100_000)])
    }

    func testARebuildKeepsTheTablesTriggers() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);
            CREATE TABLE log (entry TEXT);
            CREATE TRIGGER towns_inserted AFTER INSERT ON towns BEGIN
                INSERT INTO log VALUES ('inserted ' || new.name);
            END;
            INSERT INTO towns VALUES (1, 'Paris', 2100000);
            """)
        try migrate(queue, Town.self)
        XCTAssertEqual(
            try rows(queue, "SELECT name FROM sqlite_schema WHERE type = 'trigger'"), ["'towns_inserted'"])
        XCTAssertNil(failure(queue, "INSERT INTO towns VALUES (2, 'Lyon', NULL)"))
        XCTAssertEqual(try rows(queue, "SELECT entry FROM log"), ["'inserted Paris'", "'inserted Lyon'"])
        try assertSettled(
            queue, Town.self,
            [Town(id: 1, name: "Paris", population: 2_100_000), Town(id: 2, name: "Lyon", population: nil)])
    }

    func testATableCheckNamingADroppedColumnIsRefusedAndNothingIsWritten() throws {
        let (url, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL, area REAL,
                CHECK (area IS NULL OR area > 0));
            INSERT INTO towns VALUES (1, 'Paris', 2100000, NULL);
            """)
        let bytes = try Data(contentsOf: url)
        XCTAssertThrowsError(try queue.read { db in try Town.schemaChanges(in: db) }) { error in
            XCTAssertEqual(
                "\(error)",
                "table \"towns\" cannot be rebuilt from its columns: its CHECK (area IS NULL OR area > 0) names "
                    + "column \"area\", which the plan drops; write this migration by hand")
        }
        XCTAssertThrowsError(try migrate(queue, Town.self))
        XCTAssertEqual(try Data(contentsOf: url), bytes)
    }

    // MARK: - A new CHECK constraint

    func testANewCheckOverRowsThatFailItIsRefusedAndNothingIsWritten() throws {
        var sql = "CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);"
        for id in 1...14 { sql += "INSERT INTO towns VALUES (\(id), 'T\(id)', \(id == 2 || id == 3 ? 10 : -id));" }
        let (url, queue) = try database(sql)
        let plan = try queue.read { db in try CheckedTown.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.addCheck("population >= 0")])
        let refusal = SchemaChangeError.checkViolations(
            table: "towns", check: "population >= 0", count: 12,
            rows: [1, 4, 5, 6, 7, 8, 9, 10, 11, 12].map { "rowid \($0)" })
        XCTAssertEqual(plan.refusals, [refusal])
        XCTAssertEqual(
            plan.description.components(separatedBy: "\n").prefix(3),
            [
                "Schema changes for table \"towns\":", "- add CHECK (population >= 0)",
                "refused: CHECK (population >= 0) cannot be added to table \"towns\": 12 rows fail it: rowid 1, "
                    + "rowid 4, rowid 5, rowid 6, rowid 7, rowid 8, rowid 9, rowid 10, rowid 11, rowid 12, ...",
            ])
        let bytes = try Data(contentsOf: url)
        XCTAssertThrowsError(try migrate(queue, CheckedTown.self)) { error in
            XCTAssertEqual(error as? SchemaChangeError, refusal)
        }
        XCTAssertEqual(try Data(contentsOf: url), bytes)
    }

    func testANewCheckIsAddedByARebuildWhenEveryRowPassesIt() throws {
        let (_, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);
            INSERT INTO towns VALUES (1, 'Paris', 2100000), (2, 'Ys', 0);
            """)
        let plan = try queue.read { db in try CheckedTown.schemaChanges(in: db) }
        XCTAssertEqual(plan.refusals, [])
        XCTAssertEqual(
            plan.statements.first,
            "CREATE TABLE \"sqliterecord_new_towns\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, "
                + "\"population\" INT NOT NULL, CONSTRAINT \"population_not_negative\" CHECK (population >= 0))")
        try migrate(queue, CheckedTown.self)
        XCTAssertEqual(
            failure(queue, "INSERT INTO towns VALUES (3, 'Ys', -1)"), "CHECK constraint failed: population_not_negative"
        )
        try queue.read { db in try CheckedTown.validateSchema(in: db) }
        try assertSettled(
            queue, CheckedTown.self,
            [CheckedTown(id: 1, name: "Paris", population: 2_100_000), CheckedTown(id: 2, name: "Ys", population: 0)])
    }

    /// The dry run reads the CHECK over the columns as renamed, before the renames run.
    func testANewCheckOverARenamedColumnIsCheckedBeforeTheRename() throws {
        let (url, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, people INT NOT NULL);
            INSERT INTO towns VALUES (1, 'Paris', 2100000), (2, 'Ys', -4);
            """)
        let options = SchemaChangeOptions(renamedColumns: ["people": "population"])
        let plan = try queue.read { db in try CheckedTown.schemaChanges(in: db, options: options) }
        XCTAssertEqual(plan.changes, [.renameColumn(from: "people", to: "population"), .addCheck("population >= 0")])
        XCTAssertEqual(
            plan.refusals.map(\.description),
            ["CHECK (population >= 0) cannot be added to table \"towns\": 1 row fails it: rowid 2"])
        let bytes = try Data(contentsOf: url)
        XCTAssertThrowsError(try migrate(queue, CheckedTown.self, options: options))
        XCTAssertEqual(try Data(contentsOf: url), bytes)
    }

    /// A column the plan adds takes its DEFAULT in every row: the CHECK is counted over that value.
    func testANewCheckOverAnAddedColumnIsCheckedWithItsDefault() throws {
        let (url, queue) = try database(
            """
            CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INT NOT NULL);
            INSERT INTO towns VALUES (1, 'Paris', 2100000), (2, 'Ys', 0);
            """)
        let plan = try queue.read { db in try RankedTown.schemaChanges(in: db) }
        XCTAssertEqual(
            plan.changes, [.addColumn("rank", definition: "\"rank\" INTEGER NOT NULL DEFAULT -1"), .addCheck("rank >= 0")])
        XCTAssertEqual(
            plan.refusals.map(\.description),
            ["CHECK (rank >= 0) cannot be added to table \"towns\": 2 rows fail it: rowid 1, rowid 2"])
        let bytes = try Data(contentsOf: url)
        XCTAssertThrowsError(try migrate(queue, RankedTown.self))
        XCTAssertEqual(try Data(contentsOf: url), bytes)
    }

    // MARK: - A declared rename carries every constraint of the column

    /// A table whose `title` the caller renames to `name`, declared `titleSQL`, migrated to `Town` by the
    /// rename alone (a nullable population) and by the rename with a rebuild (a NOT NULL one): each
    /// queue, after its plan ran and settled.
    private func renamedTitle(
        _ titleSQL: String, tableSQL: String = "", then sql: String = ""
    ) throws -> [DatabaseQueue] {
        try [false, true].map { rebuild in
            let (_, queue) = try database(
                "CREATE TABLE towns (id INTEGER PRIMARY KEY, title \(titleSQL), population INT"
                    + (rebuild ? " NOT NULL" : "") + tableSQL + "); \(sql)"
                    + "INSERT INTO towns VALUES (1, 'Paris', 2100000), (2, 'lyon', 520000);",
                file: "rename-\(rebuild).sqlite")
            let options = SchemaChangeOptions(renamedColumns: ["title": "name"])
            let plan = try queue.read { db in try Town.schemaChanges(in: db, options: options) }
            XCTAssertEqual(
                plan.changes,
                [.renameColumn(from: "title", to: "name")]
                    + (rebuild ? [.changeNullability("population", isNotNull: false)] : []))
            XCTAssertEqual(plan.requiresRebuild, rebuild)
            try migrate(queue, Town.self, options: options)
            try assertSettled(
                queue, Town.self,
                [Town(id: 1, name: "Paris", population: 2_100_000), Town(id: 2, name: "lyon", population: 520_000)])
            return queue
        }
    }

    func testARenameCarriesNotNull() throws {
        for queue in try renamedTitle("TEXT NOT NULL") {
            XCTAssertEqual(
                failure(queue, "INSERT INTO towns (id, name, population) VALUES (3, NULL, 1)"),
                "NOT NULL constraint failed: towns.name")
        }
    }

    func testARenameCarriesDefault() throws {
        for queue in try renamedTitle("TEXT NOT NULL DEFAULT 'unnamed'") {
            XCTAssertNil(failure(queue, "INSERT INTO towns (id, population) VALUES (3, 1)"))
            XCTAssertEqual(try rows(queue, "SELECT name FROM towns WHERE id = 3"), ["'unnamed'"])
        }
    }

    /// The table's CHECK is named as the column was: the name stays, the column in the expression changes, as
    /// SQLite's RENAME COLUMN does it.
    func testARenameCarriesCheckConstraints() throws {
        for queue in try renamedTitle(
            "TEXT NOT NULL CHECK (length(title) > 0)", tableSQL: ", CONSTRAINT title CHECK (title <> 'x')")
        {
            XCTAssertEqual(
                failure(queue, "INSERT INTO towns VALUES (3, '', 1)"), "CHECK constraint failed: length(\"name\") > 0")
            XCTAssertEqual(failure(queue, "INSERT INTO towns VALUES (3, 'x', 1)"), "CHECK constraint failed: title")
            XCTAssertEqual(
                try rows(queue, "SELECT sql FROM sqlite_schema WHERE name = 'towns'").first?
                    .contains("CONSTRAINT title CHECK (\"name\" <> 'x')"), true)
        }
    }

    func testARenameCarriesCollate() throws {
        for queue in try renamedTitle("TEXT NOT NULL COLLATE NOCASE") {
            XCTAssertEqual(try rows(queue, "SELECT id FROM towns WHERE name = 'PARIS'"), ["1"])
            XCTAssertEqual(try rows(queue, "SELECT name FROM towns ORDER BY name"), ["'lyon'", "'Paris'"])
        }
    }

    func testARenameCarriesUnique() throws {
        for queue in try renamedTitle("TEXT NOT NULL UNIQUE") {
            XCTAssertEqual(
                failure(queue, "INSERT INTO towns VALUES (3, 'Paris', 1)"), "UNIQUE constraint failed: towns.name")
        }
    }

    func testARenameCarriesItsIndexes() throws {
        let indexes = """
            CREATE INDEX towns_title ON towns (title);
            CREATE INDEX towns_short ON towns (population) WHERE length(title) < 5;
            CREATE INDEX towns_lower ON towns (lower(title));
            """
        for queue in try renamedTitle("TEXT NOT NULL", then: indexes) {
            XCTAssertEqual(
                try rows(
                    queue, "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'towns' ORDER BY name"),
                [
                    "'CREATE INDEX towns_lower ON towns (lower(\"name\"))'",
                    "'CREATE INDEX towns_short ON towns (population) WHERE length(\"name\") < 5'",
                    "'CREATE INDEX towns_title ON towns (\"name\")'",
                ])
        }
    }
}
