import CSQLiteRecord

/// The baseline's connection: a `sqlite3` handle opened and set up as the library opens its own (no
/// per-connection mutex, a 5-second busy timeout, foreign keys on), plus the benchmark's pragmas.
///
/// Only what a careful person writes around the C API by hand: open, run a script, prepare. The workloads
/// call `sqlite3_bind_*`, `sqlite3_step` and `sqlite3_column_*` on the handles directly.
final class BaselineDatabase {
    let handle: OpaquePointer

    /// Opens (creating when needed) the database file at `path`. The corresponding SQLite call is
    /// `sqlite3_open_v2`.
    /// - Throws: ``BenchmarkError`` with SQLite's message when the file cannot be opened or set up.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "code \(code)"
            sqlite3_close_v2(handle)
            throw BenchmarkError("Baseline: cannot open database at \(path): \(message)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, BenchSchema.busyTimeout)
        try execute(BenchSchema.libraryConnectionPragmas)
        try execute(BenchSchema.pragmas)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs a script of one or more statements (`sqlite3_exec`).
    /// - Throws: ``BenchmarkError`` with SQLite's message and the SQL.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "code \(code)"
            sqlite3_free(message)
            throw BenchmarkError("Baseline: \(text), in \(sql)")
        }
    }

    /// Runs `body` inside one read transaction (`BEGIN` ... `COMMIT`), as a hand-written read of many rows
    /// or many lookups is written: the library's `read` is one transaction too, so neither side pays a
    /// transaction per statement. Rolled back when `body` throws.
    /// - Throws: what `body` throws, or ``BenchmarkError`` from BEGIN or COMMIT.
    func read<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Prepares one statement (`sqlite3_prepare_v3`).
    /// - Throws: ``BenchmarkError`` with SQLite's message and the SQL.
    func prepare(_ sql: String) throws -> BaselineStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(code, sql)
        }
        return BaselineStatement(handle: statement)
    }

    /// The error for a failed call, with SQLite's message for the connection.
    func error(_ code: Int32, _ sql: String) -> BenchmarkError {
        BenchmarkError("Baseline: \(String(cString: sqlite3_errmsg(handle))) (code \(code)), in \(sql)")
    }
}

/// A prepared statement, finalized when released.
final class BaselineStatement {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }
}
