import Foundation
import XCTest

@testable import SQLiteRecord

/// Unique constraints, indexes, defaults, checks and foreign keys declared on the type, written by
/// createTable(in:) and checked by validateSchema(in:).
final class TableDefinitionTests: XCTestCase {
    struct Continent: Record, Equatable {
        var id: Int64?
        var code: String
        static let tableName = "continents"
        enum CodingKeys: String, CodingKey { case id, code }
        static let tableDefinition = TableDefinition().unique(CodingKeys.code)
    }

    struct Nation: Record, Equatable {
        var id: Int64?
        var name: String
        var iso: String
        var population: Int64
        var continentCode: String?
        static let tableName = "nations"
        enum CodingKeys: String, CodingKey {
            case id, name, iso, population
            case continentCode = "continent_code"
        }
        static let tableDefinition = TableDefinition()
            .unique(CodingKeys.iso)
            .index(CodingKeys.name)
            .defaultValue(CodingKeys.population, 0)
            .check("population >= 0", name: "population_not_negative")
            .foreignKey(
                CodingKeys.continentCode, references: "continents", columns: ["code"], onDelete: .setNull,
                onUpdate: .cascade)
    }

    /// A snake_case record: coding keys name the columns its encoder writes.
    struct Stop: Record, Equatable {
        var id: Int64?
        var lineName: String
        var position: Int
        var label: String
        static let tableName = "stops"
        enum CodingKeys: String, CodingKey { case id, lineName, position, label }
        static let recordEncoder: RecordEncoder = {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }()
        static let rowDecoder: RowDecoder = {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }()
        static let tableDefinition = TableDefinition()
            .unique(CodingKeys.lineName, CodingKeys.position)
            .defaultValue(CodingKeys.label, "unnamed")
            .index([Column("label")], name: "stops_by_label", isUnique: false)
    }

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try Continent.createTable(in: db)
        try Nation.createTable(in: db)
        return db
    }

    func testTheSQLOfEachPart() throws {
        XCTAssertEqual(
            try Nation.createTableSQL(),
            "CREATE TABLE \"nations\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, \"iso\" TEXT NOT NULL, "
                + "\"population\" INTEGER NOT NULL DEFAULT 0, \"continent_code\" TEXT, UNIQUE (\"iso\"), "
                + "CONSTRAINT \"population_not_negative\" CHECK (population >= 0), "
                + "FOREIGN KEY (\"continent_code\") REFERENCES \"continents\" (\"code\") ON DELETE SET NULL "
                + "ON UPDATE CASCADE); "
                + "CREATE INDEX \"nations_name\" ON \"nations\" (\"name\"); "
                + "CREATE INDEX \"nations_continent_code\" ON \"nations\" (\"continent_code\")")
        XCTAssertEqual(
            try Stop.createTableSQL(ifNotExists: true),
            "CREATE TABLE IF NOT EXISTS \"stops\" (\"id\" INTEGER PRIMARY KEY, \"line_name\" TEXT NOT NULL, "
                + "\"position\" INTEGER NOT NULL, \"label\" TEXT NOT NULL DEFAULT 'unnamed', "
                + "UNIQUE (\"line_name\", \"position\")); "
                + "CREATE INDEX IF NOT EXISTS \"stops_by_label\" ON \"stops\" (\"label\")")
    }

    func testTheDefinitionIsAPlainValue() {
        let definition = Nation.tableDefinition
        XCTAssertEqual(definition.uniqueKeys.map { $0.columns.map(\.name) }, [["iso"]])
        XCTAssertEqual(definition.indexes.map { $0.columns.map(\.name) }, [["name"]])
        XCTAssertEqual(definition.defaults.map(\.value), [.value(.integer(0))])
        XCTAssertEqual(
            definition.checks, [TableDefinition.Check(name: "population_not_negative", sql: "population >= 0")])
        XCTAssertEqual(definition.foreignKeys.first?.onUpdate, .cascade)
        XCTAssertEqual(definition.foreignKeys.first?.columns.first?.isCodingKey, true)
        XCTAssertEqual(definition, Nation.tableDefinition)
        XCTAssertTrue(TableDefinition().isEmpty)
    }

    func testAnUpsertOnTheUniqueColumnNeedsNoIndexByHand() throws {
        let db = try makeDatabase()
        var france = Nation(id: nil, name: "France", iso: "FR", population: 1, continentCode: nil)
        try france.insert(db)
        var again = Nation(
            id: nil, name: "République française", iso: "FR", population: 68_000_000, continentCode: nil)
        XCTAssertEqual(try again.upsert(db, onConflict: ["iso"], updating: ["population"]), .updated)
        XCTAssertEqual(again.id, france.id)
        let rows = try db.fetchAll(String.self, sql: "SELECT name || ' ' || iso || ' ' || population FROM nations")
        XCTAssertEqual(rows, ["France FR 68000000"])
    }

    func testDefaultsCheckAndForeignKeyActionsWork() throws {
        let db = try makeDatabase()
        var europe = Continent(id: nil, code: "EU")
        try europe.insert(db)
        try db.execute(sql: "INSERT INTO nations (name, iso, continent_code) VALUES ('Spain', 'ES', 'EU')")
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT population FROM nations"), 0)
        var negative = Nation(id: nil, name: "Nowhere", iso: "XX", population: -1, continentCode: nil)
        XCTAssertThrowsError(try negative.insert(db)) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "CHECK constraint failed: population_not_negative")
        }
        XCTAssertNil(negative.id)
        // ON UPDATE CASCADE, then ON DELETE SET NULL.
        try db.execute(sql: "UPDATE continents SET code = 'EUR'")
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT continent_code FROM nations"), "EUR")
        try db.execute(sql: "DELETE FROM continents")
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT continent_code IS NULL FROM nations"), 1)
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM nations"), 1)
    }

    func testATableCreatedFromTheTypeValidates() throws {
        let db = try makeDatabase()
        XCTAssertNoThrow(try Nation.validateSchema(in: db))
        try Stop.createTable(in: db)
        XCTAssertNoThrow(try Stop.validateSchema(in: db))
    }

    func testEveryMissingPartIsReported() throws {
        let db = try Database()
        try Continent.createTable(in: db)
        try db.execute(
            sql: """
                CREATE TABLE nations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, iso TEXT NOT NULL,
                    population INTEGER NOT NULL DEFAULT 1, continent_code TEXT REFERENCES continents (code));
                CREATE UNIQUE INDEX nations_by_iso ON nations (iso)
                """)
        XCTAssertThrowsError(try Nation.validateSchema(in: db)) { error in
            XCTAssertEqual(
                "\(error)",
                """
                Nation does not match table "nations" (4 mismatches):
                - index ("name") is declared CREATE INDEX "nations_name" ON "nations" ("name") but the table has none
                - default of "population" is declared DEFAULT 0 but the table has DEFAULT 1
                - check is declared CHECK (population >= 0) but the table has none
                - foreign key ("continent_code") is declared FOREIGN KEY ("continent_code") REFERENCES "continents" \
                ("code") ON DELETE SET NULL ON UPDATE CASCADE but the table has FOREIGN KEY ("continent_code") \
                REFERENCES "continents" ("code") ON DELETE NO ACTION ON UPDATE NO ACTION
                """)
        }
        try db.execute(sql: "DROP INDEX nations_by_iso")
        XCTAssertThrowsError(try Nation.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches.first,
                .tableDefinition("unique (\"iso\")", declared: "UNIQUE (\"iso\")", table: nil))
        }
    }

    func testAColumnTheTypeDoesNotEncodeIsRefused() throws {
        struct Bad: Record {
            var id: Int64?
            var name: String
            static let tableName = "bad"
            static let tableDefinition = TableDefinition().unique([Column("nmae")])
        }
        XCTAssertThrowsError(try Bad.createTableSQL()) { error in
            XCTAssertEqual(
                error as? RecordError, .unknownColumn(table: "bad", column: "nmae", columns: ["id", "name"]))
        }
    }
}
