import Foundation
import SQLiteRecord

/// A country, as DESIGN.md's contract shows it.
struct Country: Record, Equatable {
    var id: Int64?
    var name: String
    var iso: String
    var population: Int64
    static let tableName = "countries"
}

/// A city with renamed columns and a parent, as DESIGN.md's contract shows it.
struct City: Record, Equatable {
    var id: Int64?
    var countryId: Int64?
    var name: String
    var population: Int
    var foundedAt: Date?
    static let tableName = "cities"
    enum CodingKeys: String, CodingKey {
        case id, name, population
        case countryId = "country_id"
        case foundedAt = "founded_at"
    }
    mutating func bind(to parent: any Record) {
        if let country = parent as? Country { countryId = country.id }
    }
}

enum WorldFixtures {
    /// The tables for ``Country`` and ``City``: NOT NULL on required columns and a foreign key from
    /// cities.country_id to countries.id.
    static let schema = """
        CREATE TABLE countries (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            iso TEXT NOT NULL UNIQUE,
            population INTEGER NOT NULL
        );
        CREATE TABLE cities (
            id INTEGER PRIMARY KEY,
            country_id INTEGER NOT NULL REFERENCES countries(id),
            name TEXT NOT NULL,
            population INTEGER NOT NULL,
            founded_at TEXT
        );
        """

    /// A fresh in-memory database with the schema.
    static func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: schema)
        return db
    }

    /// A fresh in-memory queue with the schema.
    static func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: schema) }
        return queue
    }

    /// The number of rows in `table`.
    static func rowCount(_ db: Database, _ table: String) throws -> Int {
        let statement = try db.makeStatement(sql: "SELECT count(*) FROM \(SQLIdentifier.quoted(table))")
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }
}
