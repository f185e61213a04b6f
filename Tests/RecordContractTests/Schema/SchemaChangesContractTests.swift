import Foundation
import SQLiteRecord
import XCTest

/// A table's first shape: a level stored as text.
struct GaugeV1: Record {
    var id: Int64?
    var level: String
    static let tableName = "gauges"
}

/// The same table, its level now a number.
struct Gauge: Record, Equatable {
    var id: Int64?
    var level: Int
    static let tableName = "gauges"
}

/// A table whose code may be NULL and repeated, and whose weight may be negative.
struct PartV1: Record {
    var id: Int64?
    var code: String?
    var weight: Int64
    static let tableName = "parts"
}

/// The same table with a code that is NOT NULL and UNIQUE, and a weight that is not negative.
struct Part: Record, Equatable {
    var id: Int64?
    var code: String
    var weight: Int64
    static let tableName = "parts"
    static let tableDefinition = TableDefinition().unique(CodingKeys.code).check("weight >= 0")
}

/// A label whose name is UNIQUE with a DEFAULT.
struct LabelV1: Record {
    var id: Int64?
    var name: String
    static let tableName = "labels"
    static let tableDefinition = TableDefinition().unique(CodingKeys.name).defaultValue(CodingKeys.name, "none")
}

/// The same label, its name renamed title.
struct Label: Record, Equatable {
    var id: Int64?
    var title: String
    static let tableName = "labels"
    static let tableDefinition = TableDefinition().unique(CodingKeys.title).defaultValue(CodingKeys.title, "none")
}

/// `schemaChanges(in:options:)` on every engine: the same changes, the same refusals naming the same rows (each
/// engine names a row its way: SQLite by rowid, PostgreSQL by its key), nothing written by a refused plan,
/// and after an applied plan a fresh plan that is empty and rows that all read.
final class SchemaChangesContractTests: RecordContractTestCase {
    /// How the engine names the row of key `key` in a refusal.
    func row(_ engine: any ContractEngine, _ key: Int) -> String {
        engine.isSQLite ? "rowid \(key)" : "(\(key))"
    }

