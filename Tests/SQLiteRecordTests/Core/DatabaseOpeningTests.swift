import Foundation
import SQLiteRecord
import XCTest

final class DatabaseOpeningTests: XCTestCase {
    private func pragma(_ db: Database, _ name: String) throws -> String? {
        try db.scalar(String.self, sql: "PRAGMA \(name)")
    }

    func testDefaultOptions() throws {
        let options = Database.Options()
        XCTAssertFalse(options.readOnly)
        XCTAssertTrue(options.createIfMissing)
        XCTAssertEqual(options.busyTimeout, 5)
        XCTAssertTrue(options.foreignKeys)
        XCTAssertNil(options.journalMode)
        XCTAssertEqual(options.statementCacheCapacity, 128)
        XCTAssertFalse(options.showsArgumentsInErrors)

        let db = try Database()
        // The busy timeout is the library's busy handler's (BusyWaitTests), not SQLite's setting.
        XCTAssertEqual(try pragma(db, "busy_timeout"), "0")
        XCTAssertEqual(try pragma(db, "foreign_keys"), "1")
        XCTAssertEqual(db.path, ":memory:")
        XCTAssertEqual(db.options, options)
        XCTAssertFalse(db.isReadOnly)
    }

    func testBusyTimeoutInSecondsAndForeignKeysOff() throws {
        let db = try Database(path: ":memory:", options: .init(busyTimeout: 0.25, foreignKeys: false))
        XCTAssertEqual(db.options.busyTimeout, 0.25)
        XCTAssertEqual(try pragma(db, "foreign_keys"), "0")
    }

