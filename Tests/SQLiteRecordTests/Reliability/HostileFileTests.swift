import Foundation
import SQLiteRecord
import XCTest

/// Files that fight back: a full disk, a lock held past the busy timeout, a read-only connection written to
/// through records, pages overwritten with garbage. Each is a typed error, with the committed rows, the
/// records in memory and the file as they were. (Opening a non-database or truncated file is in
/// DatabaseOpeningTests.)
final class HostileFileTests: XCTestCase {
    private func cities(_ count: Int, countryId: Int64?, nameLength: Int = 200) -> [City] {
        (0..<count).map {
            City(
                id: nil, countryId: countryId, name: String(repeating: "x", count: nameLength) + "\($0)",
                population: $0, foundedAt: nil)
        }
    }

    private func makeWorld(at path: String, journalMode: Database.JournalMode) throws -> (Database, Country) {
        let db = try Database(path: path, options: .init(journalMode: journalMode))
        try db.execute(sql: WorldFixtures.schema)
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        var committed = cities(100, countryId: nil)
        try france.save(db, children: &committed)
        return (db, france)
    }

    // MARK: Full disk

    func testAFullDiskFailsTheWriteKeepsCommittedRowsAndTheConnectionGoesOn() throws {
        for mode in [Database.JournalMode.delete, .wal] {
            let folder = try TemporaryFolder()
            let (db, france) = try makeWorld(at: folder.path("full.sqlite"), journalMode: mode)
            let pages = try XCTUnwrap(db.scalar(Int.self, sql: "PRAGMA page_count"))
            // The disk is "full" two pages from now: PRAGMA max_page_count, per connection.
            XCTAssertEqual(try db.scalar(Int.self, sql: "PRAGMA max_page_count = \(pages + 2)"), pages + 2)

            var batch = cities(500, countryId: france.id)
            XCTAssertThrowsError(try City.save(db, &batch), "\(mode)") { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(mode): \(error)") }
                XCTAssertEqual(error.resultCode, .full, "\(mode)")
                XCTAssertEqual(error.message, "database or disk is full")
            }
            XCTAssertTrue(batch.allSatisfy { $0.id == nil }, "\(mode): ids of rolled-back rows")
            XCTAssertFalse(db.isInsideTransaction)

            var huge = City(
                id: nil, countryId: france.id, name: String(repeating: "é", count: 500_000), population: 1,
                foundedAt: nil)
            XCTAssertThrowsError(try huge.save(db)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .full, "\(mode): \(error)")
            }
            XCTAssertNil(huge.id)

            // The committed rows are intact and the connection still reads and writes what fits.
            XCTAssertEqual(try City.count(db), 100, "\(mode)")
            XCTAssertEqual(try db.fetchAll(String.self, sql: "PRAGMA integrity_check"), ["ok"])
            var small = City(id: nil, countryId: france.id, name: "Lyon", population: 1, foundedAt: nil)
            try small.save(db)
            XCTAssertNotNil(small.id)
            // Room again: the very batch that failed goes in whole.
            _ = try db.scalar(Int.self, sql: "PRAGMA max_page_count = 1000000")
            try City.save(db, &batch)
            XCTAssertEqual(try City.count(db), 100 + 1 + 500, "\(mode)")
        }
    }

    /// SQLite may answer SQLITE_FULL by rolling back the whole transaction, not only the statement. Inside
    /// a caller's transaction the batch runs in a savepoint; a caller that catches the error and goes on
    /// must not have its later statements committed one by one while its earlier ones are lost.
    func testAFullDiskInsideACallersTransactionNeverCommitsHalfOfIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("full-queue.sqlite")
        let france = try makeWorld(at: path, journalMode: .wal).1
        let queue = try DatabaseQueue(path: path, options: .init(journalMode: .wal))
        let pages = try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA page_count") ?? 0 }
        _ = try queue.read { db in try db.scalar(Int.self, sql: "PRAGMA max_page_count = \(pages + 2)") }
        var caught = false
        do {
            try queue.write { db in
                var first = City(id: nil, countryId: france.id, name: "before", population: 1, foundedAt: nil)
                try first.save(db)
                var batch = cities(500, countryId: france.id)
                do {
                    try City.save(db, &batch)
                } catch let error as DatabaseError where error.resultCode == .full {
                    caught = true
                    XCTAssertTrue(batch.allSatisfy { $0.id == nil })
                    XCTAssertTrue(db.isInsideTransaction, "what runs next must not run in autocommit")
                }
                var after = City(id: nil, countryId: france.id, name: "after", population: 2, foundedAt: nil)
                try after.save(db)
            }
            // SQLite rolled back only the statement: the savepoint went, the rest of the transaction stays.
            XCTAssertEqual(try queue.read { db in try City.count(db) }, 102)
            print("HostileFileTests: SQLITE_FULL in a savepoint rolled back the savepoint alone")
        } catch let error as DatabaseError {
            // SQLite rolled back the whole transaction: none of it is committed, and the caller hears so.
            XCTAssertEqual(error.resultCode, .full)
            XCTAssertTrue(error.message.hasPrefix("SQLite rolled back the whole transaction"), error.message)
            XCTAssertEqual(try queue.read { db in try City.count(db) }, 100)
            print("HostileFileTests: SQLITE_FULL in a savepoint made SQLite roll back the whole transaction: \(error)")
        }
        XCTAssertTrue(caught)
        XCTAssertEqual(try queue.read { db in try db.fetchAll(String.self, sql: "PRAGMA integrity_check") }, ["ok"])
        // The connection goes on: a write that fits commits.
        try queue.write { db in
            var city = City(id: nil, countryId: france.id, name: "later", population: 3, foundedAt: nil)
            try city.save(db)
        }
        XCTAssertEqual(try queue.read { db in try City.count(db, where: ["name": "later"]) }, 1)
    }

    // MARK: Locks

    func testALockHeldBeyondTheBusyTimeoutIsATypedBusyErrorAndNothingIsHalfWritten() throws {
        for mode in [Database.JournalMode.delete, .wal] {
            let folder = try TemporaryFolder()
            let path = folder.path("locked.sqlite")
            let france = try makeWorld(at: path, journalMode: mode).1
            let holder = try Database(path: path)
            let queue = try DatabaseQueue(path: path, options: .init(busyTimeout: 0.2))
            try holder.execute(sql: "BEGIN IMMEDIATE")
            try holder.execute(sql: "DELETE FROM cities WHERE population < 50")  // uncommitted, never seen

            var batch = cities(50, countryId: france.id)
            let start = Date()
            do {
                try queue.write { db in try City.save(db, &batch) }
                XCTFail("\(mode): the write went through a held lock")
            } catch let error as DatabaseError {
                XCTAssertEqual(error.resultCode, .busy, "\(mode)")
                XCTAssertTrue(error.isBusy)
                XCTAssertEqual(
                    error.sql, "BEGIN IMMEDIATE TRANSACTION", "the lock is asked for at BEGIN, before any row")
            }
            let waited = Date().timeIntervalSince(start)
            XCTAssertGreaterThanOrEqual(waited, 0.15, "\(mode): the busy timeout was not waited")
            XCTAssertLessThan(waited, 3, "\(mode)")
            XCTAssertTrue(batch.allSatisfy { $0.id == nil })

            // Readers: WAL lets them read the last commit; in rollback mode a RESERVED lock does too.
            XCTAssertEqual(try queue.read { db in try City.count(db) }, 100, "\(mode)")

            try holder.execute(sql: "ROLLBACK")
            XCTAssertEqual(try queue.read { db in try City.count(db) }, 100, "\(mode)")
            XCTAssertEqual(try queue.read { db in try db.fetchAll(String.self, sql: "PRAGMA integrity_check") }, ["ok"])
            try queue.write { db in try City.save(db, &batch) }
            XCTAssertEqual(try queue.read { db in try City.count(db) }, 150, "\(mode)")
        }
    }

    func testAnAsyncWriteAgainstAHeldLockIsATypedBusyError() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("locked-async.sqlite")
        _ = try makeWorld(at: path, journalMode: .wal)
        let holder = try Database(path: path)
        let queue = try DatabaseQueue(path: path, options: .init(busyTimeout: 0.2))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        do {
            _ = try await queue.write { db in try City.deleteAll(db) }
            XCTFail("the async write went through a held lock")
        } catch let error as DatabaseError {
            XCTAssertTrue(error.isBusy, "\(error)")
        }
        try holder.execute(sql: "ROLLBACK")
        let count = try await queue.read { db in try City.count(db) }
        XCTAssertEqual(count, 100)
    }

    func testAnExclusiveLockKeepsRecordReadsOutWithATypedError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("exclusive.sqlite")
        _ = try makeWorld(at: path, journalMode: .delete)
        let holder = try Database(path: path)
        let queue = try DatabaseQueue(path: path, options: .init(busyTimeout: 0.2))
        try holder.execute(sql: "BEGIN EXCLUSIVE")
        XCTAssertThrowsError(try queue.read { db in try City.fetch(db, orderBy: [.ascending("name")]) }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .busy, "\(error)")
        }
        XCTAssertThrowsError(try queue.read { db in try City.fetchOne(db, id: 1) }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isBusy == true, "\(error)")
        }
        try holder.execute(sql: "COMMIT")
        XCTAssertEqual(try queue.read { db in try City.fetchOne(db, id: 1)?.population }, 0)
    }

    // MARK: Read-only

    func testRecordWritesThroughAReadOnlyQueueAreTypedErrorsAndTheFileIsUnchanged() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("read-only.sqlite")
        let france = try makeWorld(at: path, journalMode: .delete).1
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path, options: .init(readOnly: true))

        var batch = cities(3, countryId: france.id)
        XCTAssertThrowsError(try queue.write { db in try City.save(db, &batch) }) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode.primary, .readOnly, "\(error)")
        }
        XCTAssertTrue(batch.allSatisfy { $0.id == nil })
        let stored = try XCTUnwrap(try queue.read { db in try City.fetchOne(db, id: 1) })
        var renamed = stored
        renamed.name = "renamed"
        XCTAssertThrowsError(try queue.write { db in try renamed.update(db) }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isReadOnly == true, "\(error)")
        }
        XCTAssertThrowsError(try queue.write { db in try City.deleteAll(db) }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isReadOnly == true, "\(error)")
        }
        XCTAssertThrowsError(try queue.write { db in try stored.delete(db) }) { error in
            XCTAssertTrue((error as? DatabaseError)?.isReadOnly == true, "\(error)")
        }
        XCTAssertEqual(try queue.read { db in try City.fetchOne(db, id: 1) }, stored)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    // MARK: Damaged pages

    func testPagesOverwrittenWithGarbageAreTypedErrorsNeverATrap() throws {
        let seed = ReliabilitySeed.make("SQLITE_RECORD_GARBAGE_SEED", suite: "HostileFileTests")
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let original = folder.path("original.sqlite")
        _ = try makeWorld(at: original, journalMode: .delete).0
        let pristine = try Data(contentsOf: URL(fileURLWithPath: original))
        let pageSize = 4096
        let pageCount = pristine.count / pageSize
        XCTAssertGreaterThan(pageCount, 4)

        var outcomes: [String: Int] = [:]
        for round in 0..<40 {
            // Garbage over a random run of bytes in a page after the first (the header page is
            // DatabaseOpeningTests' business), keeping the file's length.
            var bytes = pristine
            let page = Int.random(in: 1..<pageCount, using: &random)
            let start = page * pageSize + Int.random(in: 0..<pageSize, using: &random)
            let length = min(Int.random(in: 1...pageSize, using: &random), bytes.count - start)
            for offset in start..<(start + length) { bytes[offset] = UInt8.random(in: 0...255, using: &random) }
            let path = folder.path("damaged-\(round).sqlite")
            try bytes.write(to: URL(fileURLWithPath: path))

            let db = try Database(path: path, options: .init(readOnly: true))
            let reads: [() throws -> Void] = [
                { _ = try City.fetch(db) }, { _ = try Country.fetch(db) },
                { _ = try db.fetchAll(sql: "SELECT * FROM cities ORDER BY name") },
                { _ = try City.fetch(db, where: ["population": 7]) },
                { _ = try db.fetchAll(String.self, sql: "PRAGMA integrity_check") },
            ]
            for read in reads {
                do {
                    try read()
                    outcomes["read", default: 0] += 1
                } catch let error as DatabaseError {
                    outcomes["DatabaseError \(error.resultCode.primary)", default: 0] += 1
                } catch is DecodingError {
                    outcomes["DecodingError", default: 0] += 1
                }
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes, "reading wrote to the file")
        }
        print("HostileFileTests: 40 damaged files, read outcomes \(outcomes.sorted { $0.key < $1.key }), seed \(seed)")
    }
}