    func testRetypingATextColumnHoldingAValueThatIsNotANumberIsRefusedAndWritesNothing() {
        onEachEngine { engine in
            try engine.createTable(GaugeV1.self)
            try engine.execute("INSERT INTO gauges (id, level) VALUES (1, '7'), (2, 'A1'), (3, '12')")
            let plan = try engine.schemaChanges(Gauge.self, options: SchemaChangeOptions())
            XCTAssertEqual(
                plan.changes,
                [.changeColumnType("level", from: engine.isSQLite ? "TEXT" : "text", to: engine.isSQLite ? "INTEGER" : "BIGINT")])
            let refusal = SchemaChangeError.unreadableValues(
                table: "gauges", column: "level", valueType: "Int", count: 1, rows: [row(engine, 2) + " ('A1')"])
            XCTAssertEqual(plan.refusals, [refusal])
            XCTAssertEqual(
                refusal.description,
                #"column "level" of table "gauges" holds 1 value that Int cannot read: "# + row(engine, 2) + " ('A1')")
            let before = try engine.snapshot(["gauges"])
            XCTAssertEqual(error { try engine.apply(plan) } as? SchemaChangeError, refusal)
            XCTAssertEqual(error { try engine.applySchemaChanges(Gauge.self, options: SchemaChangeOptions()) } as? SchemaChangeError, refusal)
            XCTAssertEqual(try engine.snapshot(["gauges"]), before)

            try engine.execute("UPDATE gauges SET level = '8' WHERE id = 2")
            try engine.applySchemaChanges(Gauge.self, options: SchemaChangeOptions())
            XCTAssertTrue(try engine.schemaChanges(Gauge.self, options: SchemaChangeOptions()).isEmpty)
            try engine.write { db in try Gauge.validateSchema(in: db) }
            let gauges = try engine.write { db in try Gauge.all().fetch(db) }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            XCTAssertEqual(gauges.map(\.level), [7, 8, 12])
        }
    }

    func testARefusalCountsEveryRowAndNamesTen() {
        onEachEngine { engine in
            try engine.createTable(GaugeV1.self)
            for id in 1...12 { try engine.execute("INSERT INTO gauges (id, level) VALUES (\(id), 'x\(id)')") }
            let plan = try engine.schemaChanges(Gauge.self, options: SchemaChangeOptions())
            let rows = (1...10).map { row(engine, $0) + " ('x\($0)')" }
            XCTAssertEqual(
                plan.refusals,
                [.unreadableValues(table: "gauges", column: "level", valueType: "Int", count: 12, rows: rows)])
            XCTAssertEqual(
                plan.refusals.first?.description,
                #"column "level" of table "gauges" holds 12 values that Int cannot read: "#
                    + rows.joined(separator: ", ") + ", ...")
        }
    }

    func testANewNotNullUniqueAndCheckAreRefusedNamingTheRowsThatBreakThem() {
        onEachEngine { engine in
            try engine.createTable(PartV1.self)
            try engine.execute("INSERT INTO parts (id, code, weight) VALUES (1, NULL, 5), (2, 'a', -1), (3, 'a', 2)")
            let plan = try engine.schemaChanges(Part.self, options: SchemaChangeOptions())
            XCTAssertEqual(
                plan.changes,
                [
                    .changeNullability("code", isNotNull: true), .addUniqueIndex("parts_code_unique", columns: ["code"]),
                    .addCheck("weight >= 0"),
                ])
            XCTAssertEqual(
                plan.refusals,
                [
                    .nullValues(table: "parts", column: "code", rows: [row(engine, 1)]),
                    .duplicateValues(table: "parts", columns: ["code"], rows: [row(engine, 2), row(engine, 3)]),
                    .checkViolations(table: "parts", check: "weight >= 0", count: 1, rows: [row(engine, 2)]),
                ])
            let before = try engine.snapshot(["parts"])
            XCTAssertNotNil(error { try engine.applySchemaChanges(Part.self, options: SchemaChangeOptions()) })
            XCTAssertEqual(try engine.snapshot(["parts"]), before)

            try engine.execute("UPDATE parts SET code = 'b' WHERE id = 1")
            try engine.execute("UPDATE parts SET code = 'c', weight = 1 WHERE id = 2")
            try engine.applySchemaChanges(Part.self, options: SchemaChangeOptions())
            XCTAssertTrue(try engine.schemaChanges(Part.self, options: SchemaChangeOptions()).isEmpty)
            try engine.write { db in try Part.validateSchema(in: db) }
            let parts = try engine.write { db in try Part.all().fetch(db) }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            XCTAssertEqual(parts.map(\.code), ["b", "c", "a"])
            XCTAssertNotNil(error { try engine.execute("INSERT INTO parts (id, code, weight) VALUES (4, 'a', 1)") })
            XCTAssertNotNil(error { try engine.execute("INSERT INTO parts (id, code, weight) VALUES (5, 'e', -1)") })
            XCTAssertNotNil(error { try engine.execute("INSERT INTO parts (id, code, weight) VALUES (6, NULL, 1)") })
        }
    }

    func testADeclaredRenameKeepsTheColumnsNotNullUniqueAndDefault() {
        onEachEngine { engine in
            try engine.createTable(LabelV1.self)
            try engine.execute("INSERT INTO labels (id, name) VALUES (1, 'a'), (2, 'b')")
            let options = SchemaChangeOptions(renamedColumns: ["name": "title"])
            let plan = try engine.schemaChanges(Label.self, options: options)
            XCTAssertEqual(plan.changes, [.renameColumn(from: "name", to: "title")])
            XCTAssertEqual(plan.statements, [#"ALTER TABLE "labels" RENAME COLUMN "name" TO "title""#])
            XCTAssertEqual(plan.refusals, [])
            try engine.applySchemaChanges(Label.self, options: options)
            XCTAssertTrue(try engine.schemaChanges(Label.self, options: options).isEmpty)
            try engine.write { db in try Label.validateSchema(in: db) }
            try engine.execute("INSERT INTO labels (id) VALUES (3)")
            let labels = try engine.write { db in try Label.all().fetch(db) }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            XCTAssertEqual(labels.map(\.title), ["a", "b", "none"])
            XCTAssertNotNil(error { try engine.execute("INSERT INTO labels (id, title) VALUES (4, NULL)") })
            XCTAssertNotNil(error { try engine.execute("INSERT INTO labels (id, title) VALUES (5, 'a')") })
        }
    }
}

/// A flag stored as an integer.
struct FlagV1: Record {
    var id: Int64?
    var on: Int64
    static let tableName = "flags"
}

/// The same flag read as a Bool.
struct Flag: Record, Equatable {
    var id: Int64?
    var on: Bool
    static let tableName = "flags"
}

/// A date stored as text.
struct EventV1: Record {
    var id: Int64?
    var at: String
    static let tableName = "events"
}

/// The same date read as a Date.
struct Event: Record, Equatable {
    var id: Int64?
    var at: Date
    static let tableName = "events"
}

extension SchemaChangesContractTests {
    func testAValueTheColumnHoldsButThePropertyCannotReadIsRefusedWithoutAChangeOfType() {
        onEachEngine { engine in
            try engine.createTable(FlagV1.self)
            try engine.execute("INSERT INTO flags (id, \"on\") VALUES (1, 0), (2, 2), (3, 1)")
            let plan = try engine.schemaChanges(Flag.self, options: SchemaChangeOptions())
            XCTAssertEqual(plan.changes, [])
            XCTAssertEqual(
                plan.refusals,
                [.unreadableValues(table: "flags", column: "on", valueType: "Bool", count: 1, rows: [row(engine, 2) + " (2)"])])
        }
    }

    func testADateTextThatLooksRightButIsNoDateIsRefused() {
        onEachEngine { engine in
            try engine.createTable(EventV1.self)
            try engine.execute("INSERT INTO events (id, at) VALUES (1, '2023-01-05 10:00:00'), (2, '2023-13-01')")
            let plan = try engine.schemaChanges(Event.self, options: SchemaChangeOptions())
            // PostgreSQL retypes the text column TIMESTAMPTZ; SQLite reads dates from text as they are.
            XCTAssertEqual(plan.changes, engine.isSQLite ? [] : [.changeColumnType("at", from: "text", to: "TIMESTAMPTZ")])
            XCTAssertEqual(
                plan.refusals,
                [
                    .unreadableValues(
                        table: "events", column: "at", valueType: "Date", count: 1, rows: [row(engine, 2) + " ('2023-13-01')"])
                ])
            let before = try engine.snapshot(["events"])
            XCTAssertNotNil(error { try engine.apply(plan) })
            XCTAssertEqual(try engine.snapshot(["events"]), before)
        }
    }
}

/// A shelf the items below belong to.
struct Shelf: Record, Equatable {
    var id: Int64?
    var name: String
    static let tableName = "shelves"
}

/// An item whose shelf is a plain column.
struct ItemV1: Record {
    var id: Int64?
    var shelfID: Int64?
    static let tableName = "items"
    enum CodingKeys: String, CodingKey {
        case id
        case shelfID = "shelf_id"
    }
}

/// The same item, its shelf now a parent association (a foreign key), and a rank every row must have.
struct Item: Record, Equatable {
    var id: Int64?
    var shelfID: Int64?
    var rank: Int64
    static let tableName = "items"
    static let shelf = belongsTo(Shelf.self, using: "shelf_id")
    static let parentAssociations: [any ParentAssociation] = [shelf]
    enum CodingKeys: String, CodingKey {
        case id, rank
        case shelfID = "shelf_id"
    }
}

extension SchemaChangesContractTests {
    func testANewForeignKeyOverOrphansAndANotNullColumnWithoutADefaultAreRefused() {
        onEachEngine { engine in
            try engine.createTable(Shelf.self)
            try engine.createTable(ItemV1.self)
            try engine.execute("INSERT INTO shelves (id, name) VALUES (1, 'top')")
            try engine.execute("INSERT INTO items (id, shelf_id) VALUES (1, 1), (2, 7), (3, NULL)")
            let plan = try engine.schemaChanges(Item.self, options: SchemaChangeOptions())
            XCTAssertEqual(
                plan.changes,
                [
                    .addColumn("rank", definition: engine.isSQLite ? #""rank" INTEGER NOT NULL"# : #""rank" BIGINT NOT NULL"#),
                    .addForeignKey("shelf_id", references: #"REFERENCES "shelves" ("id")"#),
                ])
            XCTAssertEqual(
                plan.refusals,
                [
                    .missingDefault(table: "items", column: "rank", rowCount: 3),
                    .foreignKeyViolations(table: "items", rows: ["items " + row(engine, 2)]),
                ])
            let before = try engine.snapshot(["shelves", "items"])
            XCTAssertEqual(
                error { try engine.applySchemaChanges(Item.self, options: SchemaChangeOptions()) } as? SchemaChangeError,
                .missingDefault(table: "items", column: "rank", rowCount: 3))
            XCTAssertEqual(try engine.snapshot(["shelves", "items"]), before)

            try engine.execute("UPDATE items SET shelf_id = 1 WHERE id = 2")
            let options = SchemaChangeOptions(defaults: ["rank": .integer(0)])
            try engine.applySchemaChanges(Item.self, options: options)
            XCTAssertTrue(try engine.schemaChanges(Item.self, options: options).isEmpty)
            try engine.write { db in try Item.validateSchema(in: db) }
            let items = try engine.write { db in try Item.all().fetch(db) }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            XCTAssertEqual(items.map(\.shelfID), [1, 1, nil])
            XCTAssertEqual(items.map(\.rank), [0, 0, 0])
            XCTAssertNotNil(error { try engine.execute("INSERT INTO items (id, shelf_id, rank) VALUES (4, 9, 0)") })
        }
    }

    func testAColumnTheTypeNoLongerHasIsKeptWhileItHoldsValuesAndDroppedWhenAsked() {
        onEachEngine { engine in
            try engine.createTable(PartV1.self)
            try engine.execute("INSERT INTO parts (id, code, weight) VALUES (1, 'a', 5)")
            let plan = try engine.schemaChanges(GaugeLikePart.self, options: SchemaChangeOptions())
            XCTAssertEqual(plan.changes, [.keepColumn("code", valueCount: 1)])
            XCTAssertTrue(plan.isEmpty)
            let dropping = SchemaChangeOptions(dropsColumns: true)
            XCTAssertEqual(try engine.schemaChanges(GaugeLikePart.self, options: dropping).changes, [.dropColumn("code")])
            try engine.applySchemaChanges(GaugeLikePart.self, options: dropping)
            XCTAssertTrue(try engine.schemaChanges(GaugeLikePart.self, options: SchemaChangeOptions()).isEmpty)
            let parts = try engine.write { db in try GaugeLikePart.all().fetch(db) }
            XCTAssertEqual(parts.map(\.weight), [5])
        }
    }
}

/// The parts table without its code column.
struct GaugeLikePart: Record, Equatable {
    var id: Int64?
    var weight: Int64
    static let tableName = "parts"
}
