import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// The connection a record type below reads from while it decodes, and what it keeps: the types are decoded
/// by the library, so what they use has to live outside them; the lock makes that global safe.
private final class Slot<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

private let lookupConnection = Slot<Database>()
private let keptContainer = Slot<KeyedDecodingContainer<Employee.CodingKeys>>()
private let placeTable = Slot<String>()

/// An employee whose `init(from:)` looks up its manager by key, on the same connection, while its own
/// lookup is still decoding.
private struct Employee: Record, Equatable {
    var id: Int64?
    var name: String
    var managerId: Int64?
    /// The manager's name, read during decoding; not a column.
    var managerName: String?
    static let tableName = "employees"

    enum CodingKeys: String, CodingKey {
        case id, name
        case managerId = "manager_id"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(managerId, forKey: .managerId)
    }
}

extension Employee {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64?.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        managerId = try container.decode(Int64?.self, forKey: .managerId)
        if let managerId, let db = lookupConnection.value {
            managerName = try Employee.fetchOne(db, id: managerId)?.name
        }
        keptContainer.value = container
    }
}

/// A record whose table is chosen while the program runs.
private struct Place: Record, Equatable {
    var id: Int64?
    var name: String
    static var tableName: String { placeTable.value ?? "places" }
}

/// A record keyed by text.
private struct Airport: Record, Equatable {
    var id: String
    var name: String
    static let tableName = "airports"
}

/// `fetchOne(_:id:)` runs through a statement kept per record type and connection (``RecordLookupPlan``):
/// it is made once, used again, made anew when the schema or the type's table changes, never shared with a
/// lookup that starts while it runs, and decodes as every other fetch does.
final class RecordLookupPlanTests: XCTestCase {
    override func tearDown() {
        lookupConnection.value = nil
        keptContainer.value = nil
        placeTable.value = nil
        super.tearDown()
    }

