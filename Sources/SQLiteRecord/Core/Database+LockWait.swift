import Dispatch
import Foundation

extension Database {
    /// Runs `body`, a statement of the open that runs outside any transaction (the first schema read, the
    /// journal mode change), again while it fails with `SQLITE_BUSY`, until the busy timeout has passed
    /// since the first try; then throws the last error with the measured wait.
    ///
    /// SQLite's busy handler, which `sqlite3_busy_timeout` installs, is not called where waiting could
    /// deadlock: `PRAGMA journal_mode = wal` holds a read lock while it asks for the write lock, so while
    /// another connection holds a write transaction it fails at once, whatever the timeout. Outside a
    /// transaction a statement that failed with `SQLITE_BUSY` holds no lock and may run again, as the
    /// documentation of `sqlite3_busy_handler` advises. See <https://www.sqlite.org/c3ref/busy_handler.html>
    /// and <https://www.sqlite.org/rescode.html#busy>.
    /// - Throws: what `body` throws; `SQLITE_BUSY` after the busy timeout, with a message that gives how long
    ///   this connection waited.
    func retryingWhileLocked<T>(timeout: TimeInterval, _ body: () throws -> T) throws -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        var pause: UInt32 = 1_000  // microseconds, doubled up to 50 ms: SQLite's own busy handler's range
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode.primary == .busy {
                let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let remaining = timeout - waited
                guard remaining > 0 else { throw error.replacingMessage(Self.lockedMessage(waited: waited)) }
                usleep(min(pause, UInt32(remaining * 1e6) + 1))
                pause = min(pause * 2, 50_000)
            }
        }
    }

    /// "database is locked (this connection waited 0.31 seconds, its busy timeout, ...)": only what happened.
    static func lockedMessage(waited seconds: TimeInterval) -> String {
        "database is locked (this connection waited \(String(format: "%.2f", seconds)) seconds, its whole busy "
            + "timeout, and another connection still held a lock on the file; raise Database.Options.busyTimeout, "
            + "or keep other connections' write transactions short)"
    }
}
