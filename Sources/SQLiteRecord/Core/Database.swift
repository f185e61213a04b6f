import CSQLiteRecord
import Foundation

/// One SQLite connection: a database file, or a private in-memory database.
///
/// Every connection is opened with extended result codes, a busy timeout of ``defaultBusyTimeout``
/// milliseconds, and `PRAGMA foreign_keys = ON`. A `Database` is not thread-safe: use it on one thread at a
/// time, or through a ``DatabaseQueue``, which serializes access. The connection closes when the object is
/// released. See <https://www.sqlite.org/c3ref/sqlite3.html>.
public final class Database {
    /// How long, in milliseconds, a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY` (`sqlite3_busy_timeout`).
    public static let defaultBusyTimeout: Int32 = 5_000

    /// The `sqlite3` connection handle.
    let handle: OpaquePointer
    /// The file path given when opening, or `":memory:"`.
    public let path: String

    /// Statements prepared once and reused, keyed by SQL text. The SQL a record operation needs is the same
    /// text every time, so a lookup replaces a `sqlite3_prepare_v3` call.
    private var statementCache: [String: Statement] = [:]
    private static let statementCacheLimit = 128

    /// Opens (creating when needed) the database file at `path`.
    /// - Parameter path: a file path; `":memory:"` opens a private in-memory database.
    /// - Throws: ``DatabaseError`` when SQLite cannot open the file (`SQLITE_CANTOPEN`) or the file is not a
    ///   database (`SQLITE_NOTADB`). The corresponding SQLite call is `sqlite3_open_v2`.
    public init(path: String) throws {
        var handle: OpaquePointer?
        // The connection is only ever used by one thread at a time (DatabaseQueue serializes), so SQLite's
        // own per-connection mutex is not needed.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError(code, connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw DatabaseError(
                resultCode: error.resultCode, message: "cannot open database at \(path): \(error.message)")
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.defaultBusyTimeout)
        do {
            try execute(sql: "PRAGMA foreign_keys = ON")
            // Reading the schema now makes a file that is not a database fail here, at open, with
            // SQLITE_NOTADB, rather than at the first query.
            try execute(sql: "SELECT count(*) FROM sqlite_master")
        } catch let error as DatabaseError {
            statementCache.removeAll()
            throw DatabaseError(
                resultCode: error.resultCode, message: "cannot open database at \(path): \(error.message)",
                sql: error.sql)
        }
    }

    /// Opens a private, empty in-memory database, gone when the object is released.
    /// - Throws: ``DatabaseError`` when SQLite cannot allocate it.
    public convenience init() throws {
        try self.init(path: ":memory:")
    }

    deinit {
        statementCache.removeAll()
        // close_v2 defers the close until statements still held elsewhere are finalized.
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, which may hold several statements separated by semicolons, binding `arguments` to their
    /// parameters in order: each statement takes as many values as it has parameters.
    /// - Throws: ``DatabaseError`` for the first statement that fails (statements before it have run; wrap
    ///   the call in ``transaction(_:_:)`` to make it all or nothing), or with `SQLITE_RANGE` before a
    ///   statement runs when too few arguments remain for its parameters, or after the last one when
    ///   arguments are left over.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        var remaining = arguments.values[...]
        try sql.withCString { start in
            var text = start
            while text.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(handle, text, -1, 0, &prepared, &tail)
                let statementText: String
                if let tail {
                    let bytes = UnsafeRawBufferPointer(start: text, count: tail - text).bindMemory(to: UInt8.self)
                    statementText = String(decoding: bytes, as: UTF8.self)
                } else {
                    statementText = String(cString: text)
                }
                guard code == SQLITE_OK else {
                    sqlite3_finalize(prepared)
                    throw DatabaseError(code, connection: handle, sql: statementText)
                }
                guard let tail else { break }
                text = tail
                guard let prepared else { continue }  // only whitespace or comments
                let statement = Statement(handle: prepared, connection: handle, sql: statementText)
                let count = statement.parameterCount
                guard remaining.count >= count else {
                    throw DatabaseError(
                        resultCode: .range,
                        message: "the SQL has more parameters than the \(arguments.values.count) argument(s) given",
                        sql: statementText)
                }
                if remaining.count > count && !holdsAnotherStatement(tail, connection: handle) {
                    throw DatabaseError(
                        resultCode: .range,
                        message: "\(arguments.values.count) argument(s) were given but the SQL has "
                            + "\(arguments.values.count - remaining.count + count) parameter(s)",
                        sql: sql)
                }
                try statement.bind(StatementArguments(Array(remaining.prefix(count))))
                remaining = remaining.dropFirst(count)
                while try statement.step() {}
            }
        }
        guard remaining.isEmpty else {
            throw DatabaseError(
                resultCode: .range,
                message: "\(arguments.values.count) argument(s) were given but the SQL has "
                    + "\(arguments.values.count - remaining.count) parameter(s)",
                sql: sql)
        }
    }

    /// Prepares `sql`, one statement, for the caller to keep; it is not cached.
    /// - Throws: ``DatabaseError`` when SQLite cannot prepare it, or when the text holds no statement or more
    ///   than one (`SQLITE_MISUSE`). The corresponding SQLite call is `sqlite3_prepare_v3`.
    public func makeStatement(sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql)
    }

    /// The statement for `sql` from this connection's cache, prepared on first use.
    ///
    /// A statement still running (a caller iterating its rows asks for the same SQL again) is not shared:
    /// the caller then gets a fresh statement. The cache is bounded; when full it starts over.
    func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql], !statement.isBusy {
            return statement
        }
        let statement = try Statement(connection: handle, sql: sql)
        if statementCache[sql] == nil {
            if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll(keepingCapacity: true) }
            statementCache[sql] = statement
        }
        return statement
    }

    /// The rowid of the most recent successful INSERT on this connection (`sqlite3_last_insert_rowid`).
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the most recent INSERT, UPDATE or DELETE changed (`sqlite3_changes64`), not
    /// counting changes made by triggers or foreign key actions.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }

    /// True between BEGIN and COMMIT or ROLLBACK, that is when the connection is not in autocommit mode
    /// (`sqlite3_get_autocommit`).
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