    private func worldDatabase() throws -> Database {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        try france.save(db)
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_000_000)
        try japan.save(db)
        return db
    }

    func testLookupsOfATypeShareOnePlanOnAConnection() throws {
        let db = try worldDatabase()
        XCTAssertEqual(try Country.fetchOne(db, id: 1)?.name, "France")
        let plans = RecordConnectionCache.of(db)
        let plan = try XCTUnwrap(plans.lookupPlans[ObjectIdentifier(Country.self)])
        XCTAssertEqual(plan.statement.sql, #"SELECT * FROM "countries" WHERE "id" = ?"#)
        XCTAssertEqual(try Country.fetchOne(db, id: 2)?.name, "Japan")
        XCTAssertNil(try Country.fetchOne(db, id: 3))
        XCTAssertTrue(plans.lookupPlans[ObjectIdentifier(Country.self)] === plan)
        XCTAssertEqual(plans.lookupPlans.count, 1)
        // Reset after each lookup: the statement holds no read lock between calls.
        XCTAssertFalse(plan.statement.isBusy)
        XCTAssertFalse(plan.isInUse)
    }

    func testATextKeyIsLookedUpThroughAPlanAndItsBindingCleared() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE airports(id TEXT PRIMARY KEY, name TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO airports VALUES ('NRT', 'Narita'), ('CDG', 'Charles de Gaulle')")
        XCTAssertEqual(try Airport.fetchOne(db, id: "CDG"), Airport(id: "CDG", name: "Charles de Gaulle"))
        XCTAssertNil(try Airport.fetchOne(db, id: "LHR"))
        let plan = try XCTUnwrap(RecordConnectionCache.of(db).lookupPlans[ObjectIdentifier(Airport.self)])
        // No copy of the last key stays bound in the kept statement.
        XCTAssertNil(plan.statement.sqlExpandedForTest.range(of: "LHR"))
    }

    func testASchemaChangeMakesANewPlanThatReadsTheNewColumns() throws {
        let db = try worldDatabase()
        XCTAssertEqual(try Country.fetchOne(db, id: 1)?.population, 66_000_000)
        let first = try XCTUnwrap(RecordConnectionCache.of(db).lookupPlans[ObjectIdentifier(Country.self)])
        try db.execute(sql: "ALTER TABLE countries RENAME COLUMN population TO inhabitants")
        XCTAssertThrowsError(try Country.fetchOne(db, id: 1)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else {
                return XCTFail("Expected keyNotFound, got \(error)")
            }
            XCTAssertEqual(key.stringValue, "population")
        }
        try db.execute(sql: "ALTER TABLE countries RENAME COLUMN inhabitants TO population")
        try db.execute(sql: "UPDATE countries SET population = 67000000 WHERE id = 1")
        XCTAssertEqual(try Country.fetchOne(db, id: 1)?.population, 67_000_000)
        let second = try XCTUnwrap(RecordConnectionCache.of(db).lookupPlans[ObjectIdentifier(Country.self)])
        XCTAssertFalse(first === second)
    }

    func testADroppedTableIsReportedByTypeAfterAPlanWasMade() throws {
        let db = try worldDatabase()
        XCTAssertNil(try City.fetchOne(db, id: 1))
        XCTAssertNotNil(RecordConnectionCache.of(db).lookupPlans[ObjectIdentifier(City.self)])
        try db.execute(sql: "DROP TABLE cities")
        XCTAssertThrowsError(try City.fetchOne(db, id: 1)) { error in
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "no such table: cities (the table of City: create it with City.createTable(in:) or in a "
                    + "DatabaseMigrator migration, or set City.tableName to the table's name)")
        }
    }

    func testAChangedTableNameMakesANewPlan() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE places(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try db.execute(sql: "CREATE TABLE towns(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO places VALUES (1, 'Lyon')")
        try db.execute(sql: "INSERT INTO towns VALUES (1, 'Nara')")
        XCTAssertEqual(try Place.fetchOne(db, id: 1)?.name, "Lyon")
        placeTable.value = "towns"
        XCTAssertEqual(try Place.fetchOne(db, id: 1)?.name, "Nara")
        let plan = try XCTUnwrap(RecordConnectionCache.of(db).lookupPlans[ObjectIdentifier(Place.self)])
        XCTAssertEqual(plan.statement.sql, #"SELECT * FROM "towns" WHERE "id" = ?"#)
    }

    func testALookupStartedWhileTheTypesPlanDecodesGetsItsOwnStatement() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE employees(id INTEGER PRIMARY KEY, name TEXT NOT NULL, manager_id INTEGER)")
        try db.execute(sql: "INSERT INTO employees VALUES (1, 'Ada', NULL), (2, 'Grace', 1), (3, 'Linus', 2)")
        lookupConnection.value = db
        let linus = try XCTUnwrap(try Employee.fetchOne(db, id: 3))
        XCTAssertEqual(linus, Employee(id: 3, name: "Linus", managerId: 2, managerName: "Grace"))
        // The outer lookup's row was decoded whole, after the nested ones used statements of their own.
        XCTAssertEqual(try Employee.fetchOne(db, id: 2)?.managerName, "Ada")
        XCTAssertEqual(RecordConnectionCache.of(db).lookupPlans.count, 1)
    }

    func testAContainerKeptFromOneLookupThrowsInsteadOfReadingTheNext() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE employees(id INTEGER PRIMARY KEY, name TEXT NOT NULL, manager_id INTEGER)")
        try db.execute(sql: "INSERT INTO employees VALUES (1, 'Ada', NULL), (2, 'Grace', 1)")
        XCTAssertEqual(try Employee.fetchOne(db, id: 1)?.name, "Ada")
        let kept = try XCTUnwrap(keptContainer.value)
        XCTAssertEqual(try Employee.fetchOne(db, id: 2)?.name, "Grace")
        XCTAssertThrowsError(try kept.decode(String.self, forKey: .name)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("Expected dataCorrupted, got \(error)")
            }
            XCTAssertTrue(context.debugDescription.hasPrefix("The row this decoder read is gone"))
        }
    }

    func testADecodingErrorNamesTheRowFoundByKey() throws {
        let db = try worldDatabase()
        try db.execute(sql: "UPDATE countries SET population = 'many' WHERE id = 2")
        XCTAssertThrowsError(try Country.fetchOne(db, id: 2)) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else {
                return XCTFail("Expected typeMismatch, got \(error)")
            }
            XCTAssertTrue(context.debugDescription.hasSuffix(" (row id 2)"), context.debugDescription)
        }
        // The plan is left ready for the next lookup.
        XCTAssertEqual(try Country.fetchOne(db, id: 1)?.name, "France")
    }
}

extension Statement {
    /// The SQL with its current bindings written in (`sqlite3_expanded_sql`), for tests.
    fileprivate var sqlExpandedForTest: String {
        guard let text = sqlite3_expanded_sql(handle) else { return "" }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }
}
