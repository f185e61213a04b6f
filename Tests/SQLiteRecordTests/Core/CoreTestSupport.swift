import Foundation
import SQLiteRecord
import XCTest

/// A folder of its own under the temporary directory for one test's database files, removed with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sqliterecord-core-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A flag or counter set on one thread and read on another; NSLock guards `count`.
final class SharedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}

/// Suspends until `condition` holds, checking every 5 ms; fails the test after `timeout` seconds.
func waitUntil(
    timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else {
            XCTFail("condition not met within \(timeout) s", file: file, line: line)
            return
        }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}

/// A recursive CTE that counts to a billion: minutes of work, for tests that interrupt it.
let countToABillionSQL = """
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
    SELECT count(*) FROM c
    """

/// Makes a database file at `path` with a table `t(id, text)` of `rows` rows of 100 characters each.
func makeDatabaseFile(at path: String, rows: Int) throws {
    let db = try Database(path: path)
    try db.execute(
        sql: """
            CREATE TABLE t(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)
            INSERT INTO t(id, text) SELECT x, printf('%0100d', x) FROM c;
            """,
        arguments: [rows])
}
