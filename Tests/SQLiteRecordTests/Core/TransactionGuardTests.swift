import Foundation
import SQLiteRecord
import XCTest

/// Once SQLite has ended a transaction, nothing in that body commits on its own; a read is one snapshot and
/// cannot write.
final class TransactionGuardTests: XCTestCase {
    struct Job: Record, Sendable {
        var id: Int64?
        var name: String
        static let tableName = "job"
    }

    /// A statement that runs for minutes unless interrupted; `bulk_started` tells the test it is running.
    static let bulkInsertSQL = """
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 200000000) \
        INSERT INTO bulk SELECT bulk_started(x) FROM n
        """

    /// Signalled by `bulk_started` while the long statement runs.
    private let bulkRuns = DispatchSemaphore(value: 0)

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        let bulkRuns = bulkRuns
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE job (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE bulk (x)")
            try db.createFunction("bulk_started", argumentCount: 1) { arguments in
                if case .integer(1) = arguments.first { bulkRuns.signal() }
                return arguments.first
            }
        }
        return queue
    }

    /// Interrupts `queue` from another thread once the long statement runs, 0.3 seconds into it.
    private func interrupt(_ queue: DatabaseQueue, after delay: Double) {
        let bulkRuns = bulkRuns
        DispatchQueue.global().async {
            guard bulkRuns.wait(timeout: .now() + 30) == .success else { return }
            Thread.sleep(forTimeInterval: delay)
            queue.interrupt()
        }
    }

    private func jobNames(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in try Job.fetch(db, orderBy: [.ascending("id")]).map(\.name) }
    }

    private func bulkCount(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM bulk") ?? -1 }
    }

    private func assertUsable(_ queue: DatabaseQueue, file: StaticString = #filePath, line: UInt = #line) throws {
        try queue.write { db in
            var later = Job(id: nil, name: "later")
            try later.insert(db)
        }
        XCTAssertEqual(try jobNames(queue), ["later"], file: file, line: line)
        XCTAssertEqual(try bulkCount(queue), 0, file: file, line: line)
    }

    func testABodyThatCatchesAnInterruptCommitsNothing() throws {
        let queue = try makeQueue()
        var caught: DatabaseError?
        interrupt(queue, after: 0.3)
        XCTAssertThrowsError(
            try queue.write { db in
                var before = Job(id: nil, name: "before")
                try before.insert(db)
                do {
                    try db.execute(sql: Self.bulkInsertSQL)
                } catch let error as DatabaseError {
                    caught = error
                }
                var after = Job(id: nil, name: "after")
                try after.insert(db)
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintCommitHook)
            XCTAssertTrue("\(error)".contains("would have committed on its own"), "\(error)")
        }
        XCTAssertEqual(caught?.resultCode, .interrupt)
        XCTAssertEqual(try jobNames(queue), [])
        XCTAssertEqual(try bulkCount(queue), 0)
        try assertUsable(queue)
    }

    func testABodyThatCatchesEverythingStillThrows() throws {
        let queue = try makeQueue()
        interrupt(queue, after: 0.3)
        XCTAssertThrowsError(
            try queue.write { db in
                try db.execute(sql: "INSERT INTO job (name) VALUES ('before')")
                try? db.execute(sql: Self.bulkInsertSQL)
                try? db.execute(sql: "INSERT INTO job (name) VALUES ('after')")
                // A read after the rollback is fine; it reads what was committed.
                XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM job"), 0)
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .abort)
            XCTAssertTrue("\(error)".contains("the transaction was rolled back inside its body"), "\(error)")
        }
        XCTAssertEqual(try jobNames(queue), [])
        try assertUsable(queue)
    }

    func testTheAsyncWriteCommitsNothingEither() async throws {
        let queue = try makeQueue()
        interrupt(queue, after: 0.3)
        do {
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO job (name) VALUES ('before')")
                do { try db.execute(sql: Self.bulkInsertSQL) } catch {}
                try db.execute(sql: "INSERT INTO job (name) VALUES ('after')")
            }
            XCTFail("the write must throw")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .constraintCommitHook)
        }
        let names = try await queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM job") }
        XCTAssertEqual(names, [])
        try assertUsable(queue)
    }

    func testASavepointScopedCallInsideAWriteCommitsNothing() throws {
        // A child's willSave runs the long statement: it is interrupted inside save(children:)'s savepoint,
        // which SQLite's rollback takes with the whole transaction.
        struct Parent: Record {
            var id: Int64?
            var name: String
            static let tableName = "job"
        }
        struct Child: Record {
            var id: Int64?
            var x: Int64
            static let tableName = "bulk_child"
            func willSave(_ db: some DatabaseConnection) throws {
                try XCTUnwrap(db as? Database).execute(sql: TransactionGuardTests.bulkInsertSQL)
            }
        }
        let queue = try makeQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE bulk_child (id INTEGER PRIMARY KEY, x)") }
        interrupt(queue, after: 0.3)
        var caught: (any Error)?
        XCTAssertThrowsError(
            try queue.write { db in
                var parent = Parent(id: nil, name: "before")
                var children = [Child(id: nil, x: 1)]
                do { try parent.save(db, children: &children) } catch { caught = error }
                var after = Job(id: nil, name: "after")
                try after.insert(db)
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("SQLite rolled back the whole transaction"), "\(error)")
        }
        XCTAssertEqual((caught as? DatabaseError)?.resultCode, .interrupt)
        XCTAssertEqual(try jobNames(queue), [])
        XCTAssertEqual(try bulkCount(queue), 0)
        try assertUsable(queue)
    }

    func testARollbackInTheBodyLeavesNothingCommittedAfterIt() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.write { db in
                try db.execute(sql: "INSERT INTO job (name) VALUES ('before'); ROLLBACK")
                try db.execute(sql: "INSERT INTO job (name) VALUES ('after')")
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintCommitHook)
        }
        XCTAssertEqual(try jobNames(queue), [])
        try assertUsable(queue)
    }

    func testARollbackThenABeginInTheBodyCommitsNothing() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.write { db in
                try db.execute(sql: "INSERT INTO job (name) VALUES ('before')")
                try? db.execute(sql: "ROLLBACK")
                try db.execute(sql: "BEGIN")
                try db.execute(sql: "INSERT INTO job (name) VALUES ('after')")
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("the transaction was rolled back inside its body"), "\(error)")
        }
        XCTAssertEqual(try jobNames(queue), [])
        try assertUsable(queue)
    }

    func testATransactionLeftOpenByWriteWithoutTransactionIsRolledBackAndReported() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN")
                try db.execute(sql: "INSERT INTO job (name) VALUES ('half')")
                try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
            })
        XCTAssertThrowsError(
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN; INSERT INTO job (name) VALUES ('open')")
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            XCTAssertTrue("\(error)".contains("did not end it; it was rolled back"), "\(error)")
        }
        XCTAssertEqual(try jobNames(queue), [])
        // Later writes commit for real: another connection sees them.
        try assertUsable(queue)
    }

    func testAReadThatTurnsQueryOnlyOffStillCommitsNothing() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.read { db in
                try db.execute(sql: "PRAGMA query_only = 0; INSERT INTO job (name) VALUES ('sneaky')")
            })
        XCTAssertThrowsError(
            try queue.read { db in
                try db.execute(sql: "COMMIT; PRAGMA query_only = 0; INSERT INTO job (name) VALUES ('sneaky')")
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
            XCTAssertTrue("\(error)".contains("a read cannot write"), "\(error)")
        }
        XCTAssertEqual(try jobNames(queue), [])
        try assertUsable(queue)
    }

    // MARK: - Reads

    func testAReadSeesOneSnapshotWhileAnotherConnectionCommits() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("snapshot-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let queue = try DatabaseQueue(path: path)
        // WAL lets the other connection commit while the read holds its snapshot.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE job (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO job (name) VALUES ('one')")
        }
        let other = try Database(path: path)
        let counts = try queue.read { db -> [Int] in
            let first = try Job.count(db)
            try other.execute(sql: "INSERT INTO job (name) VALUES ('two')")
            let second = try Job.count(db)
            let names = try Job.fetch(db).map(\.name)
            return [first, second, names.count]
        }
        XCTAssertEqual(counts, [1, 1, 1])
        XCTAssertEqual(try queue.read { db in try Job.count(db) }, 2)
    }

    func testAWriteInsideAReadThrowsAndNamesWrite() throws {
        let queue = try makeQueue()
        XCTAssertThrowsError(
            try queue.read { db in
                var job = Job(id: nil, name: "sneaky")
                try job.save(db)
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .readOnly)
            XCTAssertTrue("\(error)".contains("run this statement inside write"), "\(error)")
        }
        XCTAssertThrowsError(try queue.read { db in try db.execute(sql: "CREATE TABLE other (x)") })
        XCTAssertThrowsError(try queue.read { db in try db.execute(sql: "DELETE FROM job") })
        XCTAssertEqual(try jobNames(queue), [])
        // Writes work again after the read.
        try queue.write { db in try db.execute(sql: "INSERT INTO job (name) VALUES ('fine')") }
        XCTAssertEqual(try jobNames(queue), ["fine"])
    }

    func testTheAsyncReadCannotWriteEither() async throws {
        let queue = try makeQueue()
        do {
            try await queue.read { db in try db.execute(sql: "INSERT INTO job (name) VALUES ('sneaky')") }
            XCTFail("a read must not write")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .readOnly)
        }
        let count = try await queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM job") }
        XCTAssertEqual(count, 0)
        try await queue.write { db in try db.execute(sql: "INSERT INTO job (name) VALUES ('fine')") }
        let names = try await queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM job") }
        XCTAssertEqual(names, ["fine"])
    }

    func testTheDefaultStoreReadsAndWritesAsBefore() throws {
        let queue = try makeQueue()
        try RecordStore.use(queue)
        var job = Job(id: nil, name: "a")
        try job.save()
        XCTAssertEqual(try Job.fetchOne(id: job.id ?? 0)?.name, "a")
        XCTAssertEqual(try Job.count(), 1)
    }
}
