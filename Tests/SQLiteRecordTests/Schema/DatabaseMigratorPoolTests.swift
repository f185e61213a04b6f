import Foundation
import SQLiteRecord
import XCTest

/// A migrator written for a queue migrates a pool unchanged: `migrate` takes any DatabaseWriter.
final class DatabaseMigratorPoolTests: XCTestCase {
    func testAMigratorMigratesAPoolAsItMigratesAQueue() async throws {
        let folder = try TemporaryFolder()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        migrator.registerMigration("v2") { db in try db.execute(sql: "ALTER TABLE notes ADD COLUMN pinned INTEGER") }
        let pool = try DatabasePool(path: folder.path("notes.sqlite"))
        try await migrator.migrate(pool, upTo: "v1")
        let registered = migrator
        let applied = try await pool.read { db in try registered.appliedMigrations(in: db) }
        XCTAssertEqual(applied, ["v1"])
        try await migrator.migrate(pool)
        let columns = try await pool.read { db in try db.columns(in: "notes").map(\.name) }
        XCTAssertEqual(columns, ["id", "text", "pinned"])
    }
}
