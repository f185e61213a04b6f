import Foundation
import SQLiteRecord
import XCTest

/// Migrations that cannot lose rows: `PRAGMA foreign_keys` refused inside a migration body (SQLite ignores
/// it inside the migration's transaction), the table-rebuild mode instead, and `PRAGMA foreign_key_check`
/// before every COMMIT, whatever the connection enforces.
final class MigrationForeignKeyTests: XCTestCase {
    /// Authors and their books; a book's author is `ON DELETE CASCADE`, so dropping `authors` with foreign
    /// keys on deletes every book.
    private static func migratorWithBooks() -> DatabaseMigrator<Database> {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 authors and books") { db in
            try db.execute(
                sql: """
                    CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE books (
                        id INTEGER PRIMARY KEY,
                        author_id INTEGER NOT NULL REFERENCES authors(id) ON DELETE CASCADE,
                        title TEXT);
                    INSERT INTO authors VALUES (1, 'Le Guin'), (2, 'Jemisin');
                    INSERT INTO books VALUES (1, 1, 'The Dispossessed'), (2, 1, 'Lathe'), (3, 2, 'Broken Earth');
                    """)
        }
        return migrator
    }

    /// SQLite's 12-step rebuild of `authors`, making `name` UNIQUE.
    private static let rebuildSQL = """
        CREATE TABLE new_authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        INSERT INTO new_authors (id, name) SELECT id, name FROM authors;
        DROP TABLE authors;
        ALTER TABLE new_authors RENAME TO authors;
        """

    private func books(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in try db.fetchAll(String.self, sql: "SELECT title FROM books ORDER BY id") }
    }

    private func authorsSQL(_ queue: DatabaseQueue) throws -> String? {
        try queue.read { db in
            try db.scalar(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'authors'")
        }
    }

    func testAForeignKeysPragmaInAMigrationBodyIsRefusedAndNothingIsWritten() throws {
        let queue = try DatabaseQueue()
        var migrator = Self.migratorWithBooks()
        migrator.registerMigration("2 unique author names") { db in
            // Ignored by SQLite inside the migration's transaction: DROP TABLE authors would cascade.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: Self.rebuildSQL)
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        XCTAssertThrowsError(try migrator.migrate(queue)) { error in
            XCTAssertEqual(error as? MigrationError, .foreignKeysPragmaInMigration(migration: "2 unique author names"))
            XCTAssertEqual(
                "\(error)",
                "Migration \"2 unique author names\" was rolled back, nothing written: it runs PRAGMA foreign_keys, "
                    + "which SQLite ignores inside the migration's transaction, so a table it rebuilds would lose the "
                    + "rows that reference it. Remove the pragma and register the migration with foreignKeyChecks: "
                    + ".deferred, the table-rebuild mode: the migrator turns foreign keys off outside the "
                    + "transaction and runs PRAGMA foreign_key_check before COMMIT "
                    + "(https://www.sqlite.org/lang_altertable.html#otheralter)")
        }
        XCTAssertEqual(try books(queue), ["The Dispossessed", "Lathe", "Broken Earth"])
        XCTAssertEqual(
            try authorsSQL(queue), "CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
            "the rebuild was rolled back")
        XCTAssertEqual(try queue.read { db in try migrator.appliedMigrations(in: db) }, ["1 authors and books"])
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA foreign_keys") }, 1)
    }

    func testAMigrationThatCatchesTheRefusalIsStillRolledBack() throws {
        let queue = try DatabaseQueue()
        var migrator = Self.migratorWithBooks()
        migrator.registerMigration("2 quiet") { db in
            try? db.execute(sql: "pragma main.FOREIGN_KEYS=0")
            try db.execute(sql: "INSERT INTO books VALUES (4, 2, 'Fifth Season')")
        }
        XCTAssertThrowsError(try migrator.migrate(queue)) { error in
            XCTAssertEqual(error as? MigrationError, .foreignKeysPragmaInMigration(migration: "2 quiet"))
        }
        XCTAssertEqual(try books(queue), ["The Dispossessed", "Lathe", "Broken Earth"], "the insert was rolled back")
        // Reading the setting is not a change: allowed.
        var reading = Self.migratorWithBooks()
        reading.registerMigration("2 reads") { db in
            XCTAssertEqual(try db.scalar(Int.self, sql: "PRAGMA foreign_keys"), 1)
        }
        try reading.migrate(queue)
        XCTAssertEqual(
            try queue.read { db in try reading.appliedMigrations(in: db) }, ["1 authors and books", "2 reads"])
    }

    func testTheTableRebuildModeKeepsEveryRowThatReferencesTheRebuiltTable() throws {
        let queue = try DatabaseQueue()
        var migrator = Self.migratorWithBooks()
        migrator.registerMigration("2 unique author names", foreignKeyChecks: .deferred) { db in
            try db.execute(sql: Self.rebuildSQL)
        }
        try migrator.migrate(queue)
        XCTAssertEqual(try books(queue), ["The Dispossessed", "Lathe", "Broken Earth"])
        XCTAssertEqual(
            try authorsSQL(queue), "CREATE TABLE \"authors\" (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        try queue.read { db in
            XCTAssertEqual(try db.fetchAll(sql: "PRAGMA foreign_key_check").count, 0)
            XCTAssertEqual(try db.scalar(Int.self, sql: "PRAGMA foreign_keys"), 1, "on again after the rebuild")
        }
        // The rebuilt parent still cascades.
        try queue.write { db in try db.execute(sql: "DELETE FROM authors WHERE id = 1") }
        XCTAssertEqual(try books(queue), ["Broken Earth"])
    }

    func testOnAConnectionWithoutForeignKeysAViolationIsNotCommittedEither() throws {
        let queue = try DatabaseQueue(path: ":memory:", options: .init(foreignKeys: false))
        var migrator = Self.migratorWithBooks()
        migrator.registerMigration("2 orphan") { db in
            try db.execute(sql: "INSERT INTO books VALUES (4, 99, 'Orphan')")
        }
        XCTAssertThrowsError(try migrator.migrate(queue)) { error in
            XCTAssertEqual(
                error as? MigrationError,
                .foreignKeyViolation(
                    migration: "2 orphan", table: "books", rowID: 4, parentTable: "authors", violationCount: 1))
        }
        XCTAssertEqual(try books(queue), ["The Dispossessed", "Lathe", "Broken Earth"])
        XCTAssertEqual(try queue.read { db in try migrator.appliedMigrations(in: db) }, ["1 authors and books"])
    }
}
