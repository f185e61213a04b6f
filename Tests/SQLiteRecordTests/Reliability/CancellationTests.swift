import Foundation
import SQLiteRecord
import XCTest

/// What a slow record does when saved: the record named `slowName` signals `reached` and sleeps 20 ms in
/// `willSave`, so that a cancel sent on the signal lands between two statements of the library's loop.
private final class SlowSave: @unchecked Sendable {
    // `armed` is read and written only with `lock` held; the semaphore is thread-safe.
    static let shared = SlowSave()
    let reached = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var armed = false

    func arm() {
        lock.lock()
        armed = true
        lock.unlock()
    }

    func pause() {
        lock.lock()
        let fire = armed
        armed = false
        lock.unlock()
        guard fire else { return }
        reached.signal()
        Thread.sleep(forTimeInterval: 0.02)
    }
}

private struct Item: Record, Equatable {
    var id: Int64?
    var parentId: Int64?
    var name: String
    static let tableName = "items"
    static let slowName = "item-50"

    func willSave(_ db: some DatabaseConnection) throws {
        if name == Self.slowName { SlowSave.shared.pause() }
    }

    func willDelete(_ db: some DatabaseConnection) throws {
        if name == Self.slowName { SlowSave.shared.pause() }
    }
}

/// A value set on one thread and read on another; NSLock guards `stored`.
private final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}

