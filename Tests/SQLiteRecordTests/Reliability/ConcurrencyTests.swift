import Dispatch
import Foundation
import SQLiteRecord
import XCTest

/// 8 threads and 8 async tasks share one DatabaseQueue on a WAL file, while a second connection reads the
/// same file: every acknowledged write is present, nothing else is, no SQLITE_BUSY surfaces, and no read
/// ever sees half a transaction (each write adds a pair of rows, so every count is even).
///
/// Also run under Thread Sanitizer by Scripts/sanitizers.sh. Seeded: `SQLITE_RECORD_CONCURRENCY_SEED`.
final class ConcurrencyTests: XCTestCase {
    static let threads = 8
    static let tasks = 8
    /// Operations per worker: about a third writes, the rest reads of several kinds.
    static let operationsPerWorker = 150

    /// One half of a pair: both halves are written in one transaction.
    struct PairRow: Record, Sendable {
        var id: Int64?
        var writer: Int
        var operation: Int
        var half: Int
        static let tableName = "pairs"
    }

    /// What the workers record, under `lock`.
    final class Ledger: @unchecked Sendable {
        // @unchecked Sendable: every property is read and written only with `lock` held.
        private let lock = NSLock()
        private var acknowledged = Set<String>()
        private(set) var failures: [String] = []
        private(set) var operations = 0
        private(set) var reads = 0
        private(set) var cancelled = 0

        func acknowledge(writer: Int, operation: Int) {
            lock.lock()
            acknowledged.insert("\(writer)/\(operation)")
            operations += 1
            lock.unlock()
        }
        func read() {
            lock.lock()
            reads += 1
            operations += 1
            lock.unlock()
        }
        func cancel() {
            lock.lock()
            cancelled += 1
            operations += 1
            lock.unlock()
        }
        func fail(_ message: String) {
            lock.lock()
            failures.append(message)
            lock.unlock()
        }
        var writes: Set<String> {
            lock.lock()
            defer { lock.unlock() }
            return acknowledged
        }
    }