    func testBusyTimeoutIsHowLongALockedWriteWaits() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("busy.sqlite")
        let holder = try Database(path: path)
        try holder.execute(sql: "CREATE TABLE t(v)")
        let waiter = try Database(path: path, options: .init(busyTimeout: 0.3))
        try holder.transaction(.immediate) {
            let start = Date()
            XCTAssertThrowsError(try waiter.execute(sql: "INSERT INTO t VALUES (1)")) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, .busy)
                XCTAssertTrue(error.isBusy)
                let seconds = error.message.split(separator: " ").dropFirst(4).first.flatMap { Double($0) }
                XCTAssertEqual(
                    error.message,
                    "database is locked: waited \(String(format: "%.2f", seconds ?? -1)) s, this connection's busy "
                        + "timeout is 0.3 s (another connection held a lock on the file that this statement needs all "
                        + "that time; raise Database.Options.busyTimeout, or keep other connections' write "
                        + "transactions short)")
                XCTAssertGreaterThanOrEqual(seconds ?? 0, 0.3)
            }
            let waited = Date().timeIntervalSince(start)
            XCTAssertGreaterThanOrEqual(waited, 0.25)
            XCTAssertLessThan(waited, 3)
        }
        try waiter.execute(sql: "INSERT INTO t VALUES (1)")
        XCTAssertEqual(try waiter.scalar(Int.self, sql: "SELECT count(*) FROM t"), 1)
    }

    func testOpeningAFileURL() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("url.sqlite")
        do {
            let db = try Database(url: url)
            try db.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES ('kept')")
            XCTAssertEqual(db.path, url.path)
        }
        let queue = try DatabaseQueue(url: url, options: .init(readOnly: true))
        XCTAssertEqual(try queue.read { db in try db.scalar(String.self, sql: "SELECT v FROM t") }, "kept")
        let remote = try XCTUnwrap(URL(string: "https://example.com/world.sqlite"))
        XCTAssertThrowsError(try Database(url: remote)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .cannotOpen)
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "cannot open database at https://example.com/world.sqlite: only file URLs can be opened")
        }
    }

    func testAReadOnlyConnectionRefusesWrites() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("read-only.sqlite")
        try makeDatabaseFile(at: path, rows: 3)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let db = try Database(path: path, options: .init(readOnly: true))
        XCTAssertTrue(db.isReadOnly)
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM t"), 3)
        for sql in ["INSERT INTO t(text) VALUES ('x')", "CREATE TABLE u(v)", "DELETE FROM t"] {
            XCTAssertThrowsError(try db.execute(sql: sql)) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, .readOnly)
                XCTAssertTrue(error.isReadOnly)
                XCTAssertEqual(error.message, "attempt to write a readonly database")
                XCTAssertEqual(error.sql, sql)
            }
        }
        XCTAssertThrowsError(try db.transaction { try db.execute(sql: "UPDATE t SET text = 'x'") }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isReadOnly == true, "\(error)")
        }
        XCTAssertFalse(db.isInsideTransaction)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testAMissingFileIsCreatedOnlyWhenAsked() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing.sqlite")
        for options in [Database.Options(createIfMissing: false), Database.Options(readOnly: true)] {
            XCTAssertThrowsError(try Database(path: path, options: options)) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, .cannotOpen)
                XCTAssertEqual(error.message, "cannot open database at \(path): unable to open database file")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
        _ = try Database(path: path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    func testATextFileIsNotADatabaseAndStaysUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.sqlite")
        let text = Data(String(repeating: "Not a database. ", count: 300).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        for options in [Database.Options(), Database.Options(readOnly: true), Database.Options(journalMode: .wal)] {
            XCTAssertThrowsError(try Database(path: path, options: options)) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, .notADatabase)
                XCTAssertTrue(error.isNotADatabase)
                XCTAssertEqual(
                    error.message,
                    "cannot open database at \(path): file is not a database (the file of 4800 bytes does not start "
                        + "with the header \"SQLite format 3\": expected an SQLite 3 database file, or a path where "
                        + "none exists yet, which SQLite creates; an encrypted database needs the key its library "
                        + "sets before the first statement)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), text)
        }
        XCTAssertThrowsError(try DatabaseQueue(path: path)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .notADatabase)
        }
    }

    func testATruncatedDatabaseIsCorruptAndStaysUntouched() throws {
        let folder = try TemporaryFolder()
        let original = folder.path("original.sqlite")
        try makeDatabaseFile(at: original, rows: 2_000)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        XCTAssertGreaterThan(bytes.count, 100_000)

        let truncatedPath = folder.path("truncated.sqlite")
        let truncated = bytes.prefix(bytes.count / 2)
        try truncated.write(to: URL(fileURLWithPath: truncatedPath))
        for options in [Database.Options(), Database.Options(readOnly: true)] {
            XCTAssertThrowsError(try Database(path: truncatedPath, options: options)) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode.primary, .corrupt)
                XCTAssertTrue(error.isCorrupt)
                XCTAssertEqual(
                    error.message,
                    "cannot open database at \(truncatedPath): database disk image is malformed (the file is "
                        + "\(truncated.count) bytes, shorter than the \(bytes.count / 4096) pages of 4096 bytes its "
                        + "header counts: it was truncated)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: truncatedPath)), truncated)
        }
        // Cut inside the last page, which SQLite alone would read as zeros without an error.
        let shortPath = folder.path("short.sqlite")
        try bytes.prefix(bytes.count - 7).write(to: URL(fileURLWithPath: shortPath))
        XCTAssertThrowsError(try Database(path: shortPath)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .corrupt)
        }
        // The original still opens: the copy, not the test, is broken.
        XCTAssertEqual(try Database(path: original).scalar(Int.self, sql: "SELECT count(*) FROM t"), 2_000)
    }

    func testADatabaseWithABrokenHeaderIsNotADatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("header.sqlite")
        try makeDatabaseFile(at: path, rows: 10)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(String(decoding: bytes.prefix(15), as: UTF8.self), "SQLite format 3")
        bytes.replaceSubrange(0..<16, with: Data(repeating: 0x41, count: 16))
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Database(path: path)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .notADatabase)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    func testAZeroLengthFileOpensAsAnEmptyDatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        do {
            let db = try Database(path: path)
            XCTAssertFalse(try db.tableExists("t"))
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM sqlite_master"), 0)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).count, 0, "opening and reading write nothing")
    }

    func testJournalModeWAL() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("wal.sqlite")
        XCTAssertEqual(try pragma(Database(path: folder.path("plain.sqlite")), "journal_mode"), "delete")
        let writer = try DatabaseQueue(path: path, options: .init(journalMode: .wal))
        XCTAssertEqual(try writer.read { db in try self.pragma(db, "journal_mode") }, "wal")
        try writer.write { db in try db.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1)") }
        // In WAL mode a reader sees the last commit while a writer holds its transaction open.
        let reader = try Database(path: path, options: .init(readOnly: true))
        try writer.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            XCTAssertEqual(try reader.scalar(Int.self, sql: "SELECT count(*) FROM t"), 1)
        }
        XCTAssertEqual(try reader.scalar(Int.self, sql: "SELECT count(*) FROM t"), 2)
    }

    func testAJournalModeTheDatabaseCannotUseIsAnError() throws {
        XCTAssertThrowsError(try Database(path: ":memory:", options: .init(journalMode: .wal))) { error in
            guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.resultCode, .error)
            XCTAssertEqual(
                error.message,
                "cannot open database at :memory:: the journal mode could not be set to wal; it is memory")
        }
        XCTAssertEqual(
            try pragma(Database(path: ":memory:", options: .init(journalMode: .off)), "journal_mode"), "off")
    }
}
