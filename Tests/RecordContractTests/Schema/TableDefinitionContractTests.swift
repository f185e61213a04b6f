import Foundation
import SQLiteRecord
import XCTest

/// A type whose table declares every part of a `tableDefinition`: UNIQUE, an index, defaults, CHECKs and a
/// foreign key with an action.
struct Gadget: Record, Equatable {
    var id: Int64?
    var code: String
    var name: String
    var weight: Int64
    var ownerID: Int64?
    static let tableName = "gadgets"
    enum CodingKeys: String, CodingKey { case id, code, name, weight, ownerID = "owner_id" }
    static let tableDefinition = TableDefinition()
        .unique(CodingKeys.code)
        .index(CodingKeys.name)
        .defaultValue(CodingKeys.weight, 0)
        .defaultValue(CodingKeys.name, "none")
        .check("weight >= 0")
        .check("name <> ''")
        .foreignKey(CodingKeys.ownerID, references: "owners", onDelete: .cascade)
}

/// `validateSchema(in:)` checks the type's `tableDefinition` on every engine, with the same messages.
final class TableDefinitionContractTests: RecordContractTestCase {
    func testATableMadeByCreateTableHasEveryDeclaredPart() {
        onEachEngine { engine in
            try engine.execute("CREATE TABLE owners (id BIGINT PRIMARY KEY)")
            try engine.createTable(Gadget.self)
            try engine.write { db in try Gadget.validateSchema(in: db) }
        }
    }

    func testEachMissingOrDifferentPartIsReportedAlike() {
        onEachEngine { engine in
            try engine.execute("CREATE TABLE owners (id BIGINT PRIMARY KEY)")
            try engine.execute(
                """
                CREATE TABLE gadgets (id BIGINT PRIMARY KEY, code TEXT NOT NULL, name TEXT NOT NULL DEFAULT 'none',
                    weight BIGINT NOT NULL DEFAULT 5, owner_id BIGINT REFERENCES owners (id), CHECK (name <> ''))
                """)
            let thrown = error { try engine.write { db in try Gadget.validateSchema(in: db) } }
            let mismatches = (thrown as? SchemaValidationError)?.mismatches.map(\.description)
            XCTAssertEqual(
                mismatches,
                [
                    #"unique ("code") is declared UNIQUE ("code") but the table has none"#,
                    #"index ("name") is declared CREATE INDEX "gadgets_name" ON "gadgets" ("name") but the table "#
                        + "has none",
                    #"default of "weight" is declared DEFAULT 0 but the table has DEFAULT 5"#,
                    "check is declared CHECK (weight >= 0) but the table has none",
                    #"foreign key ("owner_id") is declared FOREIGN KEY ("owner_id") REFERENCES "owners" ON DELETE "#
                        + #"CASCADE but the table has FOREIGN KEY ("owner_id") REFERENCES "owners" ON DELETE NO "#
                        + "ACTION ON UPDATE NO ACTION",
                ])
        }
    }

    func testAnIndexThatIsNotUniqueAndATextDefaultThatDiffersAreNamedAsTheTableHasThem() {
        onEachEngine { engine in
            try engine.execute("CREATE TABLE owners (id BIGINT PRIMARY KEY)")
            try engine.execute(
                """
                CREATE TABLE gadgets (id BIGINT PRIMARY KEY, code TEXT NOT NULL, name TEXT NOT NULL DEFAULT 'nil',
                    weight BIGINT NOT NULL DEFAULT 0, owner_id BIGINT REFERENCES owners (id) ON DELETE CASCADE,
                    CHECK (name <> ''), CHECK (weight >= 0))
                """)
            try engine.execute("CREATE INDEX gadgets_code ON gadgets (code)")
            try engine.execute("CREATE INDEX gadgets_name ON gadgets (name)")
            let thrown = error { try engine.write { db in try Gadget.validateSchema(in: db) } }
            // PostgreSQL keeps a text default with its cast, and the message shows it as the table has it.
            let textDefault = engine.isSQLite ? "DEFAULT 'nil'" : "DEFAULT 'nil'::text"
            XCTAssertEqual(
                (thrown as? SchemaValidationError)?.mismatches.map(\.description),
                [
                    #"unique ("code") is declared UNIQUE ("code") but the table has none"#,
                    #"default of "name" is declared DEFAULT 'none' but the table has "# + textDefault,
                ])
        }
    }
}
