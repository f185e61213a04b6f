import Dispatch
import Foundation
import XCTest

@testable import SQLiteRecord

/// `Database.Options.prepareDatabase(_:)`: one setup run on every connection, the writer's and each
/// reader's, before the connection serves anything; a failing setup fails the open with its own error.
final class DatabaseSetupTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    /// Options whose setup registers `shout(text)` (uppercased) and the collation `reversed` (descending
    /// order), and counts the connections it set up.
    private func optionsRegisteringFunctions(counting counter: SharedCounter, readers: Int) -> Database.Options {
        var options = Database.Options(maximumReaderCount: readers)
        options.prepareDatabase { db in
            counter.increment()
            try db.createFunction("shout", argumentCount: 1, isDeterministic: true) { arguments in
                guard case .text(let text) = arguments[0] else { return nil }
                return text.uppercased()
            }
            try db.createCollation("reversed") { left, right in right.compare(left) }
        }
        return options
    }

    func testAFunctionAndACollationFromTheSetupWorkOnEveryReaderOfAPool() throws {
        let counter = SharedCounter()
        let pool = try DatabasePool(
            path: folder.path("setup.sqlite"), options: optionsRegisteringFunctions(counting: counter, readers: 3))
        XCTAssertEqual(counter.value, 1, "the writer is set up at open")
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE names(name TEXT); INSERT INTO names VALUES ('ada'), ('bo'), ('cy')")
            XCTAssertEqual(try db.scalar(String.self, sql: "SELECT shout('writer')"), "WRITER")
        }
        // Three reads at once, each on a thread of its own, holding its reader until all three are inside:
        // three connections. (concurrentPerform would run no more at once than there are cores.)
        let inside = DispatchGroup()
        let done = DispatchGroup()
        for _ in 0..<3 { inside.enter() }
        let results = ResultList()
        for _ in 0..<3 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                do {
                    let names = try pool.read { db -> [String] in
                        inside.leave()
                        _ = inside.wait(timeout: .now() + 10)
                        return try db.fetchAll(
                            String.self, sql: "SELECT shout(name) FROM names ORDER BY name COLLATE reversed")
                    }
                    results.append(names.joined(separator: ","))
                } catch {
                    inside.leave()
                    results.append("\(error)")
                }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(results.values, ["CY,BO,ADA", "CY,BO,ADA", "CY,BO,ADA"])
        XCTAssertEqual(pool.readers.openedCount, 3)
        XCTAssertEqual(counter.value, 4, "the writer and each of the three readers, once each")
        // A reader opened later, after the others closed, is set up too.
        try pool.close()
        let reopened = try DatabasePool(
            path: folder.path("setup.sqlite"), options: optionsRegisteringFunctions(counting: counter, readers: 1))
        XCTAssertEqual(try reopened.read { db in try db.scalar(String.self, sql: "SELECT shout('later')") }, "LATER")
    }

    func testAnObservationOnAPoolReadsWithTheSetupsFunction() async throws {
        let counter = SharedCounter()
        let pool = try DatabasePool(
            path: folder.path("observed.sqlite"), options: optionsRegisteringFunctions(counting: counter, readers: 2))
        try await pool.write { db in try db.execute(sql: "CREATE TABLE names(name TEXT)") }
        let observation = ValueObservation.tracking { db in
            try db.fetchAll(String.self, sql: "SELECT shout(name) FROM names ORDER BY name COLLATE reversed")
        }
        var iterator = observation.values(in: pool).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first, [])
        try await pool.write { db in try db.execute(sql: "INSERT INTO names VALUES ('ada'), ('bo')") }
        let second = try await iterator.next()
        XCTAssertEqual(second, ["BO", "ADA"])
    }

    func testAQueueAndAConnectionRunTheSetupsInOrderBeforeTheirFirstStatement() throws {
        let order = ResultList()
        var options = Database.Options()
        options.prepareDatabase { db in
            // The connection's own settings come first: foreign keys are on already.
            order.append("first foreign_keys=\(try db.scalar(Int.self, sql: "PRAGMA foreign_keys") ?? -1)")
        }
        options.prepareDatabase { _ in order.append("second") }
        let queue = try DatabaseQueue(path: folder.path("queue.sqlite"), options: options)
        XCTAssertEqual(order.values, ["first foreign_keys=1", "second"])
        try queue.read { _ in order.append("read") }
        XCTAssertEqual(order.values, ["first foreign_keys=1", "second", "read"])
        _ = try Database(path: ":memory:", options: options)
        XCTAssertEqual(order.values.count, 5)
    }

    func testAFailingSetupFailsTheOpenWithItsOwnError() throws {
        struct KeyRefused: Error, Equatable { let reason: String }
        var options = Database.Options()
        options.prepareDatabase { _ in throw KeyRefused(reason: "no key") }
        XCTAssertThrowsError(try DatabaseQueue(path: folder.path("refused.sqlite"), options: options)) { error in
            XCTAssertEqual(error as? KeyRefused, KeyRefused(reason: "no key"))
        }
        XCTAssertThrowsError(try DatabasePool(path: folder.path("refused.sqlite"), options: options)) { error in
            XCTAssertEqual(error as? KeyRefused, KeyRefused(reason: "no key"))
        }
        // A DatabaseError from the setup is the open's error as it was thrown, message unchanged.
        var failing = Database.Options()
        failing.prepareDatabase { db in try db.execute(sql: "PRAGMA no_such_thing = 1; SELECT nope()") }
        XCTAssertThrowsError(try Database(path: ":memory:", options: failing)) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such function: nope")
        }
    }

    func testASetupThatFailsOnReadersFailsTheReadThatOpensOneAndThePoolStillWrites() throws {
        struct ReadersRefused: Error, Equatable {}
        var options = Database.Options()
        options.prepareDatabase { db in
            if db.isReadOnly { throw ReadersRefused() }
        }
        let pool = try DatabasePool(path: folder.path("readers.sqlite"), options: options)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
        XCTAssertThrowsError(try pool.read { _ in () }) { error in
            XCTAssertEqual(error as? ReadersRefused, ReadersRefused())
        }
        XCTAssertEqual(pool.readers.openedCount, 0, "the reader whose setup failed is not kept")
        XCTAssertEqual(try pool.write { db in try db.scalar(Int.self, sql: "SELECT x FROM t") }, 1)
    }

    func testOptionsWithTheSameSetupAreEqualAndOthersAreNot() {
        var options = Database.Options()
        XCTAssertEqual(options, Database.Options())
        options.prepareDatabase { _ in }
        XCTAssertNotEqual(options, Database.Options())
        let copy = options
        XCTAssertEqual(copy, options, "a copy holds the same closure")
        var other = Database.Options()
        other.prepareDatabase { _ in }
        XCTAssertNotEqual(other, options, "two closures are two setups")
    }
}

/// Strings appended from several threads; NSLock guards `list`.
final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }

    func append(_ value: String) {
        lock.lock()
        list.append(value)
        lock.unlock()
    }
}
