import Dispatch
import Foundation
import SQLiteRecord
import XCTest

/// 8 reader threads and 1 writer thread share one DatabasePool for a bounded time: no SQLITE_BUSY, and no
/// read ever sees uncommitted or half-committed data. Each write transaction moves money between accounts
/// (the balances' sum stays 1,000,000), appends a row to a log and sets `counter.n` to the log's size; a
/// read checks both invariants in one snapshot, and that its snapshots never go back in time. The writer
/// also starts concurrent reads after some commits and checks they see exactly that commit.
///
/// Its name ends in ConcurrencyTests, so `Scripts/sanitizers.sh tsan` runs it under Thread Sanitizer.
/// Seeded: `SQLITE_RECORD_CONCURRENCY_SEED`; `SQLITE_RECORD_POOL_STRESS_SECONDS` sets the time (default 3).
final class PoolConcurrencyTests: XCTestCase {
    static let readers = 8
    static let accounts = 10
    static let total = 1_000_000

    struct Account: Record, Sendable {
        var id: Int64?
        var balance: Int
        static let tableName = "accounts"
    }

    /// What the workers record, under `lock`.
    final class Tally: @unchecked Sendable {
        // @unchecked Sendable: every property is read and written only with `lock` held.
        private let lock = NSLock()
        private var failureList: [String] = []
        private var readCount = 0
        private var writeCount = 0
        private var concurrentReadCount = 0

        func fail(_ message: String) {
            lock.lock()
            if failureList.count < 20 { failureList.append(message) }
            lock.unlock()
        }
        func read() {
            lock.lock()
            readCount += 1
            lock.unlock()
        }
        func wrote(concurrentRead: Bool) {
            lock.lock()
            writeCount += 1
            if concurrentRead { concurrentReadCount += 1 }
            lock.unlock()
        }
        var summary: (failures: [String], reads: Int, writes: Int, concurrentReads: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (failureList, readCount, writeCount, concurrentReadCount)
        }
    }

    func testEightReadersAndAWriterNeverSeeAHalfCommittedTransactionNorBusy() throws {
        let seed = ReliabilitySeed.make("SQLITE_RECORD_CONCURRENCY_SEED", suite: "PoolConcurrencyTests")
        let seconds =
            ProcessInfo.processInfo.environment["SQLITE_RECORD_POOL_STRESS_SECONDS"].flatMap(Double.init) ?? 3
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(
            path: folder.path("stress.sqlite"), options: .init(maximumReaderCount: Self.readers))
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
                    CREATE TABLE log (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL);
                    CREATE TABLE counter (n INTEGER NOT NULL);
                    INSERT INTO counter VALUES (0);
                    """)
            var accounts = (0..<Self.accounts).map { _ in Account(id: nil, balance: Self.total / Self.accounts) }
            try Account.save(db, &accounts)
        }
        let tally = Tally()
        let deadline = Date().addingTimeInterval(seconds)
        let done = DispatchGroup()

        for reader in 0..<Self.readers {
            done.enter()
            Thread {
                defer { done.leave() }
                var random = SeededGenerator(seed: seed &+ UInt64(reader))
                var lastSeen = 0
                while Date() < deadline {
                    do {
                        let useRecords = Bool.random(using: &random)
                        let (sum, n, logged) = try pool.read { db -> (Int, Int, Int) in
                            let sum =
                                useRecords
                                ? try Account.fetch(db).reduce(0) { $0 + $1.balance }
                                : try db.scalar(Int.self, sql: "SELECT sum(balance) FROM accounts") ?? -1
                            let n = try db.scalar(Int.self, sql: "SELECT n FROM counter") ?? -1
                            let logged = try db.scalar(Int.self, sql: "SELECT count(*) FROM log") ?? -1
                            return (sum, n, logged)
                        }
                        if sum != Self.total { tally.fail("reader \(reader): sum \(sum)") }
                        if n != logged { tally.fail("reader \(reader): counter \(n), log \(logged)") }
                        if n < lastSeen { tally.fail("reader \(reader): went back from \(lastSeen) to \(n)") }
                        lastSeen = n
                        tally.read()
                    } catch {
                        tally.fail("reader \(reader): \(error)")
                    }
                }
            }.start()
        }

        done.enter()
        Thread {
            defer { done.leave() }
            var random = SeededGenerator(seed: seed)
            var committed = 0
            while Date() < deadline {
                let from = Int64.random(in: 1...Int64(Self.accounts), using: &random)
                let to = Int64.random(in: 1...Int64(Self.accounts), using: &random)
                let amount = Int.random(in: 1...500, using: &random)
                let spawn = Int.random(in: 0..<8, using: &random) == 0
                do {
                    let future = try pool.writeWithoutTransaction { db -> DatabaseFuture<Int>? in
                        try db.transaction(.immediate) {
                            try db.execute(
                                sql: "UPDATE accounts SET balance = balance - ? WHERE id = ?",
                                arguments: [amount, from])
                            // Half a transaction would show here, between the two updates.
                            try db.execute(
                                sql: "UPDATE accounts SET balance = balance + ? WHERE id = ?", arguments: [amount, to])
                            try db.execute(sql: "INSERT INTO log (amount) VALUES (?)", arguments: [amount])
                            try db.execute(sql: "UPDATE counter SET n = n + 1")
                        }
                        guard spawn else { return nil }
                        return try pool.concurrentRead { db in
                            try db.scalar(Int.self, sql: "SELECT n FROM counter") ?? -1
                        }
                    }
                    committed += 1
                    if let future {
                        let seen = try future.wait()
                        if seen != committed { tally.fail("concurrent read saw \(seen), expected \(committed)") }
                    }
                    tally.wrote(concurrentRead: future != nil)
                } catch {
                    tally.fail("writer: \(error)")
                }
            }
        }.start()

        XCTAssertEqual(done.wait(timeout: .now() + seconds + 60), .success, "the workers did not finish")
        let summary = tally.summary
        XCTAssertEqual(summary.failures, [])
        XCTAssertGreaterThan(summary.reads, Self.readers)
        XCTAssertGreaterThan(summary.writes, 0)
        let stored = try pool.read { db in try db.scalar(Int.self, sql: "SELECT n FROM counter") }
        XCTAssertEqual(stored, summary.writes, "every acknowledged write is stored")
        try pool.close()
        print(
            "PoolConcurrencyTests: \(summary.reads) reads on \(Self.readers) threads beside \(summary.writes) "
                + "write transactions (\(summary.concurrentReads) followed by a concurrent read) in "
                + "\(seconds) s, no busy error, no torn read, seed \(seed)")
    }
}
