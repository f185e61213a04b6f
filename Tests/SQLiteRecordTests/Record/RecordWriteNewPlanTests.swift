import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// Every record write goes through a plan: the first record of a type makes the plan it is written
/// through (one statement prepared, not two), and a record that cannot use the kept plan (other coding keys,
/// a write while the kept plan is in use, a write that reads back) gets a plan of its own while the kept
/// plan stays.
final class RecordWriteNewPlanTests: XCTestCase {
    private struct City: Record, Equatable {
        var id: Int64?
        var name: String
        var population: Int
        static let tableName = "cities"
    }

    /// Leaves `population` out when it is negative: such a record encodes other coding keys than the rest.
    private struct SparseCity: Record, Equatable {
        var id: Int64?
        var name: String
        var population: Int
        static let tableName = "cities"
        enum CodingKeys: String, CodingKey { case id, name, population }

        init(id: Int64? = nil, name: String, population: Int) {
            self.id = id
            self.name = name
            self.population = population
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64?.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            population = try container.decodeIfPresent(Int.self, forKey: .population) ?? -1
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(name, forKey: .name)
            if population >= 0 { try container.encode(population, forKey: .population) }
        }
    }

    private static let schema =
        "CREATE TABLE cities(id INTEGER PRIMARY KEY, name TEXT NOT NULL, population INTEGER DEFAULT 7)"

    /// The statements the connection holds prepared (`sqlite3_next_stmt`) whose SQL starts with `prefix`.
    private func preparedStatements(_ db: Database, startingWith prefix: String) -> [String] {
        var found: [String] = []
        var statement = sqlite3_next_stmt(db.handle, nil)
        while let current = statement {
            if let text = sqlite3_sql(current) {
                let sql = String(cString: text)
                if sql.hasPrefix(prefix) { found.append(sql) }
            }
            statement = sqlite3_next_stmt(db.handle, current)
        }
        return found
    }

    private func plan<R: Record>(_ type: R.Type, _ kind: RecordWritePlan.Kind, in db: Database) -> RecordWritePlan? {
        RecordConnectionCache.of(db).writePlan(for: ObjectIdentifier(type), kind)
    }

    private func rows(_ db: Database) throws -> [String] {
        try db.fetchAll(
            String.self, sql: "SELECT id || '|' || name || '|' || quote(population) FROM cities ORDER BY id")
    }

