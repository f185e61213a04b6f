import Foundation
import SQLiteRecord
import XCTest

/// A record type's full-text index, created by a migration written once, and searched through the writer,
/// on both engines.
final class FullTextContractTests: RecordContractTestCase {
    struct Place: Record, FullTextSearchable, Equatable, Sendable {
        var id: Int64?
        var name: String
        var summary: String?
        static let tableName = "places"
        static let fullTextIndex = FullTextIndex(columns: ["name", "summary"])
    }

    private func migrate<W: AsyncDatabaseWriter>(_ writer: W) async throws {
        var migrator = DatabaseMigrator<W.Connection>()
        migrator.registerMigration("create places") { db in
            try Place.createTable(in: db)
            for (name, summary) in [("São Paulo", "Largest city of Brazil"), ("Bogotá", "Capital of Colombia")] {
                var place = Place(id: nil, name: name, summary: summary)
                try place.insert(db)
            }
        }
        migrator.registerFullTextIndex("index places", for: Place.self)
        try await migrator.migrate(writer)
    }

    func testAnIndexCreatedByAMigrationFindsTheRowsAlreadyThereAndLaterOnes() async {
        await onEachEngine { engine in
            try await self.migrate(engine.writer)
            let matches = try await Place.search("sao paulo")
                .fetchMatches(engine.writer, excerpt: .highlight(Column("name"), open: "[", close: "]"))
            XCTAssertEqual(matches.map(\.record.name), ["São Paulo"])
            XCTAssertEqual(matches.map(\.excerpt), ["[São] [Paulo]"])
            var lima = Place(id: nil, name: "Lima", summary: "Capital of Peru")
            try await lima.insert(engine.writer)
            let capitals = try await Place.search("capital").order(Column("name")).fetch(engine.writer)
            XCTAssertEqual(capitals.map(\.name), ["Bogotá", "Lima"])
            try engine.write { db in try Place.dropFullTextIndex(in: db) }
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM places"), 3)
        }
    }
}
