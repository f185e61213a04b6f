import Foundation
import SQLiteRecord
import XCTest

/// One migrator, written once, on both engines: `DatabaseMigrator<W.Connection>` over the engine's writer,
/// with migrations that use only the neutral calls (`createTable(in:)`, `execute(sql:)`, `insert`).
final class MigrationContractTests: RecordContractTestCase {
    /// A migrator whose migrations create `books`, add a column with raw DDL, and seed one row.
    private func bookMigrator<Connection: DatabaseConnection>(_: Connection.Type) -> DatabaseMigrator<Connection> {
        var migrator = DatabaseMigrator<Connection>()
        migrator.registerMigration("create books") { db in try Book.createTable(in: db) }
        migrator.registerMigration("books: shelf") { db in
            try db.execute(sql: "ALTER TABLE books ADD COLUMN shelf TEXT")
        }
        migrator.registerMigration("seed") { db in
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try dune.insert(db)
        }
        return migrator
    }

    private func migrate<W: AsyncDatabaseWriter>(_ writer: W, upTo: String? = nil) async throws {
        let migrator = bookMigrator(W.Connection.self)
        guard let upTo else { return try await migrator.migrate(writer) }
        try await migrator.migrate(writer, upTo: upTo)
    }

    private func isComplete<W: AsyncDatabaseWriter>(_ writer: W) async throws -> Bool {
        let migrator = bookMigrator(W.Connection.self)
        return try await writer.read { db in try migrator.hasCompletedMigrations(in: db) }
    }

    private func applied<W: AsyncDatabaseWriter>(_ writer: W) async throws -> [String] {
        let migrator = bookMigrator(W.Connection.self)
        return try await writer.read { db in try migrator.appliedMigrations(in: db) }
    }

    func testMigrationsApplyOnceEachInOrder() async {
        await onEachEngine { engine in
            let none = try await self.applied(engine.writer)
            XCTAssertEqual(none, [])
            try await self.migrate(engine.writer, upTo: "books: shelf")
            let first = try await self.applied(engine.writer)
            XCTAssertEqual(first, ["create books", "books: shelf"])
            let completeThen = try await self.isComplete(engine.writer)
            XCTAssertFalse(completeThen)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
            try await self.migrate(engine.writer)
            try await self.migrate(engine.writer)
            let ledger = try await self.applied(engine.writer)
            XCTAssertEqual(ledger, ["create books", "books: shelf", "seed"])
            let complete = try await self.isComplete(engine.writer)
            XCTAssertTrue(complete)
            XCTAssertEqual(try engine.text("SELECT title || '/' || coalesce(shelf, 'none') FROM books"), "Dune/none")
        }
    }

    /// A schema change written once for every engine: `registerSchemaChanges` on `DatabaseMigrator<W.Connection>`,
    /// and a dry run through the connection a write gives.
    private func migrateGauges<W: AsyncDatabaseWriter>(_ writer: W) async throws {
        var migrator = DatabaseMigrator<W.Connection>()
        migrator.registerMigration("create gauges") { db in try GaugeV1.createTable(in: db) }
        migrator.registerMigration("seed gauges") { db in
            var gauge = GaugeV1(id: nil, level: "42")
            try gauge.insert(db)
        }
        migrator.registerSchemaChanges("gauges: level as a number", for: Gauge.self)
        try await migrator.migrate(writer)
    }

    func testASchemaChangeMigrationIsWrittenOnceForEveryEngine() async {
        await onEachEngine { engine in
            try await self.migrateGauges(engine.writer)
            let plan = try engine.write { db in try Gauge.schemaChanges(in: db) }
            XCTAssertTrue(plan.isEmpty, "\(plan)")
            let gauges = try engine.write { db in try Gauge.fetch(db) }
            XCTAssertEqual(gauges, [Gauge(id: 1, level: 42)])
            let ledger = try await self.applied(engine.writer)
            XCTAssertEqual(ledger, ["create gauges", "seed gauges", "gauges: level as a number"])
        }
    }

    private func failingMigration<W: AsyncDatabaseWriter>(_ writer: W) async throws {
        var migrator = DatabaseMigrator<W.Connection>()
        migrator.registerMigration("create books") { db in try Book.createTable(in: db) }
        migrator.registerMigration("broken") { db in
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try dune.insert(db)
            try db.execute(sql: "ALTER TABLE nowhere ADD COLUMN x INTEGER")
        }
        migrator.registerMigration("never") { db in try db.execute(sql: "CREATE TABLE never (x INTEGER)") }
        try await migrator.migrate(writer)
    }

    func testAFailingMigrationRollsBackAloneAndStopsTheOnesAfterIt() async {
        await onEachEngine { engine in
            do {
                try await self.failingMigration(engine.writer)
                XCTFail("no error")
            } catch {
                // The engine's own error, unchanged: SQLite's "no such table", PostgreSQL's 42P01.
                XCTAssertEqual(
                    engine.engineErrorCode(error), engine.isSQLite ? "no such table: nowhere" : "42P01")
            }
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
            let ledger = try await self.applied(engine.writer)
            XCTAssertEqual(ledger, ["create books"])
            let neverExists = engine.isSQLite
                ? try engine.integer("SELECT count(*) FROM sqlite_master WHERE name = 'never'")
                : try engine.integer("SELECT count(*) FROM pg_class WHERE relname = 'never'")
            XCTAssertEqual(neverExists, 0)
        }
    }

    private func migrateWithOlderVersion<W: AsyncDatabaseWriter>(_ writer: W) async throws {
        var older = DatabaseMigrator<W.Connection>()
        older.registerMigration("create books") { db in try Book.createTable(in: db) }
        try await older.migrate(writer)
    }

    func testADatabaseMigratedByANewerVersionIsRefusedBeforeAnythingRuns() async {
        await onEachEngine { engine in
            try await self.migrate(engine.writer)
            do {
                try await self.migrateWithOlderVersion(engine.writer)
                XCTFail("no error")
            } catch let error as MigrationError {
                guard case .unknownAppliedMigrations(let unknown, let path) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(unknown, ["books: shelf", "seed"])
                XCTAssertFalse(path.contains("password"), path)
                XCTAssertTrue(error.description.hasPrefix("The database at \(path) was migrated by a newer version"))
            }
        }
    }

    private func duplicate<W: AsyncDatabaseWriter>(_ writer: W) async throws {
        var migrator = DatabaseMigrator<W.Connection>()
        migrator.registerMigration("one") { db in try db.execute(sql: "CREATE TABLE one (x INTEGER)") }
        migrator.registerMigration("one") { db in try db.execute(sql: "CREATE TABLE two (x INTEGER)") }
        try await migrator.migrate(writer)
    }

    func testTwoMigrationsOfOneNameRunNothing() async {
        await onEachEngine { engine in
            do {
                try await self.duplicate(engine.writer)
                XCTFail("no error")
            } catch {
                XCTAssertEqual(error as? MigrationError, .duplicateMigration("one"))
            }
            let ledger = try await self.applied(engine.writer)
            XCTAssertEqual(ledger, [])
        }
    }
}
