import Foundation
import SQLiteRecord
import XCTest

final class DatabaseMigratorTests: XCTestCase {
    /// Three steps of a library's history: tables, then a column and an index, then a rebuild of the
    /// parent table (SQLite's 12-step procedure) that needs foreign keys off, since dropping `authors`
    /// with foreign keys on would fail for the books that reference it.
    static let history: [(identifier: String, foreignKeyChecks: DatabaseMigrator.ForeignKeyChecks, sql: String)] = [
        (
            "1 authors and books", .immediate,
            """
            CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE books (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES authors(id), title TEXT);
            INSERT INTO authors (id, name) VALUES (1, 'Le Guin');
            INSERT INTO books (id, author_id, title) VALUES (1, 1, 'The Dispossessed');
            """
        ),
        (
            "2 book years", .immediate,
            """
            ALTER TABLE books ADD COLUMN year INTEGER;
            CREATE INDEX books_author_id ON books(author_id);
            UPDATE books SET year = 1974;
            """
        ),
        (
            "3 authors.name unique", .deferred,
            """
            CREATE TABLE new_authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            INSERT INTO new_authors (id, name) SELECT id, name FROM authors;
            DROP TABLE authors;
            ALTER TABLE new_authors RENAME TO authors;
            """
        ),
    ]

    static func migrator(steps: Int = history.count, counter: SharedCounter? = nil) -> DatabaseMigrator<Database> {
        var migrator = DatabaseMigrator()
        for step in history.prefix(steps) {
            migrator.registerMigration(step.identifier, foreignKeyChecks: step.foreignKeyChecks) { db in
                counter?.increment()
                try db.execute(sql: step.sql)
            }
        }
        return migrator
    }

    /// Every schema object with its SQL, and the ledger.
    static func schema(_ queue: DatabaseQueue) throws -> [[SQLiteValue]] {
        try queue.read { db in
            try db.fetchAll(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name").map(\.values)
        }
    }

    static func ledger(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in try migrator().appliedMigrations(in: db) }
    }

    func testEveryIntermediateStateMigratesToTheSameSchema() throws {
        let fromZero = try DatabaseQueue()
        try Self.migrator().migrate(fromZero)
        let expected = try Self.schema(fromZero)
        XCTAssertEqual(
            expected.map { $0[1] },
            [
                "authors", "books", "books_author_id", "sqlite_autoindex_authors_1",
                "sqlite_autoindex_sqliterecord_migrations_1",
                "sqliterecord_migrations",
            ])
        XCTAssertEqual(
            expected.first?[2],
            "CREATE TABLE \"authors\" (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        XCTAssertEqual(
            expected.last?[2], "CREATE TABLE \"sqliterecord_migrations\" (\"identifier\" TEXT NOT NULL PRIMARY KEY)")
        XCTAssertEqual(try Self.ledger(fromZero), Self.history.map(\.identifier))

        for steps in 0...Self.history.count {
            let queue = try DatabaseQueue()
            // An older version of the app migrated it this far; this version finishes the work.
            try Self.migrator(steps: steps).migrate(queue)
            XCTAssertEqual(try Self.ledger(queue), Self.history.prefix(steps).map(\.identifier))
            try Self.migrator().migrate(queue)
            XCTAssertEqual(try Self.schema(queue), expected, "from \(steps) step(s)")
            XCTAssertEqual(try Self.ledger(queue), Self.history.map(\.identifier))
            let books = try queue.read { db in
                try db.fetchAll(
                    sql: "SELECT books.title, books.year, authors.name FROM books JOIN authors "
                        + "ON authors.id = books.author_id"
                ).map(\.values)
            }
            XCTAssertEqual(books, [["The Dispossessed", 1974, "Le Guin"]])
        }

        let upTo = try DatabaseQueue()
        try Self.migrator().migrate(upTo, upTo: "2 book years")
        XCTAssertEqual(try Self.ledger(upTo), ["1 authors and books", "2 book years"])
        try Self.migrator().migrate(upTo)
        XCTAssertEqual(try Self.schema(upTo), expected)
    }

