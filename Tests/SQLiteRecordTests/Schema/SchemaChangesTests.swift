import Foundation
import SQLiteRecord
import XCTest

/// A city as the app now declares it, against tables made by earlier versions.
private struct EvolvedCity: Record, Equatable {
    var id: Int64?
    var name: String
    var population: Int
    var foundedAt: Date?
    static let tableName = "cities"
    enum CodingKeys: String, CodingKey {
        case id, name, population
        case foundedAt = "founded_at"
    }
}

/// A city with an Optional population (nullable) and a rank every row must have.
private struct RankedCity: Record, Equatable {
    var id: Int64?
    var name: String
    var population: Int?
    var rank: Int
    static let tableName = "cities"
}

/// A user whose email must become unique.
private struct EvolvedUser: Record, Equatable {
    var id: Int64?
    var email: String
    static let tableName = "users"
}

/// A user whose type declares its unique email and the default of its added plan column.
private struct DeclaredUser: Record, Equatable {
    var id: Int64?
    var email: String
    var plan: String
    static let tableName = "users"
    enum CodingKeys: String, CodingKey { case id, email, plan }
    static let tableDefinition = TableDefinition().unique(CodingKeys.email).defaultValue(CodingKeys.plan, "free")
}

/// A country whose table is rebuilt while cities reference it.
private struct EvolvedCountry: Record, Equatable {
    var id: Int64?
    var name: String
    var population: Int
    static let tableName = "countries"
}

/// A code keyed by its text, for a table that declared no primary key.
private struct EvolvedCode: Record, Equatable {
    var id: String
    var name: String?
    static let tableName = "codes"
    static let primaryKeyColumn = "code"
    enum CodingKeys: String, CodingKey {
        case id = "code"
        case name
    }
}

/// A town whose country_id gains the foreign key its association declares.
private struct EvolvedTown: Record, Equatable {
    var id: Int64?
    var countryId: Int64?
    var name: String
    static let tableName = "towns"
    enum CodingKeys: String, CodingKey {
        case id, name
        case countryId = "country_id"
    }
    static let country = belongsTo(EvolvedCountry.self, using: "country_id", onDelete: .cascade)
    static let parentAssociations: [any ParentAssociation] = [country]
}

/// The table's rows and schema as plain SQL sees them, to compare before and after a plan.
private func snapshot(_ queue: DatabaseQueue, _ table: String) throws -> [String] {
    try queue.read { db in
        let schema = try db.fetchAll(
            String.self,
            sql: "SELECT type || ' ' || name || ': ' || sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name")
        return schema + (try rendered(db, "SELECT rowid, * FROM \"\(table)\" ORDER BY rowid"))
    }
}

/// Each row of `sql` as one line: its values in order, text quoted, `[1,"Paris",null]`.
private func rendered(_ db: Database, _ sql: String) throws -> [String] {
    try db.fetchAll(sql: sql).map { row in
        "["
            + row.values.map { value -> String in
                switch value {
                case .null: return "null"
                case .integer(let integer): return String(integer)
                case .real(let real): return String(real)
                case .text(let text): return "\"" + text + "\""
                case .blob(let data): return "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
                }
            }.joined(separator: ",") + "]"
    }
}

/// Migrates `queue` with one migration applying `T`'s plan under `options`.
private func migrate<T: Record & SendableMetatype>(
    _ queue: DatabaseQueue, _ type: T.Type, options: SchemaChangeOptions = SchemaChangeOptions()
) throws {
    var migrator = DatabaseMigrator()
    migrator.registerSchemaChanges("schema changes", for: T.self, options: options)
    try migrator.migrate(queue)
}