    func testThreadsAndTasksShareOneQueueWithoutLosingOrTearingAWrite() async throws {
        let seed = ReliabilitySeed.make("SQLITE_RECORD_CONCURRENCY_SEED", suite: "ConcurrencyTests")
        let folder = try TemporaryFolder()
        let path = folder.path("concurrency.sqlite")
        let queue = try DatabaseQueue(path: path, options: .init(journalMode: .wal))
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE pairs (id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, operation INTEGER NOT NULL,
                        half INTEGER NOT NULL, UNIQUE (writer, operation, half))
                    """)
        }
        // Another connection on the same file: it reads snapshots while the queue writes.
        let observer = try DatabaseQueue(path: path, options: .init(journalMode: .wal))
        let ledger = Ledger()
        let started = Date()

        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.tasks {
                group.addTask {
                    var random = SeededGenerator(seed: seed &+ UInt64(worker))
                    await Self.runTask(
                        worker: worker, queue: queue, observer: observer, ledger: ledger, random: &random)
                }
            }
            let threadsDone = DispatchGroup()
            for offset in 0..<Self.threads {
                let worker = Self.tasks + offset
                threadsDone.enter()
                let thread = Thread {
                    var random = SeededGenerator(seed: seed &+ UInt64(worker))
                    Self.runThread(worker: worker, queue: queue, observer: observer, ledger: ledger, random: &random)
                    threadsDone.leave()
                }
                thread.start()
            }
            group.addTask {
                await withCheckedContinuation { continuation in
                    threadsDone.notify(queue: .global()) { continuation.resume() }
                }
            }
        }
        let seconds = Date().timeIntervalSince(started)

        XCTAssertEqual(ledger.failures, [])
        let stored = try await queue.read { db in try PairRow.fetch(db) }
        var halves: [String: Int] = [:]
        for row in stored { halves["\(row.writer)/\(row.operation)", default: 0] += 1 }
        XCTAssertTrue(halves.values.allSatisfy { $0 == 2 }, "a write landed without its other half")
        XCTAssertEqual(Set(halves.keys), ledger.writes, "the stored writes differ from the acknowledged ones")
        let observed = try await observer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM pairs") }
        XCTAssertEqual(observed, stored.count)
        XCTAssertEqual(ledger.operations, (Self.threads + Self.tasks) * Self.operationsPerWorker)
        XCTAssertLessThan(seconds, 60)
        print(
            "ConcurrencyTests: \(ledger.operations) operations from \(Self.threads) threads and \(Self.tasks) tasks "
                + "(\(ledger.writes.count) transactions of 2 rows, \(ledger.reads) reads, \(ledger.cancelled) "
                + "cancelled tasks), \(stored.count) rows checked, no busy error, seed \(seed), "
                + String(format: "%.1f s", seconds))
    }

    // MARK: Workers

    /// One operation of a thread: a pair written with `Record.save(_:_:)`, or with raw SQL, or a read.
    static func runThread(
        worker: Int, queue: DatabaseQueue, observer: DatabaseQueue, ledger: Ledger, random: inout SeededGenerator
    ) {
        for operation in 0..<operationsPerWorker {
            do {
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    var pair = [0, 1].map { PairRow(id: nil, writer: worker, operation: operation, half: $0) }
                    try queue.write { db in try PairRow.save(db, &pair) }
                    ledger.acknowledge(writer: worker, operation: operation)
                case 1:
                    try queue.write { db in
                        for half in 0...1 {
                            try db.execute(
                                sql: "INSERT INTO pairs (writer, operation, half) VALUES (?, ?, ?)",
                                arguments: [worker, operation, half])
                        }
                    }
                    ledger.acknowledge(writer: worker, operation: operation)
                default:
                    try read(
                        worker: worker, operation: operation, choice: Int.random(in: 0..<4, using: &random),
                        queue: queue, observer: observer, ledger: ledger)
                }
            } catch {
                ledger.fail("thread \(worker) operation \(operation): \(error)")
            }
        }
    }

    /// One operation of a task: the async twins, and now and then a task cancelled at a random moment.
    static func runTask(
        worker: Int, queue: DatabaseQueue, observer: DatabaseQueue, ledger: Ledger, random: inout SeededGenerator
    ) async {
        for operation in 0..<operationsPerWorker {
            let choice = Int.random(in: 0..<8, using: &random)
            do {
                switch choice {
                case 0, 1:
                    try await queue.write { db in
                        var pair = [0, 1].map { PairRow(id: nil, writer: worker, operation: operation, half: $0) }
                        try PairRow.save(db, &pair)
                    }
                    ledger.acknowledge(writer: worker, operation: operation)
                case 2:
                    // A write in a child task cancelled after a random delay: it lands whole or not at all,
                    // and the ledger learns which from its result.
                    let delay = UInt64.random(in: 0...300_000, using: &random)
                    let write = Task {
                        try await queue.write { db in
                            for half in 0...1 {
                                try db.execute(
                                    sql: "INSERT INTO pairs (writer, operation, half) VALUES (?, ?, ?)",
                                    arguments: [worker, operation, half])
                            }
                        }
                    }
                    try? await Task.sleep(nanoseconds: delay)
                    write.cancel()
                    switch await write.result {
                    case .success: ledger.acknowledge(writer: worker, operation: operation)
                    case .failure(let error as DatabaseError) where error.isInterrupted: ledger.cancel()
                    case .failure(is CancellationError): ledger.cancel()
                    case .failure(let error): throw error
                    }
                default:
                    let pick = Int.random(in: 0..<4, using: &random)
                    let count = try await queue.read { db in
                        try db.scalar(
                            Int.self,
                            sql: pick == 0
                                ? "SELECT count(*) FROM pairs" : "SELECT count(*) FROM pairs WHERE half = 0 OR half = 1"
                        ) ?? 0
                    }
                    if count % 2 != 0 { ledger.fail("task \(worker) saw \(count) rows, half a transaction") }
                    ledger.read()
                }
            } catch {
                ledger.fail("task \(worker) operation \(operation): \(error)")
            }
        }
    }

    /// A read that checks it never sees half a pair: through the queue or through the other connection,
    /// counting rows or decoding them.
    static func read(
        worker: Int, operation: Int, choice: Int, queue: DatabaseQueue, observer: DatabaseQueue, ledger: Ledger
    ) throws {
        let count: Int
        switch choice {
        case 0:
            count = try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM pairs") ?? 0 }
        case 1:
            // Both halves, decoded as records, in two statements the queue keeps together.
            let (first, second) = try queue.read { db in
                (try PairRow.fetch(db, where: ["half": 0]).count, try PairRow.fetch(db, where: ["half": 1]).count)
            }
            if first != second { ledger.fail("thread \(worker): \(first) first halves but \(second) second halves") }
            count = first + second
        case 2:
            count = try observer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM pairs") ?? 0 }
        default:
            // One snapshot on the other connection, two statements: they must agree.
            count = try observer.read { db in
                try db.transaction {
                    let first = try PairRow.count(db)
                    let second = try PairRow.count(db, where: "half IN (0, 1)")
                    if first != second { ledger.fail("thread \(worker): one snapshot counted \(first) then \(second)") }
                    return first
                }
            }
        }
        if count % 2 != 0 {
            ledger.fail("thread \(worker) operation \(operation) saw \(count) rows, half a transaction")
        }
        ledger.read()
    }
}