/// A cancelled task commits nothing: a batch write cancelled midway rolls back whole and leaves no id on a
/// record, a write that waited out another connection's lock does not start, and a call still waiting for
/// the pool or the queue returns `CancellationError` at once and never runs its body. 30 rounds of each.
final class CancellationTests: XCTestCase {
    static let rounds = 30

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, parentId INTEGER, name TEXT NOT NULL)")
        }
        return queue
    }

    private static func items(_ count: Int = 200) -> [Item] {
        (0..<count).map { Item(id: nil, parentId: nil, name: "item-\($0)") }
    }

    /// Runs `write` in a task, cancels it when the slow record is reached, and returns the task's error.
    private func cancelMidway(
        _ queue: DatabaseQueue, _ write: @escaping @Sendable (Database) throws -> Void
    ) throws -> (any Error)? {
        SlowSave.shared.arm()
        let outcome = Box<Result<Void, any Error>?>(nil)
        let done = expectation(description: "write returned")
        let task = Task {
            do {
                try await queue.write { db in try write(db) }
                outcome.value = .success(())
            } catch {
                outcome.value = .failure(error)
            }
            done.fulfill()
        }
        XCTAssertEqual(SlowSave.shared.reached.wait(timeout: .now() + 10), .success)
        task.cancel()
        wait(for: [done], timeout: 10)
        if case .failure(let error) = outcome.value { return error }
        return nil
    }

    func testABatchSaveCancelledMidwayCommitsNothingAndLeavesNoIDs() throws {
        for round in 0..<Self.rounds {
            let queue = try makeQueue()
            let idsAfter = Box<[Int64?]>([])
            let error = try cancelMidway(queue) { db in
                var records = Self.items()
                defer { idsAfter.value = records.map(\.id) }
                try Item.save(db, &records)
            }
            XCTAssertTrue(error is CancellationError, "round \(round): \(String(describing: error))")
            XCTAssertEqual(idsAfter.value, Array(repeating: nil, count: 200), "round \(round)")
            XCTAssertEqual(try queue.read { db in try db.fetchOne(Int.self, sql: "SELECT count(*) FROM items") }, 0)
        }
        print("CancellationTests: \(Self.rounds) batch saves cancelled midway, each with 0 rows committed")
    }

    /// `Item.save(&records)` through the default store: the error it threw, if any, and the records' ids after.
    private struct SaveOutcome: Sendable {
        var error: String?
        var ids: [Int64?]
    }

    @Sendable private static func saveInTask() async -> SaveOutcome {
        var records = items()
        do {
            try await Item.save(&records)
            return SaveOutcome(error: nil, ids: records.map(\.id))
        } catch {
            return SaveOutcome(error: "\(error)", ids: records.map(\.id))
        }
    }

    func testTheDefaultStoresAsyncBatchSaveCancelledMidwayCommitsNothing() async throws {
        defer { RecordStore.reset() }
        for round in 0..<Self.rounds {
            let queue = try makeQueue()
            try RecordStore.use(queue)
            SlowSave.shared.arm()
            let task = Task.detached(operation: Self.saveInTask)
            let reached = await Task.detached { SlowSave.shared.reached.wait(timeout: .now() + 10) }.value
            XCTAssertEqual(reached, .success)
            task.cancel()
            let outcome = await task.value
            XCTAssertEqual(outcome.error, "CancellationError()", "round \(round)")
            XCTAssertEqual(outcome.ids, Array(repeating: nil, count: 200), "round \(round)")
            let rows = try await queue.read { db in try db.fetchOne(Int.self, sql: "SELECT count(*) FROM items") }
            XCTAssertEqual(rows, 0, "round \(round)")
        }
        print("CancellationTests: \(Self.rounds) default-store async batch saves cancelled midway, 0 rows committed")
    }

    func testEveryMultiRecordWriteCancelledMidwayRollsBackWhole() throws {
        var cases = 0
        for round in 0..<Self.rounds {
            let queue = try makeQueue()
            var saved = Self.items()
            try queue.write { db in try Item.save(db, &saved) }
            let frozen = saved
            let before = try queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM items ORDER BY id") }
            let writes: [(String, @Sendable (Database) throws -> Void)] = [
                ("delete", { db in try Item.delete(db, frozen) }),
                ("upsert", { db in
                    var records = frozen.map { Item(id: $0.id, parentId: nil, name: $0.name) } + Self.items()
                    try Item.upsert(db, &records)
                }),
                ("save(children:)", { db in
                    var parent = Item(id: nil, parentId: nil, name: "parent")
                    var children = Self.items()
                    try parent.save(db, children: &children)
                }),
                ("delete(with:)", { db in try frozen[0].delete(db, with: Array(frozen.dropFirst())) }),
            ]
            for (name, write) in writes {
                let error = try cancelMidway(queue, write)
                XCTAssertTrue(error is CancellationError, "\(name), round \(round): \(String(describing: error))")
                XCTAssertEqual(
                    try queue.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM items ORDER BY id") },
                    before, "\(name), round \(round)")
                cases += 1
            }
        }
        print("CancellationTests: \(cases) multi-record writes cancelled midway, each with 0 rows changed")
    }

    /// A `write` body of the caller's own statements cancelled between two of them goes on and commits both,
    /// as the Concurrency article says (SQLite's interrupt finds no statement running); with
    /// ``Database/checkCancellation()`` between them it throws `CancellationError` and commits nothing.
    func testAWriteBodyOfYourOwnStatementsCommitsUnlessItChecksCancellation() throws {
        var checked = 0
        for round in 0..<Self.rounds {
            for checks in [false, true] {
                let queue = try makeQueue()
                let reached = DispatchSemaphore(value: 0)
                let resume = DispatchSemaphore(value: 0)
                let outcome = Box<Result<Void, any Error>?>(nil)
                let done = expectation(description: "write returned")
                let task = Task {
                    do {
                        try await queue.write { db in
                            try db.execute(sql: "INSERT INTO items (name) VALUES ('first')")
                            reached.signal()
                            resume.wait()
                            if checks { try db.checkCancellation() }
                            try db.execute(sql: "INSERT INTO items (name) VALUES ('second')")
                        }
                        outcome.value = .success(())
                    } catch {
                        outcome.value = .failure(error)
                    }
                    done.fulfill()
                }
                XCTAssertEqual(reached.wait(timeout: .now() + 10), .success)
                task.cancel()
                resume.signal()
                wait(for: [done], timeout: 10)
                let names = try queue.read { db in
                    try db.fetchAll(String.self, sql: "SELECT name FROM items ORDER BY id")
                }
                if checks {
                    guard case .failure(let error) = outcome.value else {
                        XCTFail("round \(round): the checked write returned")
                        continue
                    }
                    XCTAssertTrue(error is CancellationError, "round \(round): \(error)")
                    XCTAssertEqual(names, [], "round \(round)")
                    checked += 1
                } else {
                    guard case .success = outcome.value else {
                        XCTFail("round \(round): \(String(describing: outcome.value))")
                        continue
                    }
                    XCTAssertEqual(names, ["first", "second"], "round \(round)")
                }
            }
        }
        print("CancellationTests: \(checked) write bodies of your own stopped by checkCancellation, 0 rows committed")
    }

    /// Starts `write` in a task while `holder` holds the write lock, cancels it once it waits in its busy
    /// timeout, and checks that it threw `CancellationError` within 0.5 s of the cancel, the lock still held;
    /// then releases the lock and checks with plain SQL that no row was written.
    private func cancelWhileWaitingForTheLock(
        round: Int, holder: Database, _ write: @escaping @Sendable () async throws -> Void
    ) async throws {
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let task = Task { try await write() }
        try await Task.sleep(nanoseconds: 60_000_000)  // the write now waits in its 5-second busy timeout
        let cancelled = Date()
        task.cancel()
        do {
            try await task.value
            XCTFail("round \(round): the cancelled write returned")
        } catch {
            XCTAssertTrue(error is CancellationError, "round \(round): \(error)")
        }
        let elapsed = Date().timeIntervalSince(cancelled)
        XCTAssertLessThan(elapsed, 0.5, "round \(round): returned \(elapsed) s after the cancel")
        try holder.execute(sql: "COMMIT")
        XCTAssertEqual(try holder.fetchOne(Int.self, sql: "SELECT count(*) FROM items"), 0, "round \(round)")
    }

    func testAWriteCancelledWhileWaitingForAnotherConnectionsLockStopsWaitingAndNeverStarts() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("locked.sqlite")
        let queue = try DatabaseQueue(path: path, options: .init(busyTimeout: 5))
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, parentId INTEGER, name TEXT NOT NULL)")
        }
        let holder = try Database(path: path)
        for round in 0..<Self.rounds {
            // BEGIN IMMEDIATE waits for the lock.
            try await cancelWhileWaitingForTheLock(round: round, holder: holder) {
                try await queue.write { db in try db.execute(sql: "INSERT INTO items (name) VALUES ('late')") }
            }
            // An INSERT outside a transaction waits for it too.
            try await cancelWhileWaitingForTheLock(round: round, holder: holder) {
                try await queue.writeWithoutTransaction { db in
                    try db.execute(sql: "INSERT INTO items (name) VALUES ('late')")
                }
            }
            // A batch save waits at its BEGIN.
            try await cancelWhileWaitingForTheLock(round: round, holder: holder) {
                try await queue.write { db in
                    var records = Self.items(20)
                    try Item.save(db, &records)
                }
            }
        }
        print("CancellationTests: \(3 * Self.rounds) queue writes cancelled while waiting for a lock, 0 rows committed")
        // The queue goes on once the lock is free.
        try await queue.write { db in try db.execute(sql: "INSERT INTO items (name) VALUES ('after')") }
        XCTAssertEqual(try holder.fetchAll(String.self, sql: "SELECT name FROM items"), ["after"])
    }

    func testAPoolWriteCancelledWhileWaitingForAnotherConnectionsLockStopsWaiting() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("pool.sqlite")
        let pool = try DatabasePool(path: path, options: .init(busyTimeout: 5))
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, parentId INTEGER, name TEXT NOT NULL)")
        }
        let holder = try Database(path: path)
        for round in 0..<Self.rounds {
            try await cancelWhileWaitingForTheLock(round: round, holder: holder) {
                try await pool.write { db in try db.execute(sql: "INSERT INTO items (name) VALUES ('late')") }
            }
        }
        print("CancellationTests: \(Self.rounds) pool writes cancelled while waiting for a lock, 0 rows committed")
    }

    /// Runs a call behind a blocker, cancels it, and checks it returned `CancellationError` within 0.25 s
    /// and never ran its body, then lets the blocker go.
    private func cancelWhileWaiting(
        round: Int, blocker: @escaping @Sendable (DispatchSemaphore) async throws -> Void,
        waiting: @escaping @Sendable (Box<Bool>) async throws -> Void
    ) async throws {
        let release = DispatchSemaphore(value: 0)
        let blocking = Task { try await blocker(release) }
        try await Task.sleep(nanoseconds: 20_000_000)
        let ran = Box(false)
        let task = Task { try await waiting(ran) }
        try await Task.sleep(nanoseconds: 20_000_000)
        let cancelled = Date()
        task.cancel()
        do {
            try await task.value
            XCTFail("round \(round): the waiting call ran")
        } catch {
            XCTAssertTrue(error is CancellationError, "round \(round): \(error)")
        }
        let elapsed = Date().timeIntervalSince(cancelled)
        XCTAssertLessThan(elapsed, 0.25, "round \(round): returned \(elapsed) s after the cancel")
        release.signal()
        try await blocking.value
        XCTAssertFalse(ran.value, "round \(round): the body ran")
    }

    func testAPoolReadWaitingForItsOnlyReaderReturnsAtTheCancel() async throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("pool.sqlite"), options: .init(maximumReaderCount: 1))
        for round in 0..<Self.rounds {
            try await cancelWhileWaiting(
                round: round,
                blocker: { release in
                    try await pool.read { _ in release.wait() }
                },
                waiting: { ran in
                    try await pool.read { _ in ran.value = true }
                })
        }
        print("CancellationTests: \(Self.rounds) pool reads cancelled while waiting for the only reader, no body run")
    }

    func testAWriteQueuedBehindALongWriteReturnsAtTheCancel() async throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("pool.sqlite"))
        try await pool.write { db in try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)") }
        let queue = try makeQueue()
        for round in 0..<Self.rounds {
            try await cancelWhileWaiting(
                round: round,
                blocker: { release in try await pool.write { _ in release.wait() } },
                waiting: { ran in
                    try await pool.write { db in
                        ran.value = true
                        try db.execute(sql: "INSERT INTO items (name) VALUES ('queued')")
                    }
                })
            try await cancelWhileWaiting(
                round: round,
                blocker: { release in try await queue.write { _ in release.wait() } },
                waiting: { ran in
                    try await queue.write { db in
                        ran.value = true
                        try db.execute(sql: "INSERT INTO items (name) VALUES ('queued')")
                    }
                })
        }
        let poolRows = try await pool.read { db in try db.fetchOne(Int.self, sql: "SELECT count(*) FROM items") }
        let queueRows = try await queue.read { db in try db.fetchOne(Int.self, sql: "SELECT count(*) FROM items") }
        XCTAssertEqual(poolRows, 0)
        XCTAssertEqual(queueRows, 0)
        print("CancellationTests: \(2 * Self.rounds) writes cancelled behind a long write (pool and queue), 0 rows")
    }
}