final class SchemaChangesTests: XCTestCase {
    private func cities(_ sql: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: sql) }
        return queue
    }

    func testATableThatMatchesHasNoChanges() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL, founded_at TEXT);
            """)
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db) }
        XCTAssertTrue(plan.isEmpty)
        XCTAssertEqual(plan.statements, [])
        XCTAssertEqual("\(plan)", "Schema changes for table \"cities\": none")
    }

    func testAMissingTableIsCreatedAsCreateTableWritesIt() throws {
        let queue = try DatabaseQueue()
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.createTable("cities")])
        XCTAssertEqual(plan.statements, [try EvolvedCity.createTableSQL()])
        try migrate(queue, EvolvedCity.self)
        try queue.read { db in try EvolvedCity.validateSchema(in: db) }
    }

    func testAColumnIsAddedWithAlterTableAndRowsKeepTheirValues() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL);
            INSERT INTO cities VALUES (1, 'Paris', 2100000), (2, 'Lyon', 520000);
            """)
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.addColumn("founded_at", definition: "\"founded_at\" TEXT")])
        XCTAssertFalse(plan.requiresRebuild)
        XCTAssertEqual(plan.sql, "ALTER TABLE \"cities\" ADD COLUMN \"founded_at\" TEXT;")
        try migrate(queue, EvolvedCity.self)
        XCTAssertEqual(
            try queue.read { db in
                try rendered(db, "SELECT * FROM cities ORDER BY id")
            }, ["[1,\"Paris\",2100000,null]", "[2,\"Lyon\",520000,null]"])
        XCTAssertEqual(try queue.read { db in try EvolvedCity.fetch(db).map(\.name) }, ["Paris", "Lyon"])
    }

    func testANotNullColumnIsAddedWithItsDefaultOrRefusedWithoutOne() throws {
        let sql = """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER);
            INSERT INTO cities VALUES (1, 'Paris', 2100000), (2, 'Lyon', NULL);
            """
        // Without a default: refused before anything is written.
        let refused = try cities(sql)
        let before = try snapshot(refused, "cities")
        let plan = try refused.read { db in try RankedCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.refusals, [.missingDefault(table: "cities", column: "rank", rowCount: 2)])
        XCTAssertThrowsError(try migrate(refused, RankedCity.self)) { error in
            XCTAssertEqual(
                "\(error)",
                "NOT NULL column \"rank\" cannot be added to table \"cities\", which has 2 rows, without a default: "
                    + "give one in SchemaChangeOptions.defaults")
        }
        XCTAssertEqual(try snapshot(refused, "cities"), before)

        // With one.
        let queue = try cities(sql)
        let options = SchemaChangeOptions(defaults: ["rank": .integer(0)])
        XCTAssertEqual(
            try queue.read { db in try RankedCity.schemaChanges(in: db, options: options).sql },
            "ALTER TABLE \"cities\" ADD COLUMN \"rank\" INTEGER NOT NULL DEFAULT 0;")
        try migrate(queue, RankedCity.self, options: options)
        XCTAssertEqual(
            try queue.read { db in try rendered(db, "SELECT * FROM cities ORDER BY id") },
            ["[1,\"Paris\",2100000,0]", "[2,\"Lyon\",null,0]"])
    }

    func testAColumnTheTypeNoLongerHasIsKeptWhileItHoldsValuesUnlessDropsColumns() throws {
        let sql = """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, legacy TEXT, population INTEGER NOT NULL,
                founded_at TEXT, empty TEXT);
            INSERT INTO cities VALUES (1, 'Paris', 'old', 2100000, NULL, NULL), (2, 'Lyon', NULL, 520000, NULL, NULL);
            """
        let queue = try cities(sql)
        let kept = try queue.read { db in try EvolvedCity.schemaChanges(in: db) }
        // The empty column goes (nothing is lost); the one holding a value stays.
        XCTAssertEqual(kept.changes, [.keepColumn("legacy", valueCount: 1), .dropColumn("empty")])
        try migrate(queue, EvolvedCity.self)
        XCTAssertEqual(
            try queue.read { db in try rendered(db, "SELECT * FROM cities ORDER BY id") },
            ["[1,\"Paris\",\"old\",2100000,null]", "[2,\"Lyon\",null,520000,null]"])

        let dropping = try cities(sql)
        let plan = try dropping.read { db in
            try EvolvedCity.schemaChanges(in: db, options: SchemaChangeOptions(dropsColumns: true))
        }
        XCTAssertEqual(plan.changes, [.dropColumn("legacy"), .dropColumn("empty")])
        XCTAssertEqual(
            plan.statements,
            [
                "CREATE TABLE \"sqliterecord_new_cities\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, "
                    + "\"population\" INTEGER NOT NULL, \"founded_at\" TEXT)",
                "INSERT INTO \"sqliterecord_new_cities\" (\"id\", \"name\", \"population\", \"founded_at\") SELECT "
                    + "\"id\", \"name\", \"population\", \"founded_at\" FROM \"cities\"",
                "DROP TABLE \"cities\"", "ALTER TABLE \"sqliterecord_new_cities\" RENAME TO \"cities\"",
                "PRAGMA foreign_key_check",
            ])
        try migrate(dropping, EvolvedCity.self, options: SchemaChangeOptions(dropsColumns: true))
        XCTAssertEqual(
            try dropping.read { db in try rendered(db, "SELECT * FROM cities ORDER BY id") },
            ["[1,\"Paris\",2100000,null]", "[2,\"Lyon\",520000,null]"])
    }

    func testARenameTheCallerDeclaresKeepsValuesIndexesAndReferences() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, title TEXT NOT NULL, population INTEGER NOT NULL, founded_at TEXT);
            CREATE INDEX cities_title ON cities(title);
            INSERT INTO cities VALUES (1, 'Paris', 2100000, NULL);
            """)
        let options = SchemaChangeOptions(renamedColumns: ["title": "name"])
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db, options: options) }
        XCTAssertEqual(plan.changes, [.renameColumn(from: "title", to: "name")])
        XCTAssertEqual(plan.sql, "ALTER TABLE \"cities\" RENAME COLUMN \"title\" TO \"name\";")
        try migrate(queue, EvolvedCity.self, options: options)
        try queue.read { db in
            XCTAssertEqual(try EvolvedCity.fetch(db).map(\.name), ["Paris"])
            XCTAssertEqual(try db.indexes(on: "cities").map(\.columns), [["name"]])
        }
    }

    func testARetypeRebuildsTheTableAndRefusesValuesItWouldChange() throws {
        let sql = """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population TEXT NOT NULL, founded_at TEXT);
            INSERT INTO cities VALUES (1, 'Paris', '2100000', NULL), (2, 'Lyon', 520000, NULL);
            """
        let queue = try cities(sql)
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.changeColumnType("population", from: "TEXT", to: "INTEGER")])
        XCTAssertTrue(plan.requiresRebuild)
        try migrate(queue, EvolvedCity.self)
        XCTAssertEqual(
            try queue.read { db in
                try db.fetchAll(
                    String.self, sql: "SELECT typeof(population) || ' ' || population FROM cities ORDER BY id")
            }, ["integer 2100000", "integer 520000"])
        XCTAssertEqual(try queue.read { db in try EvolvedCity.fetch(db).map(\.population) }, [2_100_000, 520_000])

        // '00120' would become 120, and 'unknown' cannot be read as an Int: refused by the dry run, naming the
        // rows and their values.
        let refused = try cities(
            sql + "INSERT INTO cities VALUES (3, 'Ys', '00120', NULL), (4, 'Atlantis', 'unknown', NULL);")
        let before = try snapshot(refused, "cities")
        let expected = SchemaChangeError.unreadableValues(
            table: "cities", column: "population", valueType: "Int", count: 2,
            rows: ["rowid 3 ('00120')", "rowid 4 ('unknown')"])
        XCTAssertEqual(try refused.read { db in try EvolvedCity.schemaChanges(in: db) }.refusals, [expected])
        XCTAssertThrowsError(try migrate(refused, EvolvedCity.self)) { error in
            XCTAssertEqual(error as? SchemaChangeError, expected)
            XCTAssertEqual(
                "\(error)",
                "column \"population\" of table \"cities\" holds 2 values that Int cannot read: rowid 3 ('00120'), "
                    + "rowid 4 ('unknown')")
        }
        XCTAssertEqual(try snapshot(refused, "cities"), before)
    }

    func testNullabilityChangesBothWaysAndNullsRefuseNotNull() throws {
        // population NOT NULL becomes nullable for RankedCity (with a rank default).
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL);
            INSERT INTO cities VALUES (1, 'Paris', 2100000);
            """)
        let options = SchemaChangeOptions(defaults: ["rank": .integer(7)])
        let plan = try queue.read { db in try RankedCity.schemaChanges(in: db, options: options) }
        XCTAssertEqual(
            plan.changes,
            [
                .changeNullability("population", isNotNull: false),
                .addColumn("rank", definition: "\"rank\" INTEGER NOT NULL DEFAULT 7"),
            ])
        try migrate(queue, RankedCity.self, options: options)
        try queue.write { db in try db.execute(sql: "INSERT INTO cities (name, population) VALUES ('Ys', NULL)") }
        XCTAssertEqual(
            try queue.read { db in try rendered(db, "SELECT * FROM cities ORDER BY id") },
            ["[1,\"Paris\",2100000,7]", "[2,\"Ys\",null,7]"])

        // A nullable name becomes NOT NULL for EvolvedCity: refused while a row holds NULL.
        let refused = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT, population INTEGER NOT NULL, founded_at TEXT);
            INSERT INTO cities VALUES (1, 'Paris', 2100000, NULL), (2, NULL, 3, NULL);
            """)
        let before = try snapshot(refused, "cities")
        let refusedPlan = try refused.read { db in try EvolvedCity.schemaChanges(in: db) }
        XCTAssertEqual(refusedPlan.changes, [.changeNullability("name", isNotNull: true)])
        XCTAssertEqual(refusedPlan.refusals, [.nullValues(table: "cities", column: "name", rows: ["rowid 2"])])
        XCTAssertThrowsError(try migrate(refused, EvolvedCity.self)) { error in
            XCTAssertEqual(
                "\(error)", "column \"name\" of table \"cities\" cannot become NOT NULL: NULL in rowid 2")
        }
        XCTAssertEqual(try snapshot(refused, "cities"), before)
        try refused.write { db in try db.execute(sql: "UPDATE cities SET name = 'Lyon' WHERE id = 2") }
        try migrate(refused, EvolvedCity.self)
        XCTAssertEqual(
            try refused.read { db in try db.columns(in: "cities").map(\.isNotNull) }, [false, true, true, false])
        XCTAssertEqual(try refused.read { db in try EvolvedCity.fetch(db).map(\.name) }, ["Paris", "Lyon"])
    }

    func testAUniqueConstraintIsAddedAndRefusedOverRowsThatViolateIt() throws {
        let queue = try cities(
            """
            CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL);
            INSERT INTO users VALUES (1, 'a@example.com'), (2, 'b@example.com'), (3, 'a@example.com');
            """)
        let options = SchemaChangeOptions(uniqueKeys: [["email"]])
        let before = try snapshot(queue, "users")
        let plan = try queue.read { db in try EvolvedUser.schemaChanges(in: db, options: options) }
        XCTAssertEqual(plan.changes, [.addUniqueIndex("users_email_unique", columns: ["email"])])
        XCTAssertEqual(plan.sql, "CREATE UNIQUE INDEX \"users_email_unique\" ON \"users\" (\"email\");")
        XCTAssertEqual(
            plan.refusals, [.duplicateValues(table: "users", columns: ["email"], rows: ["rowid 1", "rowid 3"])])
        XCTAssertThrowsError(try migrate(queue, EvolvedUser.self, options: options)) { error in
            XCTAssertEqual(
                "\(error)",
                "(\"email\") of table \"users\" cannot become unique: rows sharing a value: rowid 1, rowid 3")
        }
        XCTAssertEqual(try snapshot(queue, "users"), before)

        try queue.write { db in try db.execute(sql: "UPDATE users SET email = 'c@example.com' WHERE id = 3") }
        try migrate(queue, EvolvedUser.self, options: options)
        XCTAssertThrowsError(
            try queue.write { db in try db.execute(sql: "INSERT INTO users (email) VALUES ('a@example.com')") })
        XCTAssertEqual(
            try queue.read { db in try db.fetchAll(String.self, sql: "SELECT email FROM users ORDER BY id") },
            ["a@example.com", "b@example.com", "c@example.com"])
    }

    func testTheTypesDeclaredUniqueKeyAndDefaultArePlannedWithoutOptions() throws {
        let queue = try cities(
            """
            CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL);
            INSERT INTO users VALUES (1, 'a@example.com'), (2, 'b@example.com'), (3, 'a@example.com');
            """)
        let before = try snapshot(queue, "users")
        let plan = try queue.read { db in try DeclaredUser.schemaChanges(in: db) }
        XCTAssertEqual(
            plan.changes,
            [.addColumn("plan", definition: "\"plan\" TEXT NOT NULL DEFAULT 'free'"),
             .addUniqueIndex("users_email_unique", columns: ["email"])])
        XCTAssertEqual(
            plan.refusals, [.duplicateValues(table: "users", columns: ["email"], rows: ["rowid 1", "rowid 3"])])
        XCTAssertThrowsError(try migrate(queue, DeclaredUser.self))
        XCTAssertEqual(try snapshot(queue, "users"), before)

        try queue.write { db in try db.execute(sql: "UPDATE users SET email = 'c@example.com' WHERE id = 3") }
        try migrate(queue, DeclaredUser.self)
        XCTAssertEqual(
            try queue.read { db in try DeclaredUser.fetch(db, orderBy: [.ascending("id")]) },
            [DeclaredUser(id: 1, email: "a@example.com", plan: "free"),
             DeclaredUser(id: 2, email: "b@example.com", plan: "free"),
             DeclaredUser(id: 3, email: "c@example.com", plan: "free")])
        XCTAssertThrowsError(
            try queue.write { db in try db.execute(sql: "INSERT INTO users (email) VALUES ('a@example.com')") })
    }

    func testARebuiltParentKeepsItsChildrenTheirForeignKeysTriggersIndexesAndViews() throws {
        let queue = try cities(
            """
            CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population TEXT NOT NULL,
                code TEXT UNIQUE, capital TEXT DEFAULT 'none');
            CREATE TABLE towns (id INTEGER PRIMARY KEY, country_id INTEGER NOT NULL REFERENCES countries(id)
                ON DELETE CASCADE, name TEXT NOT NULL);
            CREATE TABLE log (entry TEXT);
            CREATE INDEX countries_name ON countries(name);
            CREATE TRIGGER countries_logged AFTER INSERT ON countries BEGIN
                INSERT INTO log VALUES ('added ' || new.name);
            END;
            CREATE VIEW big_countries AS SELECT name FROM countries WHERE population > 1000000;
            INSERT INTO countries VALUES (1, 'France', '68000000', 'FR', 'Paris'), (2, 'Monaco', '38000', 'MC', NULL);
            INSERT INTO towns VALUES (1, 1, 'Lyon'), (2, 1, 'Nice'), (3, 2, 'Monte Carlo');
            DELETE FROM log;
            """)
        let plan = try queue.read { db in try EvolvedCountry.schemaChanges(in: db) }
        XCTAssertEqual(
            plan.changes,
            [
                .changeColumnType("population", from: "TEXT", to: "INTEGER"),
                .keepColumn("code", valueCount: 2), .keepColumn("capital", valueCount: 1),
            ])
        XCTAssertEqual(
            plan.statements,
            [
                "DROP VIEW \"big_countries\"",
                "CREATE TABLE \"sqliterecord_new_countries\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, "
                    + "\"population\" INTEGER NOT NULL, \"code\" TEXT, \"capital\" TEXT DEFAULT 'none', UNIQUE (\"code\"))",
                "INSERT INTO \"sqliterecord_new_countries\" (\"id\", \"name\", \"population\", \"code\", \"capital\") "
                    + "SELECT \"id\", \"name\", \"population\", \"code\", \"capital\" FROM \"countries\"",
                "DROP TABLE \"countries\"", "ALTER TABLE \"sqliterecord_new_countries\" RENAME TO \"countries\"",
                "CREATE INDEX countries_name ON countries(name)",
                "CREATE TRIGGER countries_logged AFTER INSERT ON countries BEGIN\n    INSERT INTO log VALUES ('added ' || new.name);\nEND",
                "CREATE VIEW big_countries AS SELECT name FROM countries WHERE population > 1000000",
                "PRAGMA foreign_key_check",
            ])
        try migrate(queue, EvolvedCountry.self)
        try queue.write { db in
            // Children and their foreign key: untouched, and still enforced and cascading.
            XCTAssertEqual(
                try rendered(db, "SELECT * FROM towns ORDER BY id"),
                ["[1,1,\"Lyon\"]", "[2,1,\"Nice\"]", "[3,2,\"Monte Carlo\"]"])
            XCTAssertEqual(try db.foreignKeys(in: "towns").map(\.parentTable), ["countries"])
            XCTAssertEqual(try db.fetchAll(sql: "PRAGMA foreign_key_check").count, 0)
            XCTAssertEqual(
                try rendered(db, "SELECT * FROM countries ORDER BY id"),
                ["[1,\"France\",68000000,\"FR\",\"Paris\"]", "[2,\"Monaco\",38000,\"MC\",null]"])
            // The index, the UNIQUE constraint, the trigger and the view.
            XCTAssertEqual(
                try db.indexes(on: "countries").map(\.name), ["countries_name", "sqlite_autoindex_countries_1"])
            var spain = EvolvedCountry(id: nil, name: "Spain", population: 48_000_000)
            try spain.insert(db)
            XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT entry FROM log"), ["added Spain"])
            XCTAssertEqual(
                try db.fetchAll(String.self, sql: "SELECT name FROM big_countries ORDER BY name"), ["France", "Spain"])
            try db.execute(sql: "DELETE FROM countries WHERE id = 2")
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM towns"), 2)
        }
    }

    func testAPrimaryKeyIsAddedByARebuildAndRefusedOverDuplicates() throws {
        let queue = try cities(
            """
            CREATE TABLE codes (code TEXT NOT NULL, name TEXT);
            INSERT INTO codes VALUES ('EUR', 'Euro'), ('USD', 'Dollar'), ('EUR', 'Euro again');
            """)
        let before = try snapshot(queue, "codes")
        let plan = try queue.read { db in try EvolvedCode.schemaChanges(in: db) }
        XCTAssertEqual(plan.changes, [.changePrimaryKey(from: [], to: ["code"])])
        XCTAssertEqual(
            plan.refusals, [.duplicateValues(table: "codes", columns: ["code"], rows: ["rowid 1", "rowid 3"])])
        XCTAssertThrowsError(try migrate(queue, EvolvedCode.self))
        XCTAssertEqual(try snapshot(queue, "codes"), before)

        try queue.write { db in try db.execute(sql: "DELETE FROM codes WHERE rowid = 3") }
        XCTAssertEqual(
            try queue.read { db in try EvolvedCode.schemaChanges(in: db).statements.first },
            "CREATE TABLE \"sqliterecord_new_codes\" (\"code\" TEXT NOT NULL, \"name\" TEXT, PRIMARY KEY (\"code\"))")
        try migrate(queue, EvolvedCode.self)
        try queue.read { db in
            XCTAssertEqual(
                try rendered(db, "SELECT rowid, * FROM codes ORDER BY rowid"),
                ["[1,\"EUR\",\"Euro\"]", "[2,\"USD\",\"Dollar\"]"])
            XCTAssertEqual(try EvolvedCode.fetchOne(db, id: "USD")?.name, "Dollar")
            try EvolvedCode.validateSchema(in: db)
        }
    }

    func testAForeignKeyOfAParentAssociationIsAddedAndRefusedOverOrphans() throws {
        let sql = """
            CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL);
            CREATE TABLE towns (id INTEGER PRIMARY KEY, country_id INTEGER, name TEXT NOT NULL);
            INSERT INTO countries VALUES (1, 'France', 68000000);
            INSERT INTO towns VALUES (1, 1, 'Lyon'), (2, NULL, 'Nowhere');
            """
        let orphaned = try cities(sql + "INSERT INTO towns VALUES (3, 9, 'Atlantis');")
        let before = try snapshot(orphaned, "towns")
        let plan = try orphaned.read { db in try EvolvedTown.schemaChanges(in: db) }
        XCTAssertEqual(
            plan.changes,
            [.addForeignKey("country_id", references: "REFERENCES \"countries\" (\"id\") ON DELETE CASCADE")])
        // The dry run finds the orphan before anything is written.
        XCTAssertEqual(plan.refusals, [.foreignKeyViolations(table: "towns", rows: ["towns rowid 3"])])
        XCTAssertThrowsError(try migrate(orphaned, EvolvedTown.self)) { error in
            XCTAssertEqual(error as? SchemaChangeError, .foreignKeyViolations(table: "towns", rows: ["towns rowid 3"]))
        }
        XCTAssertEqual(try snapshot(orphaned, "towns"), before)

        let queue = try cities(sql)
        try migrate(queue, EvolvedTown.self)
        try queue.write { db in
            try EvolvedTown.validateSchema(in: db)
            XCTAssertEqual(try db.foreignKeys(in: "towns").map(\.onDelete), ["CASCADE"])
            XCTAssertEqual(
                try rendered(db, "SELECT * FROM towns ORDER BY id"), ["[1,1,\"Lyon\"]", "[2,null,\"Nowhere\"]"])
            try db.execute(sql: "DELETE FROM countries WHERE id = 1")
            XCTAssertEqual(try rendered(db, "SELECT * FROM towns ORDER BY id"), ["[2,null,\"Nowhere\"]"])
        }
    }

    /// A rebuild keeps AUTOINCREMENT and its sequence: a row deleted before the plan leaves its id unused.
    func testARebuildOfATableWithAutoincrementKeepsItAndItsSequence() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL CHECK (name <> ''),
                population TEXT NOT NULL, founded_at TEXT);
            INSERT INTO cities (name, population) VALUES ('Lyon', '516092'), ('Nice', '342669'), ('Gone', '1');
            DELETE FROM cities WHERE name = 'Gone';
            """)
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db) }
        XCTAssertEqual(plan.refusals, [])
        XCTAssertTrue(plan.sql.contains(#""id" INTEGER PRIMARY KEY AUTOINCREMENT"#), plan.sql)
        try migrate(queue, EvolvedCity.self)
        try queue.write { db in
            XCTAssertTrue(try EvolvedCity.schemaChanges(in: db).isEmpty)
            XCTAssertEqual(try rendered(db, "SELECT name, seq FROM sqlite_sequence"), ["[\"cities\",3]"])
            var city = EvolvedCity(id: nil, name: "Caen", population: 105_403, foundedAt: nil)
            try city.insert(db)
            XCTAssertEqual(city.id, 4)
            XCTAssertEqual(try EvolvedCity.fetch(db).map(\.population), [516_092, 342_669, 105_403])
            let sql = try db.scalar(String.self, sql: "SELECT sql FROM sqlite_schema WHERE name = 'cities'") ?? ""
            XCTAssertTrue(sql.contains("AUTOINCREMENT"), sql)
        }
    }

    /// A column named "generated" (or "autoincrement") is an ordinary column: the table is rebuilt.
    func testAColumnNamedGeneratedDoesNotStopARebuild() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population TEXT NOT NULL,
                founded_at TEXT, generated TEXT, "autoincrement" TEXT);
            INSERT INTO cities (id, name, population, generated, "autoincrement") VALUES (1, 'Lyon', '516092', 'x', 'y');
            """)
        try migrate(queue, EvolvedCity.self)
        try queue.read { db in
            XCTAssertTrue(try EvolvedCity.schemaChanges(in: db).isEmpty)
            XCTAssertEqual(
                try rendered(db, #"SELECT id, population, generated, "autoincrement" FROM cities"#), ["[1,516092,\"x\",\"y\"]"])
        }
    }

    /// A rebuild makes each generated column again by its clause (VIRTUAL and STORED), written with the
    /// columns' new names, and computes its values instead of copying them.
    func testARebuildKeepsGeneratedColumns() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, title TEXT NOT NULL, population TEXT NOT NULL,
                founded_at TEXT, upper_name TEXT GENERATED ALWAYS AS (upper(title)) VIRTUAL,
                name_length INTEGER AS (length(title)) STORED);
            INSERT INTO cities (id, title, population) VALUES (1, 'Lyon', '516092');
            """)
        let options = SchemaChangeOptions(renamedColumns: ["title": "name"])
        let plan = try queue.read { db in try EvolvedCity.schemaChanges(in: db, options: options) }
        XCTAssertEqual(plan.refusals, [])
        XCTAssertTrue(
            plan.sql.contains(
                #""upper_name" TEXT GENERATED ALWAYS AS (upper("name")) VIRTUAL, "name_length" INTEGER AS "#
                    + #"(length("name")) STORED"#), plan.sql)
        try migrate(queue, EvolvedCity.self, options: options)
        try queue.write { db in
            XCTAssertTrue(try EvolvedCity.schemaChanges(in: db).isEmpty)
            try db.execute(sql: "INSERT INTO cities (id, name, population) VALUES (2, 'Nice', 342669)")
            XCTAssertEqual(
                try rendered(db, "SELECT id, name, population, upper_name, name_length FROM cities ORDER BY id"),
                ["[1,\"Lyon\",516092,\"LYON\",4]", "[2,\"Nice\",342669,\"NICE\",4]"])
            XCTAssertEqual(
                try rendered(db, "SELECT name, hidden FROM pragma_table_xinfo('cities') WHERE hidden > 0"),
                ["[\"upper_name\",2]", "[\"name_length\",3]"])
        }
    }

    /// A generated column over a column the plan drops cannot be made again: refused before anything is written.
    func testARebuildThatDropsAColumnAGeneratedColumnNamesIsRefused() throws {
        let queue = try cities(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population TEXT NOT NULL,
                founded_at TEXT, nickname TEXT, display_name TEXT AS (coalesce(nickname, name)));
            INSERT INTO cities (id, name, population) VALUES (1, 'Lyon', '516092');
            """)
        XCTAssertThrowsError(try queue.read { db in try EvolvedCity.schemaChanges(in: db) }) { error in
            XCTAssertEqual(
                "\(error)",
                "table \"cities\" cannot be rebuilt from its columns: its generated column \"display_name\" names "
                    + "column \"nickname\", which the plan drops; write this migration by hand")
        }
    }

    func testARebuildRefusesToRunWithForeignKeysOn() throws {
        let queue = try cities(
            "CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population TEXT NOT NULL, founded_at TEXT);"
        )
        XCTAssertThrowsError(try queue.write { db in try EvolvedCity.schemaChanges(in: db).apply(db) }) { error in
            guard case .cannotRebuild(table: "cities", reason: _)? = error as? SchemaChangeError else {
                return XCTFail("\(error)")
            }
        }
    }
}
