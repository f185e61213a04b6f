import Foundation
import XCTest

@testable import SQLiteRecord

/// The write calls that take column names, called with coding keys and `Column`s.
final class RecordColumnNamesTests: XCTestCase {
    /// A record whose encoder names columns in snake_case: a coding key names `country_code`.
    struct Airport: Record, Equatable {
        var id: Int64?
        var name: String
        var countryCode: String
        var passengers: Int
        static let tableName = "airports"
        // Declared, not synthesized: a synthesized CodingKeys enum is private to the type.
        enum CodingKeys: String, CodingKey { case id, name, countryCode, passengers }
        static var recordEncoder: RecordEncoder {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
        static var rowDecoder: RowDecoder {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }
    }

    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: WorldFixtures.schema)
        return db
    }

    private func row(_ db: Database, _ sql: String) throws -> [SQLiteValue] {
        let row = try XCTUnwrap(db.fetchOne(sql: sql))
        return row.columnNames.indices.map { row[$0] }
    }

    func testUpdateWritesOnlyTheColumnsOfTheCodingKeys() throws {
        let db = try makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.insert(db)
        var paris = City(id: nil, countryId: france.id, name: "Paris", population: 1, foundedAt: nil)
        try paris.insert(db)
        // Another writer renames the city; the update of the population keeps that name.
        try db.execute(sql: "UPDATE cities SET name = 'Lutetia'")
        paris.population = 2_145_906
        try paris.update(db, columns: [City.CodingKeys.population])
        XCTAssertEqual(try row(db, "SELECT name, population FROM cities"), [.text("Lutetia"), .integer(2_145_906)])
        var germany = Country(id: nil, name: "Germany", iso: "DE", population: 1)
        try germany.insert(db)
        paris.name = "Paris"
        paris.countryId = germany.id
        try paris.update(db, columns: [Column("name")])
        XCTAssertEqual(
            try row(db, "SELECT name, population, country_id FROM cities"),
            [.text("Paris"), .integer(2_145_906), .integer(france.id!)])
        try paris.update(db, columns: [City.CodingKeys.countryId])
        XCTAssertEqual(try row(db, "SELECT country_id FROM cities"), [.integer(germany.id!)])
    }

    func testACodingKeyGoesThroughTheKeyStrategy() throws {
        let db = try Database()
        try Airport.createTable(in: db)
        var airport = Airport(id: nil, name: "Orly", countryCode: "FR", passengers: 1)
        try airport.insert(db)
        airport.countryCode = "DE"
        airport.passengers = 9
        try airport.update(db, columns: [Airport.CodingKeys.countryCode])
        XCTAssertEqual(try row(db, "SELECT country_code, passengers FROM airports"), [.text("DE"), .integer(1)])
    }

    func testAColumnTheRecordDoesNotWriteIsRefusedAsByName() throws {
        let db = try makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.insert(db)
        XCTAssertThrowsError(try france.update(db, columns: [Column("capital")])) { error in
            // The string form's error, word for word.
            do {
                try france.update(db, columns: ["capital"])
                XCTFail("no error by name")
            } catch let byName {
                XCTAssertEqual("\(error)", "\(byName)")
            }
            guard case RecordError.unknownColumn(let table, let column, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "countries")
            XCTAssertEqual(column, "capital")
        }
        XCTAssertEqual(try row(db, "SELECT name FROM countries"), [.text("France")])
    }

    /// ``Country`` with its coding keys declared.
    struct Nation: Record, Equatable {
        var id: Int64?
        var name: String
        var iso: String
        var population: Int64
        static let tableName = "countries"
        enum CodingKeys: String, CodingKey { case id, name, iso, population }
    }

    func testUpsertOnACodingKeysUniqueColumn() throws {
        let db = try makeDatabase()
        var france = Nation(id: nil, name: "France", iso: "FR", population: 1)
        try france.insert(db)
        var again = Nation(id: nil, name: "République française", iso: "FR", population: 2)
        let outcome = try again.upsert(
            db, onConflict: [Nation.CodingKeys.iso], updating: [Nation.CodingKeys.population])
        XCTAssertEqual(outcome, .updated)
        XCTAssertEqual(again.id, france.id)
        XCTAssertEqual(
            try row(db, "SELECT count(*), name, population FROM countries"),
            [.integer(1), .text("France"), .integer(2)])
        var byColumn = Nation(id: nil, name: "France", iso: "FR", population: 3)
        XCTAssertEqual(try byColumn.upsert(db, onConflict: [Column("iso")]), .updated)
        XCTAssertEqual(try row(db, "SELECT population FROM countries"), [.integer(3)])
    }

    /// A record with a generated column, read back by the fetching writes.
    struct Stamp: Record, Equatable {
        var id: Int64?
        var name: String
        var shout: String?
        var note: String?
        static let tableName = "stamps"
        enum CodingKeys: String, CodingKey { case id, name, shout, note }
    }

    func testTheFetchingWritesReadBackTheColumnsOfTheCodingKeys() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE stamps (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                + "shout TEXT GENERATED ALWAYS AS (upper(name)) VIRTUAL, note TEXT)")
        var stamp = Stamp(id: nil, name: "Paris", shout: nil, note: nil)
        try stamp.insertAndFetch(db, columns: [Stamp.CodingKeys.shout])
        XCTAssertEqual(stamp.shout, "PARIS")
        stamp.name = "Lyon"
        try stamp.updateAndFetch(db, columns: [Column("note")])
        XCTAssertEqual(stamp.shout, "PARIS")
        try stamp.updateAndFetch(db, columns: [Stamp.CodingKeys.shout])
        XCTAssertEqual(stamp.shout, "LYON")
        XCTAssertEqual(try row(db, "SELECT name, shout FROM stamps"), [.text("Lyon"), .text("LYON")])
    }

    func testTheDefaultStoreForms() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: WorldFixtures.schema) }
        try RecordStore.use(queue)
        defer { RecordStore.reset() }
        var france = Nation(id: nil, name: "France", iso: "FR", population: 1)
        try await france.insert()
        france.population = 5
        france.name = "Not written"
        try await france.update(columns: [Nation.CodingKeys.population])
        try await france.update(columns: [Column("population")])
        var again = Nation(id: nil, name: "Other", iso: "FR", population: 6)
        let outcome = try await again.upsert(onConflict: [Nation.CodingKeys.iso], updating: [.population])
        XCTAssertEqual(outcome, .updated)
        let stored = try await queue.read { db in
            try db.fetchAll(String.self, sql: "SELECT name || ' ' || population FROM countries")
        }
        XCTAssertEqual(stored, ["France 6"])
    }
}
