import Foundation
import SQLiteRecord
import XCTest

/// Kills a process that is writing batches of records (SQLiteRecordCrashWriter) with SIGKILL at random
/// moments, then checks after each kill that the database is whole: `PRAGMA integrity_check` says ok,
/// every batch is there in full or not at all, and no batch the writer reported committed is missing.
///
/// Seeded: set `SQLITE_RECORD_CRASH_SEED` to replay a run's kill times.
final class CrashSafetyTests: XCTestCase {
    /// Rows per batch, each batch one transaction; every third batch holds ten times as many (see
    /// ``rows(inBatch:)``).
    static let batchSize = 25
    static let kills = 30

    /// A row as the writer stores it; the checksum is recomputed here the way the writer computes it.
    private struct Item: Record {
        var id: Int64?
        var batch: Int64
        var seq: Int64
        var payload: String
        var checksum: Int64
        static let tableName = "items"

        var isWhole: Bool {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in "\(batch)|\(seq)|\(payload)".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            let expectedPayload = String(repeating: "batch \(batch) row \(seq); ", count: 1 + Int(seq % 7))
            return checksum == Int64(bitPattern: hash >> 1) && payload == expectedPayload
        }
    }

    func testKilledWritersNeverLoseACommittedBatchNorLeaveAPartialOne() throws {
        try runKills(writerArguments: [], name: "CrashSafetyTests")
    }

    /// The same with a writer whose bodies catch the interrupt that rolled their transaction back and go on:
    /// nothing such a body does is committed (issue "Writes that never lie"), so batches stay whole and the
    /// `noise` table the interrupted statement wrote stays empty.
    func testKilledWritersWhoseBodiesCatchInterruptsCommitOnlyWholeBatches() throws {
        try runKills(writerArguments: ["--catch-interrupts"], name: "CrashSafetyTests (bodies catch interrupts)")
    }

    /// The same with a writer on a DatabasePool, which reads each batch back on a reader before it reports
    /// it: the pool's WAL file survives kills mid-transaction as the queue's does.
    func testKilledPoolWritersNeverLoseACommittedBatchNorLeaveAPartialOne() throws {
        try runKills(writerArguments: ["--pool"], name: "CrashSafetyTests (pool writer)")
    }