    func testRunningAgainDoesNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.sqlite")
        let counter = SharedCounter()
        let queue = try DatabaseQueue(path: path)
        try Self.migrator(counter: counter).migrate(queue)
        XCTAssertEqual(counter.value, 3)
        let schemaVersion = try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA schema_version") }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        try Self.migrator(counter: counter).migrate(queue)
        try queue.read { db in
            try Self.migrator(counter: counter).migrate(db)
            XCTAssertTrue(try Self.migrator().hasCompletedMigrations(in: db))
        }
        XCTAssertEqual(counter.value, 3, "no migration ran again")
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA schema_version") }, schemaVersion)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try Self.ledger(queue), Self.history.map(\.identifier))
    }

    func testAFailingMigrationLeavesTheSchemaAndTheLedgerAsTheyWere() throws {
        struct Failure: Error, Equatable {}
        let queue = try DatabaseQueue()
        try Self.migrator(steps: 2).migrate(queue)
        let before = try Self.schema(queue)

        var migrator = Self.migrator(steps: 2)
        migrator.registerMigration("3 fails midway") { db in
            try db.execute(sql: "CREATE TABLE reviews (id INTEGER PRIMARY KEY); DROP INDEX books_author_id")
            try db.execute(sql: "INSERT INTO authors (name) VALUES ('Butler')")
            throw Failure()
        }
        migrator.registerMigration("4 never runs") { db in try db.execute(sql: "CREATE TABLE never (id)") }
        XCTAssertThrowsError(try migrator.migrate(queue)) { error in XCTAssertEqual(error as? Failure, Failure()) }
        XCTAssertEqual(try Self.schema(queue), before)
        XCTAssertEqual(try Self.ledger(queue), ["1 authors and books", "2 book years"])
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM authors") }, 1)
        XCTAssertFalse(try queue.read { db in try migrator.hasCompletedMigrations(in: db) })

        // From zero, a failing first migration leaves no ledger behind either.
        let empty = try DatabaseQueue()
        var failing = DatabaseMigrator()
        failing.registerMigration("1 fails") { db in
            try db.execute(sql: "CREATE TABLE t (id)")
            throw Failure()
        }
        XCTAssertThrowsError(try failing.migrate(empty))
        XCTAssertEqual(try Self.schema(empty), [])
    }

    func testANewerDatabaseIsRefusedUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("library.sqlite")
        try Self.migrator().migrate(try DatabaseQueue(path: path))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        // The previous version of the app knew two of the three migrations, and had one of its own pending.
        let counter = SharedCounter()
        var older = Self.migrator(steps: 2, counter: counter)
        older.registerMigration("2b older idea") { db in
            counter.increment()
            try db.execute(sql: "CREATE TABLE older (id)")
        }
        let queue = try DatabaseQueue(path: path)
        XCTAssertThrowsError(try older.migrate(queue)) { error in
            XCTAssertEqual(
                error as? MigrationError, .unknownAppliedMigrations(unknown: ["3 authors.name unique"], path: path))
            XCTAssertEqual(
                "\(error)",
                "The database at \(path) was migrated by a newer version of this app: it records migration(s) "
                    + "\"3 authors.name unique\" that this version does not know. Nothing was changed; open it with "
                    + "the newer version")
        }
        XCTAssertThrowsError(try queue.read { db in try older.migrate(db) })
        XCTAssertEqual(counter.value, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(
            try queue.read { db in try older.appliedMigrations(in: db) }, Self.history.map(\.identifier))
    }

    func testAForeignKeyViolationRollsTheMigrationBack() throws {
        let queue = try DatabaseQueue()
        try Self.migrator(steps: 1).migrate(queue)
        var migrator = Self.migrator(steps: 1)
        migrator.registerMigration("2 orphan", foreignKeyChecks: .deferred) { db in
            try db.execute(sql: "INSERT INTO books (id, author_id, title) VALUES (7, 99, 'Orphan')")
            try db.execute(sql: "INSERT INTO books (id, author_id, title) VALUES (8, 98, 'Orphan too')")
        }
        XCTAssertThrowsError(try migrator.migrate(queue)) { error in
            XCTAssertEqual(
                error as? MigrationError,
                .foreignKeyViolation(
                    migration: "2 orphan", table: "books", rowID: 7, parentTable: "authors", violationCount: 2))
            XCTAssertEqual(
                "\(error)",
                "Migration \"2 orphan\" was rolled back: PRAGMA foreign_key_check found that the row with rowid 7 of "
                    + "table \"books\" references a row of \"authors\" that does not exist (2 violations in all)")
        }
        try queue.read { db in
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM books"), 1)
            XCTAssertEqual(try db.scalar(Int.self, sql: "PRAGMA foreign_keys"), 1, "foreign keys are on again")
        }
        XCTAssertEqual(try Self.ledger(queue), ["1 authors and books"])

        // Rows written with foreign keys off before the migrator runs fail the next migration too.
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO books (id, author_id) VALUES (9, 42)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        XCTAssertThrowsError(try Self.migrator(steps: 2).migrate(queue)) { error in
            XCTAssertEqual(
                error as? MigrationError,
                .foreignKeyViolation(
                    migration: "2 book years", table: "books", rowID: 9, parentTable: "authors", violationCount: 1))
        }
        XCTAssertEqual(try Self.ledger(queue), ["1 authors and books"])
    }

    func testTheRebuildNeedsForeignKeysOff() throws {
        // The same 12-step rebuild with foreign keys on: DROP TABLE authors deletes the parent rows first,
        // which the book's foreign key forbids.
        var migrator = Self.migrator(steps: 2)
        let rebuild = Self.history[2]
        migrator.registerMigration(rebuild.identifier) { db in try db.execute(sql: rebuild.sql) }
        let queue = try DatabaseQueue()
        XCTAssertThrowsError(try migrator.migrate(queue)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintForeignKey)
        }
        XCTAssertEqual(try Self.ledger(queue), ["1 authors and books", "2 book years"])
    }

    func testInsideACallersTransactionMigrationsRunInSavepoints() throws {
        let queue = try DatabaseQueue()
        struct Abort: Error {}
        XCTAssertThrowsError(
            try queue.write { db in
                try Self.migrator(steps: 2).migrate(db)
                XCTAssertTrue(try db.tableExists("books"))
                throw Abort()
            })
        XCTAssertEqual(try Self.schema(queue), [], "the caller's rollback took the migrations with it")

        try queue.write { db in try Self.migrator(steps: 2).migrate(db) }
        XCTAssertEqual(try Self.ledger(queue), ["1 authors and books", "2 book years"])

        // A migration that needs foreign keys off cannot run there: nothing runs.
        XCTAssertThrowsError(try queue.write { db in try Self.migrator().migrate(db) }) { error in
            XCTAssertEqual(
                error as? MigrationError,
                .foreignKeysCannotBeDisabledInTransaction(migration: "3 authors.name unique"))
        }
        try Self.migrator().migrate(queue)
        XCTAssertEqual(try Self.ledger(queue), Self.history.map(\.identifier))
    }

    func testRegistrationMistakesAreErrorsBeforeAnythingRuns() throws {
        let queue = try DatabaseQueue()
        var duplicated = Self.migrator(steps: 1)
        duplicated.registerMigration("1 authors and books") { _ in }
        XCTAssertThrowsError(try duplicated.migrate(queue)) { error in
            XCTAssertEqual(error as? MigrationError, .duplicateMigration("1 authors and books"))
        }
        XCTAssertThrowsError(try Self.migrator().migrate(queue, upTo: "9 later")) { error in
            XCTAssertEqual(error as? MigrationError, .unregisteredMigration("9 later"))
        }
        XCTAssertEqual(try Self.schema(queue), [])
        XCTAssertEqual(Self.migrator(steps: 2).migrationIdentifiers, ["1 authors and books", "2 book years"])
        XCTAssertEqual(try queue.read { db in try Self.migrator().appliedMigrations(in: db) }, [])
        XCTAssertFalse(try queue.read { db in try Self.migrator().hasCompletedMigrations(in: db) })
        XCTAssertTrue(try queue.read { db in try DatabaseMigrator().hasCompletedMigrations(in: db) })
    }

    func testAsyncMigrate() async throws {
        let queue = try DatabaseQueue()
        try await Self.migrator().migrate(queue)
        let applied = try await queue.read { db in try Self.migrator().appliedMigrations(in: db) }
        XCTAssertEqual(applied, Self.history.map(\.identifier))
    }
}
