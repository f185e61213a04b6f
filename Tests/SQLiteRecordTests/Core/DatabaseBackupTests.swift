import Foundation
import SQLiteRecord
import XCTest

/// Online backups (`sqlite3_backup_*` in steps, with progress) and `VACUUM INTO`: the copy is one consistent
/// snapshot, passes `PRAGMA integrity_check`, and writes go on while a pool's backup runs.
final class DatabaseBackupTests: XCTestCase {
    /// Rows in each of the two tables to start with: about 110 pages of 4,096 bytes in all.
    private static let rows = 1_000

    /// Makes tables `a` and `b`, each of ``rows`` rows; every later write adds one row to each, in one
    /// transaction, so any consistent snapshot has as many rows in `a` as in `b`.
    private func fill(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
            try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
            for index in 0..<Self.rows {
                let payload = String(repeating: "x", count: 200) + "\(index)"
                try db.execute(sql: "INSERT INTO a (payload) VALUES (?)", arguments: [payload])
                try db.execute(sql: "INSERT INTO b (payload) VALUES (?)", arguments: [payload])
            }
        }
    }

    private static func addPair(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO a (payload) VALUES ('during')")
        try db.execute(sql: "INSERT INTO b (payload) VALUES ('during')")
    }

    private func count(_ table: String, in reader: some DatabaseReader) throws -> Int? {
        try reader.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM \(table)") }
    }

    private func integrity(of reader: some DatabaseReader) throws -> String? {
        try reader.read { db in try db.scalar(String.self, sql: "PRAGMA integrity_check") }
    }

    func testABackupOfAPoolWhileWritesGoOnIsTheSnapshotItStartedFrom() throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("source.sqlite"))
        try fill(pool)
        let copy = try DatabaseQueue(path: folder.path("copy.sqlite"))

        // A writer on another thread adds a pair of rows per transaction until told to stop.
        let commits = SharedCounter()
        let stop = SharedCounter()
        let writerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while stop.value == 0 {
                do {
                    try pool.write { db in try DatabaseBackupTests.addPair(db) }
                    commits.increment()
                } catch {
                    XCTFail("write during the backup threw \(error)")
                    break
                }
            }
            writerDone.signal()
        }
        var writerStopped = false
        func stopWriter() {
            guard !writerStopped else { return }
            writerStopped = true
            stop.increment()
            writerDone.wait()
        }
        defer { stopWriter() }

        var reports: [Database.BackupProgress] = []
        var commitsDuringBackup = 0
        let snapshotCount = try pool.read { source in
            let counted = try source.scalar(Int.self, sql: "SELECT count(*) FROM a")
            try copy.writeWithoutTransaction { target in
                try source.backup(to: target, pagesPerStep: 10) { progress in
                    reports.append(progress)
                    if reports.count == 1 {
                        // The writer commits between the steps: the backup does not hold it up.
                        let start = commits.value
                        let deadline = Date().addingTimeInterval(10)
                        while commits.value < start + 3 && Date() < deadline { usleep(1_000) }
                        commitsDuringBackup = commits.value - start
                    }
                }
            }
            return counted
        }
        stopWriter()

        XCTAssertGreaterThanOrEqual(commitsDuringBackup, 3)
        XCTAssertEqual(try integrity(of: copy), "ok")
        XCTAssertEqual(try count("a", in: copy), snapshotCount)
        XCTAssertEqual(try count("b", in: copy), snapshotCount)
        XCTAssertGreaterThan(try count("a", in: pool) ?? 0, snapshotCount ?? 0)
        XCTAssertEqual(try count("a", in: pool), try count("b", in: pool))

        // Progress: the same total each step, 10 pages fewer to go each time, and nothing left at the end.
        let total = reports.first?.pageCount ?? 0
        XCTAssertGreaterThan(total, 50)
        XCTAssertEqual(Set(reports.map(\.pageCount)), [total])
        XCTAssertEqual(reports.map(\.remainingPageCount), (1...reports.count).map { max(total - 10 * $0, 0) })
        XCTAssertEqual(reports.count, (total + 9) / 10)
        XCTAssertEqual(reports.last?.isComplete, true)
        XCTAssertEqual(reports.last?.completedPageCount, total)
    }

    func testAReaderBacksUpIntoAWriter() throws {
        let folder = try TemporaryFolder()
        let source = try DatabaseQueue(path: folder.path("source.sqlite"))
        try fill(source)
        let copy = try DatabaseQueue()
        var steps = 0
        try source.backup(to: copy, pagesPerStep: -1) { _ in steps += 1 }
        XCTAssertEqual(steps, 1)
        XCTAssertEqual(try integrity(of: copy), "ok")
        XCTAssertEqual(try count("a", in: copy), Self.rows)
        XCTAssertEqual(try count("b", in: copy), Self.rows)
    }

    func testThrowingFromProgressStopsTheBackupAndLeavesTheDestinationAsItWas() throws {
        struct Stop: Error {}
        let folder = try TemporaryFolder()
        let source = try DatabaseQueue(path: folder.path("source.sqlite"))
        try fill(source)
        let copy = try DatabaseQueue(path: folder.path("copy.sqlite"))
        try copy.write { db in
            try db.execute(sql: "CREATE TABLE kept (x)")
            try db.execute(sql: "INSERT INTO kept VALUES (1)")
        }
        XCTAssertThrowsError(try source.backup(to: copy, pagesPerStep: 5) { _ in throw Stop() }) { error in
            XCTAssertTrue(error is Stop, "\(error)")
        }
        XCTAssertEqual(try count("kept", in: copy), 1)
        XCTAssertEqual(try copy.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM sqlite_master") }, 1)
        XCTAssertEqual(try integrity(of: copy), "ok")
    }

    func testStepsOfNoPagesAreRefused() throws {
        let source = try DatabaseQueue()
        let copy = try DatabaseQueue()
        XCTAssertThrowsError(try source.backup(to: copy, pagesPerStep: 0)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            XCTAssertEqual(
                (error as? DatabaseError)?.message,
                "a backup of :memory: in steps of 0 pages would never end: pass a positive count, or -1 to copy "
                    + "every page in one step")
        }
    }

    func testVacuumIntoWritesACompactedSnapshot() throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("source.sqlite"))
        try fill(pool)
        try pool.write { db in try db.execute(sql: "DELETE FROM a WHERE id > 500") }
        try pool.vacuum(into: folder.path("vacuumed.sqlite"))
        let copy = try DatabaseQueue(path: folder.path("vacuumed.sqlite"))
        XCTAssertEqual(try integrity(of: copy), "ok")
        XCTAssertEqual(try count("a", in: copy), 500)
        XCTAssertEqual(try count("b", in: copy), Self.rows)
        XCTAssertEqual(try copy.read { db in try db.scalar(Int.self, sql: "PRAGMA freelist_count") }, 0)

        XCTAssertThrowsError(try pool.vacuum(into: folder.path("vacuumed.sqlite"))) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "output file already exists")
        }
    }
}
