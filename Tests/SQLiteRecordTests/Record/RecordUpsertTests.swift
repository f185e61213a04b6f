import Foundation
import XCTest

@testable import SQLiteRecord

/// Upserts (`INSERT ... ON CONFLICT ... DO UPDATE`) that tell inserted from updated from unchanged, and inserts
/// that ignore conflicts.
final class RecordUpsertTests: XCTestCase {
    struct Place: Record, Equatable {
        var id: Int64?
        var name: String
        var population: Int
        static let tableName = "place"
    }

    struct Code: Record, Equatable {
        var id: String
        var label: String
        static let tableName = "code"
    }

    struct Gadget: Record, Equatable {
        var id: UUID
        var name: String
        static let tableName = "gadget"
    }

    struct Memo: Record, Equatable {
        var id: Int64?
        var body: String
        static let tableName = "memo"
    }

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, population INTEGER NOT NULL,
                                        created_at TEXT NOT NULL DEFAULT 'then');
                    CREATE TABLE code (id TEXT PRIMARY KEY, label TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE gadget (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE memo (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
                    CREATE TRIGGER memo_skip_blank BEFORE INSERT ON memo WHEN trim(NEW.body) = ''
                    BEGIN SELECT RAISE(IGNORE); END;
                    INSERT INTO place VALUES (1, 'Paris', 2100000, 'then');
                    INSERT INTO memo VALUES (100, 'seed');
                    """)
        }
        return queue
    }

    func testTheUpsertStatement() {
        let clause = UpsertClause(conflictColumns: nil, namedColumns: nil, leavesOutRowID: false)
        XCTAssertEqual(
            RecordWritePlan.Kind.upsertReporting(clause).sql(
                table: "place", columns: ["id", "name", "population"], keyColumns: ["id"], keyCounts: [1]),
            "INSERT INTO \"place\" (\"id\", \"name\", \"population\") VALUES (?, ?, ?) ON CONFLICT (\"id\") "
                + "DO UPDATE SET \"name\" = excluded.\"name\", \"population\" = excluded.\"population\" "
                + "WHERE (\"name\", \"population\") IS NOT (excluded.\"name\", excluded.\"population\")")
        let byName = UpsertClause(conflictColumns: ["name"], namedColumns: ["population"], leavesOutRowID: true)
        XCTAssertEqual(
            RecordWritePlan.Kind.upsertReporting(byName).sql(
                table: "place", columns: ["name", "population"], keyColumns: ["id"], keyCounts: [1]),
            "INSERT INTO \"place\" (\"name\", \"population\") VALUES (?, ?) ON CONFLICT (\"name\") "
                + "DO UPDATE SET \"population\" = excluded.\"population\" "
                + "WHERE (\"population\") IS NOT (excluded.\"population\")")
        let nothing = UpsertClause(conflictColumns: ["name"], namedColumns: [], leavesOutRowID: true)
        XCTAssertEqual(
            RecordWritePlan.Kind.upsertReporting(nothing).sql(
                table: "place", columns: ["name", "population"], keyColumns: ["id"], keyCounts: [1]),
            "INSERT INTO \"place\" (\"name\", \"population\") VALUES (?, ?) ON CONFLICT (\"name\") DO NOTHING")
        XCTAssertEqual(
            RecordWritePlan.Kind.insertOrIgnore(withoutID: true).sql(
                table: "place", columns: ["name"], keyColumns: ["id"], keyCounts: [1]),
            "INSERT OR IGNORE INTO \"place\" (\"name\") VALUES (?)")
    }

    func testInsertedUpdatedUnchangedByRowID() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var lyon = Place(id: nil, name: "Lyon", population: 500_000)
            XCTAssertEqual(try lyon.upsert(db), .inserted)
            XCTAssertEqual(lyon.id, 2)
            var paris = Place(id: 1, name: "Paris", population: 2_200_000)
            XCTAssertEqual(try paris.upsert(db), .updated)
            XCTAssertEqual(try paris.upsert(db), .unchanged)
            var nice = Place(id: 7, name: "Nice", population: 340_000)
            XCTAssertEqual(try nice.upsert(db), .inserted)
            XCTAssertEqual(nice.id, 7)
            // The plan is used from the second upsert of the type on; the outcomes are the same.
            for (index, expected) in [UpsertOutcome.unchanged, .updated, .unchanged].enumerated() {
                var again = Place(id: 7, name: "Nice", population: index == 1 ? 1 : (index == 0 ? 340_000 : 1))
                XCTAssertEqual(try again.upsert(db), expected, "round \(index)")
            }
            XCTAssertEqual(
                try db.scalar(
                    String.self, sql: "SELECT group_concat(id || ':' || name || ':' || population, ' ') FROM place"),
                "1:Paris:2200000 2:Lyon:500000 7:Nice:1")
            // Defaults the record does not write stay as the database set them.
            XCTAssertEqual(try db.scalar(String.self, sql: "SELECT created_at FROM place WHERE id = 1"), "then")
        }
    }

    func testAConflictOnANamedUniqueConstraintUpdatesThatRowAndTakesItsID() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var paris = Place(id: nil, name: "Paris", population: 2_300_000)
            XCTAssertEqual(try paris.upsert(db, onConflict: ["name"]), .updated)
            XCTAssertEqual(paris.id, 1)
            var again = Place(id: nil, name: "Paris", population: 2_300_000)
            XCTAssertEqual(try again.upsert(db, onConflict: ["name"]), .unchanged)
            XCTAssertEqual(again.id, 1)
            var onlyName = Place(id: nil, name: "Paris", population: 9)
            XCTAssertEqual(try onlyName.upsert(db, onConflict: ["name"], updating: []), .unchanged)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT population FROM place WHERE id = 1"), 2_300_000)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM place"), 1)
        }
    }

    func testUpdatingNamedColumnsLeavesTheOthers() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var paris = Place(id: 1, name: "Lutetia", population: 3)
            XCTAssertEqual(try paris.upsert(db, updating: ["population"]), .updated)
            XCTAssertEqual(try Place.fetchOne(db, id: 1), Place(id: 1, name: "Paris", population: 3))
        }
    }

    func testBadConflictTargetsAndColumnsThrowBeforeAnythingIsWritten() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var lyon = Place(id: nil, name: "Lyon", population: 1)
            XCTAssertThrowsError(try lyon.upsert(db, onConflict: ["population"])) { error in
                XCTAssertEqual(error as? RecordError, .conflictTargetNotUnique(table: "place", columns: ["population"]))
                XCTAssertEqual(
                    "\(error)",
                    "The conflict target (\"population\") of table \"place\" is neither its primary key nor a UNIQUE "
                        + "constraint on exactly those columns; nothing was written")
            }
            XCTAssertThrowsError(try lyon.upsert(db, onConflict: ["nope"])) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .unknownColumn(table: "place", column: "nope", columns: ["id", "name", "population"]))
            }
            XCTAssertThrowsError(try lyon.upsert(db, updating: ["nope"])) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .unknownColumn(table: "place", column: "nope", columns: ["id", "name", "population"]))
            }
            XCTAssertNil(lyon.id)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM place"), 1)
        }
    }

    func testWithoutRowIDTablesTellTheOutcomeByLookingFirst() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var euro = Code(id: "EUR", label: "Euro")
            XCTAssertEqual(try euro.upsert(db), .inserted)
            euro.label = "euro"
            XCTAssertEqual(try euro.upsert(db), .updated)
            XCTAssertEqual(try euro.upsert(db), .unchanged)
            XCTAssertEqual(try Code.fetchOne(db, id: "EUR")?.label, "euro")
        }
    }

    func testAUUIDKeyStoredInAnotherFormIsFoundAndUpdated() throws {
        let queue = try makeQueue()
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        try queue.write { db in
            try db.execute(sql: "INSERT INTO gadget VALUES (?, 'old')", arguments: [uuid.uuidString])  // uppercase
            var gadget = Gadget(id: uuid, name: "new")
            XCTAssertEqual(try gadget.upsert(db), .updated)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM gadget"), 1)
            var other = Gadget(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, name: "b")
            XCTAssertEqual(try other.upsert(db), .inserted)
            XCTAssertEqual(
                try db.scalar(
                    String.self, sql: "SELECT group_concat(name, ',') FROM (SELECT name FROM gadget ORDER BY name)"),
                "b,new")
        }
    }

    func testAnInsertATriggerSkippedThrows() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var blank = Memo(id: nil, body: " ")
            XCTAssertThrowsError(try blank.upsert(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "memo"))
            }
            XCTAssertNil(blank.id)
            var seed = Memo(id: 100, body: "seed")
            XCTAssertEqual(try seed.upsert(db), .unchanged)
        }
    }

    func testWhatAnUpsertKnowsOfItsTableFollowsTheSchema() throws {
        // An upsert keeps whether its table has a rowid and may skip writes on its plan; both are read again
        // once the schema changes.
        let queue = try makeQueue()
        try queue.write { db in
            for name in ["Lyon", "Nice", "Lyon"] {
                var place = Place(id: nil, name: name, population: 1)
                _ = try place.upsert(db, onConflict: ["name"])
            }
            var lyon = Place(id: 2, name: "Lyon", population: 1)
            XCTAssertEqual(try lyon.upsert(db), .unchanged)
            XCTAssertEqual(try lyon.upsert(db), .unchanged)  // through the plan, which keeps what it read
            try db.execute(sql: "CREATE TRIGGER place_skip BEFORE INSERT ON place BEGIN SELECT RAISE(IGNORE); END")
            var nice = Place(id: 9, name: "Nice2", population: 1)
            XCTAssertThrowsError(try nice.upsert(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "place"))
            }
            XCTAssertEqual(try lyon.upsert(db), .unchanged)

            try db.execute(
                sql: """
                    DROP TABLE place;
                    CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER NOT NULL)
                        WITHOUT ROWID;
                    """)
            var lille = Place(id: 5, name: "Lille", population: 1)
            XCTAssertEqual(try lille.upsert(db), .inserted)
            lille.population = 2
            XCTAssertEqual(try lille.upsert(db), .updated)
            XCTAssertEqual(try lille.upsert(db), .unchanged)
            XCTAssertEqual(
                try db.scalar(
                    String.self, sql: "SELECT group_concat(id || ':' || name || ':' || population) FROM place"),
                "5:Lille:2")
        }
    }

    func testABatchIsAllOrNothing() throws {
        let queue = try makeQueue()
        try RecordStore.use(queue)
        var places = [
            Place(id: nil, name: "Lyon", population: 1), Place(id: 1, name: "Paris", population: 2),
            Place(id: 1, name: "Paris", population: 2),
        ]
        XCTAssertEqual(try Place.upsert(&places), [.inserted, .updated, .unchanged])
        XCTAssertEqual(places.map(\.id), [2, 1, 1])
        var failing = [Place(id: nil, name: "Nice", population: 1), Place(id: 9, name: "Lyon", population: 1)]
        XCTAssertThrowsError(try Place.upsert(&failing))  // 9 takes Lyon's name: UNIQUE
        XCTAssertEqual(failing.map(\.id), [nil, 9])
        XCTAssertEqual(try Place.count(), 2)
    }

    func testInsertOrIgnoreReportsWhetherARowWasInserted() throws {
        let queue = try makeQueue()
        try queue.write { db in
            for round in 0..<2 {
                // The second round goes through the plan the first made.
                var paris = Place(id: nil, name: "Paris", population: 1)
                XCTAssertFalse(try paris.insert(db, onConflict: .ignore), "round \(round)")
                XCTAssertNil(paris.id)
                var town = Place(id: nil, name: "Town \(round)", population: 1)
                XCTAssertTrue(try town.insert(db, onConflict: .ignore))
                XCTAssertEqual(town.id, Int64(2 + round))
            }
            var taken = Place(id: 1, name: "Elsewhere", population: 1)
            XCTAssertFalse(try taken.insert(db, onConflict: .ignore))
            XCTAssertThrowsError(try taken.insert(db, onConflict: .abort))
        }
    }

    func testTheDefaultStoreAndAsyncForms() async throws {
        let queue = try makeQueue()
        try RecordStore.use(queue)
        var lyon = Place(id: nil, name: "Lyon", population: 1)
        let first = try await lyon.upsert()
        XCTAssertEqual(first, .inserted)
        lyon.population = 2
        let outcome = try await lyon.upsert()
        XCTAssertEqual(outcome, .updated)
        var paris = Place(id: nil, name: "Paris", population: 5)
        let byName = try await paris.upsert(onConflict: ["name"])
        XCTAssertEqual(byName, .updated)
        XCTAssertEqual(paris.id, 1)
        var copy = Place(id: nil, name: "Lyon", population: 9)
        let inserted = try await copy.insert(onConflict: .ignore)
        XCTAssertFalse(inserted)
        XCTAssertNil(copy.id)
    }
}