    /// Two processes, each with a pool on one file, write at the same time: this test's process and a
    /// crash writer that is not killed. Every write either acknowledged is present, and neither sees
    /// SQLITE_BUSY (the writer exits with status 1 on any error).
    func testTwoProcessesWithAPoolEachKeepEveryAcknowledgedWrite() throws {
        let writer = try CrashWriterLocation.find()
        let folder = try TemporaryFolder()
        let path = folder.path("shared.sqlite")
        let output = folder.path("writer.out")
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS items (
                        id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,
                        checksum INTEGER NOT NULL, UNIQUE (batch, seq));
                    CREATE TABLE IF NOT EXISTS noise (x);
                    CREATE TABLE mine (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)
                    """)
        }
        let process = try launch(
            writer, arguments: [path, "--batch-size", "20", "--batches", "40", "--pool"], output: output)
        var acknowledged = 0
        var wholeReads = 0
        while process.isRunning || acknowledged < 200 {
            try pool.write { db in try db.execute(sql: "INSERT INTO mine (n) VALUES (?)", arguments: [acknowledged]) }
            acknowledged += 1
            // The other process's batches are whole in every snapshot.
            let rows = try pool.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM items") ?? -1 }
            let batches = try pool.read { db in try db.scalar(Int64.self, sql: "SELECT max(batch) FROM items") ?? 0 }
            XCTAssertGreaterThanOrEqual(rows, Self.rows(upToBatch: max(batches - 1, 0), base: 20))
            wholeReads += 1
        }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the other process failed (a busy error?)")
        let lines = try lines(of: output)
        XCTAssertEqual(lines.first, "ready 1")
        XCTAssertEqual(lines.last, "committed 40")
        try pool.read { db in
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM mine"), acknowledged)
            XCTAssertEqual(
                try db.scalar(Int.self, sql: "SELECT count(*) FROM items"), Self.rows(upToBatch: 40, base: 20))
        }
        try pool.close()
        print(
            "CrashSafetyTests (two processes): \(acknowledged) writes here beside 40 batches there, "
                + "\(wholeReads) reads")
    }

    private func runKills(writerArguments: [String], name: String) throws {
        let writer = try CrashWriterLocation.find()
        let seed = ReliabilitySeed.make("SQLITE_RECORD_CRASH_SEED", suite: "CrashSafetyTests")
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let path = folder.path("crash.sqlite")
        let output = folder.path("writer.out")
        let started = Date()

        var killsSurvived = 0
        // Bodies that caught an interrupt and whose write then threw, as it must (--catch-interrupts).
        var refusals = 0
        var killsAfterCommit = 0
        var rowsChecked = 0
        var expectedBatches: Int64 = 0
        for run in 1...Self.kills {
            let delay = Int.random(in: 5...80, using: &random)
            let lines = try runAndKill(
                writer, path: path, output: output, afterMilliseconds: delay, extraArguments: writerArguments)
            guard let ready = lines.first, ready.hasPrefix("ready "), let first = Int64(ready.dropFirst(6)) else {
                return XCTFail("run \(run): the writer did not start: \(lines)")
            }
            XCTAssertEqual(first, expectedBatches + 1, "run \(run): the writer resumed after the wrong batch")
            let committed = lines.dropFirst().compactMap { line -> Int64? in
                line.hasPrefix("committed ") ? Int64(line.dropFirst(10)) : nil
            }
            let lastReported = committed.last ?? first - 1
            refusals += lines.filter { $0.hasPrefix("refused ") }.count

            // Reopen as a new process would, WAL and all.
            let db = try Database(path: path, options: .init(journalMode: .wal))
            XCTAssertEqual(try db.fetchAll(String.self, sql: "PRAGMA integrity_check"), ["ok"], "run \(run)")
            if try db.tableExists("noise") {
                XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM noise"), 0, "run \(run)")
            }
            let highest = try db.scalar(Int64.self, sql: "SELECT max(batch) FROM items") ?? 0
            XCTAssertGreaterThanOrEqual(highest, lastReported, "run \(run): a reported commit is missing")
            // At most one batch more than reported: the one whose COMMIT landed just before the kill.
            XCTAssertLessThanOrEqual(highest, lastReported + 1, "run \(run)")
            let expectedRows = Self.rows(upToBatch: highest)
            XCTAssertEqual(try Item.count(db), expectedRows, "run \(run): not a whole number of batches")
            // Row by row, the batches this run wrote and the one before (all of them in the final check).
            let from = max(expectedBatches, 1)
            let items = try Item.fetch(
                db, where: "batch >= ?", arguments: [from], orderBy: [.ascending("batch"), .ascending("seq")])
            XCTAssertEqual(items.count, expectedRows - Self.rows(upToBatch: from - 1), "run \(run)")
            guard let failure = Self.firstBrokenRow(items, from: from) else {
                rowsChecked += items.count
                if highest > expectedBatches && highest > lastReported { killsAfterCommit += 1 }
                expectedBatches = highest
                killsSurvived += 1
                continue
            }
            return XCTFail("run \(run): \(failure)")
        }
        // Every row once more, from the first batch.
        let db = try Database(path: path)
        let all = try Item.fetch(db, orderBy: [.ascending("batch"), .ascending("seq")])
        XCTAssertEqual(all.count, Self.rows(upToBatch: expectedBatches))
        XCTAssertNil(Self.firstBrokenRow(all, from: 1))
        rowsChecked += all.count
        let seconds = Date().timeIntervalSince(started)
        print(
            "\(name): \(killsSurvived) SIGKILLs survived, \(expectedBatches) batches committed "
                + "(\(Self.batchSize) or \(Self.batchSize * 10) rows each), \(rowsChecked) rows checked after the kills, "
                + "\(killsAfterCommit) kills landed after a COMMIT reached the WAL but before the writer reported it "
                + "(its fsync), seed \(seed), \(String(format: "%.1f", seconds)) s")
        XCTAssertEqual(killsSurvived, Self.kills)
        if writerArguments.contains("--catch-interrupts") {
            XCTAssertGreaterThan(refusals, 0, "no body ever caught an interrupt before its kill")
        }
        XCTAssertGreaterThan(
            expectedBatches, 0, "no batch was ever committed: the kills came too early to test anything")
    }

    /// The rows the writer puts in batch `batch`, as it computes them.
    static func rows(inBatch batch: Int64) -> Int { batch % 3 == 0 ? batchSize * 10 : batchSize }

    /// The rows in batches 1 through `batch`, of `base` rows (ten times that every third batch).
    static func rows(upToBatch batch: Int64, base: Int = batchSize) -> Int {
        let tenfold = Int(batch / 3)
        return (Int(batch) - tenfold) * base + tenfold * base * 10
    }

    /// A description of the first row of `items` (batches `from` onwards, in order) that is not where it
    /// should be or not whole; nil when every row is.
    private static func firstBrokenRow(_ items: [Item], from: Int64) -> String? {
        var expected = (batch: from, seq: Int64(1))
        for (offset, item) in items.enumerated() {
            guard item.batch == expected.batch, item.seq == expected.seq, item.isWhole else {
                return "row \(offset) is batch \(item.batch) seq \(item.seq), expected \(expected)"
            }
            expected = item.seq == Int64(rows(inBatch: item.batch)) ? (item.batch + 1, 1) : (item.batch, item.seq + 1)
        }
        return nil
    }

    /// The writer also exits cleanly when asked for a fixed number of batches (what valgrind runs).
    func testTheWriterStopsAfterTheBatchesItWasAskedFor() throws {
        let writer = try CrashWriterLocation.find()
        let folder = try TemporaryFolder()
        let path = folder.path("bounded.sqlite")
        let output = folder.path("writer.out")
        let process = try launch(writer, arguments: [path, "--batch-size", "10", "--batches", "3"], output: output)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try lines(of: output), ["ready 1", "committed 1", "committed 2", "committed 3"])
        let db = try Database(path: path)
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM items"), 10 + 10 + 100)
    }

    // MARK: Helpers

    private func launch(_ executable: URL, arguments: [String], output: String) throws -> Process {
        guard FileManager.default.createFile(atPath: output, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        return process
    }

    /// Starts the writer, waits for its `ready` line, lets it write for `milliseconds`, kills it with
    /// SIGKILL and returns the lines it printed.
    private func runAndKill(
        _ executable: URL, path: String, output: String, afterMilliseconds milliseconds: Int,
        extraArguments: [String]
    ) throws -> [String] {
        let process = try launch(
            executable, arguments: [path, "--batch-size", String(Self.batchSize)] + extraArguments, output: output)
        let deadline = Date().addingTimeInterval(20)
        while try lines(of: output).first == nil && process.isRunning && Date() < deadline {
            usleep(1_000)
        }
        usleep(useconds_t(milliseconds * 1_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let printed = try lines(of: output)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the writer exited on its own: \(printed)")
        return printed
    }

    private func lines(of output: String) throws -> [String] {
        let text = try String(contentsOfFile: output, encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }
}