    func testTheFirstInsertPreparesItsStatementOnceAndKeepsItsPlan() throws {
        let db = try Database()
        try db.execute(sql: Self.schema)
        var first = City(name: "Lyon", population: 500)
        try first.insert(db)
        XCTAssertEqual(
            preparedStatements(db, startingWith: "INSERT"), ["INSERT INTO \"cities\" (\"name\", \"population\") VALUES (?, ?)"],
            "one INSERT prepared: the plan's, which wrote the first record")
        let kept = try XCTUnwrap(plan(City.self, .insertWithoutID, in: db))
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 0, "the first record is bound from its own encoding")
        var second = City(name: "Nice", population: 300)
        try second.insert(db)
        XCTAssertTrue(plan(City.self, .insertWithoutID, in: db) === kept)
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 1, "the second record bound through the kept plan")
        XCTAssertEqual(preparedStatements(db, startingWith: "INSERT").count, 1)
        XCTAssertEqual(try rows(db), ["1|Lyon|500", "2|Nice|300"])
    }

    func testTheFirstUpdatePreparesItsStatementOnce() throws {
        let db = try Database()
        try db.execute(sql: Self.schema)
        try db.execute(sql: "INSERT INTO cities VALUES (1, 'Lyon', 500), (2, 'Nice', 300)")
        try City(id: 1, name: "Lyon", population: 520).update(db)
        XCTAssertEqual(
            preparedStatements(db, startingWith: "UPDATE"),
            ["UPDATE \"cities\" SET \"name\" = ?, \"population\" = ? WHERE \"id\" = ?"])
        try City(id: 2, name: "Nice", population: 310).update(db)
        XCTAssertEqual(preparedStatements(db, startingWith: "UPDATE").count, 1)
        XCTAssertEqual(try rows(db), ["1|Lyon|520", "2|Nice|310"])
    }

    func testARecordWithOtherCodingKeysIsWrittenThroughItsOwnPlanAndTheKeptPlanStays() throws {
        let db = try Database()
        try db.execute(sql: Self.schema)
        var first = SparseCity(name: "Lyon", population: 500)
        try first.insert(db)
        let kept = try XCTUnwrap(plan(SparseCity.self, .insertWithoutID, in: db))
        var sparse = SparseCity(name: "Gap", population: -1)
        try sparse.insert(db)
        XCTAssertEqual(sparse.id, 2)
        XCTAssertTrue(plan(SparseCity.self, .insertWithoutID, in: db) === kept, "the kept plan stays")
        var third = SparseCity(name: "Nice", population: 300)
        try third.insert(db)
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 1, "the third record went through the kept plan")
        XCTAssertEqual(try rows(db), ["1|Lyon|500", "2|Gap|7", "3|Nice|300"], "the sparse row took the DEFAULT")

        // An update that leaves population out keeps the stored value.
        try SparseCity(id: 1, name: "Lyon", population: 510).update(db)
        let keptUpdate = try XCTUnwrap(plan(SparseCity.self, .update, in: db))
        try SparseCity(id: 3, name: "Nice-sur-mer", population: -1).update(db)
        XCTAssertTrue(plan(SparseCity.self, .update, in: db) === keptUpdate)
        XCTAssertEqual(try rows(db), ["1|Lyon|510", "2|Gap|7", "3|Nice-sur-mer|300"])
    }

    nonisolated(unsafe) private static var nestedDB: Database?

    /// Inserts a child of its own type from inside `encode(to:)` when `spawns`: while the kept plan's statement
    /// is half bound.
    private struct Spawning: Record {
        var id: Int64?
        var name: String
        var spawns = false
        static let tableName = "spawning"
        enum CodingKeys: String, CodingKey { case id, name }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            if spawns, let db = nestedDB {
                var child = Spawning(id: nil, name: name + "-child")
                try child.insert(db)
            }
            try container.encode(name, forKey: .name)
        }
    }

    func testAWriteWhileTheKeptPlanIsInUseGetsAPlanOfItsOwn() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE spawning(id INTEGER PRIMARY KEY, name TEXT)")
        Self.nestedDB = db
        defer { Self.nestedDB = nil }
        var first = Spawning(id: nil, name: "first")
        try first.insert(db)
        let kept = try XCTUnwrap(plan(Spawning.self, .insertWithoutID, in: db))
        var parent = Spawning(id: nil, name: "parent", spawns: true)
        try parent.insert(db)
        XCTAssertEqual(parent.id, 3, "the child took rowid 2 while the parent was bound")
        XCTAssertTrue(plan(Spawning.self, .insertWithoutID, in: db) === kept)
        XCTAssertFalse(kept.isInUse)
        var last = Spawning(id: nil, name: "last")
        try last.insert(db)
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT id || '|' || name FROM spawning ORDER BY id"),
            ["1|first", "2|parent-child", "3|parent", "4|last"])
    }

    private struct Stamp: Record, Equatable {
        var id: Int64?
        var name: String
        var createdAt: String?
        var hits: Int
        static let tableName = "stamps"
    }

    func testWritesThatReadBackGiveExactValuesAndKeepNoPlan() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE stamps(id INTEGER PRIMARY KEY, name TEXT UNIQUE, createdAt TEXT DEFAULT '2026-01-02',
                  hits INTEGER NOT NULL)
                """)
        var first = Stamp(name: "a", createdAt: nil, hits: 1)
        try first.insertAndFetch(db)
        XCTAssertEqual(first, Stamp(id: 1, name: "a", createdAt: "2026-01-02", hits: 1), "the DEFAULT read back")
        var second = Stamp(name: "b", createdAt: "2025-12-31", hits: 2)
        try second.insertAndFetch(db)
        XCTAssertEqual(second, Stamp(id: 2, name: "b", createdAt: "2025-12-31", hits: 2))
        var third = Stamp(name: "c", createdAt: nil, hits: 3)
        try third.insertAndFetch(db)
        XCTAssertEqual(third, Stamp(id: 3, name: "c", createdAt: "2026-01-02", hits: 3))
        XCTAssertNil(plan(Stamp.self, .insertWithoutID, in: db), "a plan that reads back is not kept")
        XCTAssertEqual(
            preparedStatements(db, startingWith: "INSERT").count, 2,
            "one statement per shape (with and without createdAt), from the statement cache")

        // An upsert onto the row "b", reading it back.
        var upserted = Stamp(id: 2, name: "b", createdAt: "2024-05-06", hits: 20)
        try upserted.upsertAndFetch(db)
        XCTAssertEqual(upserted, Stamp(id: 2, name: "b", createdAt: "2024-05-06", hits: 20))
        var inserted = Stamp(id: 9, name: "z", createdAt: nil, hits: 9)
        try inserted.upsertAndFetch(db)
        XCTAssertEqual(inserted, Stamp(id: 9, name: "z", createdAt: "2026-01-02", hits: 9))

        // The plain insert after them makes and keeps its plan, and stores the NULL it holds.
        var plain = Stamp(name: "p", createdAt: nil, hits: 4)
        try plain.insert(db)
        XCTAssertNotNil(plan(Stamp.self, .insertWithoutID, in: db))
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT id || '|' || quote(createdAt) FROM stamps ORDER BY id"),
            ["1|'2026-01-02'", "2|'2024-05-06'", "3|'2026-01-02'", "9|'2026-01-02'", "10|NULL"])
    }

    func testAnUpdateWithNothingButTheKeyChecksTheRowExists() throws {
        struct KeyOnly: Record {
            var id: Int64?
            static let tableName = "key_only"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE key_only(id INTEGER PRIMARY KEY); INSERT INTO key_only VALUES (1)")
        try KeyOnly(id: 1).update(db)
        XCTAssertThrowsError(try KeyOnly(id: 2).update(db)) { error in
            guard case RecordError.recordNotFound(let table, let id) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(table, "key_only")
            XCTAssertEqual(id, "2")
        }
        XCTAssertNil(plan(KeyOnly.self, .update, in: db), "no statement to prepare")
    }

    func testTheFirstChangeComparisonIsMadeFromTheComparedRecord() throws {
        let db = try Database()
        try db.execute(sql: Self.schema)
        var city = City(name: "Lyon", population: 500)
        try city.insert(db)
        let original = city
        city.population = 501
        XCTAssertNil(RecordConnectionCache.of(db).comparisons[ObjectIdentifier(City.self)])
        XCTAssertEqual(try city.changedColumns(from: original, db: db), ["population"])
        let comparison = try XCTUnwrap(RecordConnectionCache.of(db).comparisons[ObjectIdentifier(City.self)])
        city.name = "Lyon 2"
        XCTAssertEqual(try city.changedColumns(from: original, db: db), ["name", "population"])
        XCTAssertTrue(RecordConnectionCache.of(db).comparisons[ObjectIdentifier(City.self)] === comparison)
    }
}
