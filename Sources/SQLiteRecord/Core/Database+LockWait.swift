import Dispatch
import Foundation

extension Database {
    /// Runs `body`, a statement of the open that runs outside any transaction (the first schema read, the
    /// journal mode change), again while it fails with `SQLITE_BUSY`, until the busy timeout has passed
    /// since the first try; then throws the last error with the measured wait.
    ///
    /// SQLite's busy handler (the library's, see ``BusyWait``) is not called where waiting could deadlock:
    /// `PRAGMA journal_mode = wal` holds a read lock while it asks for the write lock, so while another
    /// connection holds a write transaction it fails at once, whatever the timeout. Outside a transaction a
    /// statement that failed with `SQLITE_BUSY` holds no lock and may run again, as the documentation of
    /// `sqlite3_busy_handler` advises. The handler's own waits inside `body` count from the first try, so
    /// the whole open waits for the busy timeout once, not once per try. See
    /// <https://www.sqlite.org/c3ref/busy_handler.html> and <https://www.sqlite.org/rescode.html#busy>.
    /// - Throws: what `body` throws; `SQLITE_BUSY` after the busy timeout, with a message that gives how long
    ///   this connection waited.
    func retryingWhileLocked<T>(_ body: () throws -> T) throws -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let timeout = UInt64(max(busyWait.timeoutMilliseconds, 0)) * 1_000_000
        var pause: UInt32 = 1_000  // microseconds, doubled up to 50 ms: the busy handler's range
        while true {
            do {
                return try busyWait.countingFrom(start) { try body() }
            } catch let error as DatabaseError where error.resultCode.primary == .busy {
                let waited = DispatchTime.now().uptimeNanoseconds - start
                guard waited < timeout else {
                    let message =
                        "database is locked"
                        + BusyWait.timedOutMessage(
                            waited: Double(waited) / 1e9, timeoutMilliseconds: busyWait.timeoutMilliseconds)
                    throw error.replacingMessage(message)
                }
                usleep(UInt32(min(UInt64(pause), (timeout - waited) / 1_000 + 1)))
                pause = min(pause * 2, 50_000)
            }
        }
    }
}
