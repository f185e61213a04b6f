import CSQLiteRecord
import Foundation

/// A prepared SQL statement: bind arguments, step through result rows, read their columns.
///
/// Made by ``Database/makeStatement(sql:)`` (yours to keep) or taken from the connection's cache by the
/// library. Not thread-safe: use it only where its database is used. Column indexes start at 0, parameter
/// indexes at 1, as in SQLite's C API. See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
    /// The `sqlite3_stmt` handle, finalized when the statement is released.
    let handle: OpaquePointer
    /// The connection. `sqlite3_close_v2` keeps it alive until every statement is finalized, so a statement
    /// that outlives its `Database` stays valid.
    let connection: OpaquePointer
    /// The SQL text this statement was prepared from.
    public let sql: String
    /// A slot for the Coding layer to keep what it derives once per statement (the column lookup by coding
    /// key, the context a row-by-row decoder reuses). Core does not read it; it lives and dies with the
    /// prepared statement.
    var codingCache: AnyObject?
    /// The arguments last bound with ``bind(_:)``, for the errors that running the statement throws.
    var boundArguments: StatementArguments?
    /// Whether errors show the argument values in their description (``Database/Options/showsArgumentsInErrors``).
    var showsArgumentsInErrors = false
    /// The connection's transaction guard, which words the errors it causes (see ``TransactionGuard``).
    var transactionGuard: TransactionGuard?
    /// True while the library or a ``RowCursor`` holds this cached statement between binding and reset, so
    /// that the cache hands out a fresh statement instead of rebinding this one under its user.
    var isCheckedOut = false
    /// The parameter names, index 0 for parameter 1, read once when named arguments first meet the statement.
    var parameterNamesCache: [String?]?
    /// True for a statement that changes the schema, rolls back or writes rows (as the connection's
    /// authorizer saw it prepared): running it tells ``schemaCache`` and the change tracker. Checked on every step, so a plain flag.
    private(set) var announcesEffects = false
    private var schemaEffect = SchemaCache.SchemaEffect.none
    /// The schema cache of the connection, for such a statement; weak, as a statement may outlive its
    /// `Database`.
    private weak var schemaCache: SchemaCache?

    /// The tables (lowercased) the statement reads, as the authorizer saw it prepared: what an observed read
    /// that uses it depends on.
    private(set) var readTables: [String] = []
    /// The tables (lowercased) the statement inserts into, updates or deletes from: what running it tells
    /// the connection's ``ChangeTracker``, weak as the schema cache.
    private var writtenTables: [String] = []
    private weak var changeTracker: ChangeTracker?
    /// The tracker's flag, held strongly: the tracker is reached only while observers listen.
    private var trackerListening: ChangeTracker.Listening?

    /// Marks the statement as having `effect` on the schema `cache` holds.
    func noteSchemaEffect(_ effect: SchemaCache.SchemaEffect, on cache: SchemaCache) {
        guard effect != .none else { return }
        schemaEffect = effect
        schemaCache = cache
        announcesEffects = true
    }

    /// Records the tables the statement reads and writes, which `tracker` hears of when it runs.
    func noteAccess(reads: Set<String>, writes: Set<String>, on tracker: ChangeTracker) {
        if !reads.isEmpty { readTables = Array(reads) }
        guard !writes.isEmpty || schemaEffect == .changesSchema else { return }
        writtenTables = Array(writes)
        changeTracker = tracker
        trackerListening = tracker.listening
        announcesEffects = true
    }

    /// Tells the schema cache and the change tracker that the statement is about to run. Not inlined: few
    /// statements need it.
    @inline(never)
    private func announceEffects() {
        // The weak references are loaded only when there is something to tell: a statement that writes rows
        // runs thousands of times in a bulk write, most often with no observer and no schema effect.
        if schemaEffect != .none { schemaCache?.statementWillRun(schemaEffect) }
        if let trackerListening, trackerListening.isOn {
            changeTracker?.statementWillWrite(writtenTables, changesSchema: schemaEffect == .changesSchema)
        }
    }

    /// Prepares `sql`, which must hold exactly one statement. The corresponding SQLite call is
    /// `sqlite3_prepare_v3`.
    /// - Throws: ``DatabaseError`` when SQLite cannot prepare it (a syntax error, a missing table), or when
    ///   the text holds no statement, more than one, or a NUL character (code `SQLITE_MISUSE`).
    init(connection: OpaquePointer, sql: String) throws {
        try Self.checkHoldsNoNUL(sql)
        var handle: OpaquePointer?
        var holdsMore = false
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, 0, &handle, &tail)
            if code == SQLITE_OK, let tail { holdsMore = holdsAnotherStatement(tail, connection: connection) }
            return code
        }
        if code != SQLITE_OK {
            sqlite3_finalize(handle)
            throw DatabaseError(code, connection: connection, sql: sql)
        }
        guard let handle else {
            throw DatabaseError(resultCode: .misuse, message: "the SQL text holds no statement", sql: sql)
        }
        guard !holdsMore else {
            sqlite3_finalize(handle)
            throw DatabaseError(
                resultCode: .misuse,
                message: "the SQL text holds more than one statement; use Database.execute(sql:) for scripts",
                sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    /// Throws when `sql` holds a NUL character: SQLite reads SQL text only up to its first NUL, so
    /// `DELETE FROM t\0 WHERE id = 1` would run as `DELETE FROM t`.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISUSE`, naming the NUL's byte offset.
    static func checkHoldsNoNUL(_ sql: String) throws {
        guard let offset = sql.utf8.firstIndex(of: 0).map({ sql.utf8.distance(from: sql.utf8.startIndex, to: $0) })
        else { return }
        throw DatabaseError(
            resultCode: .misuse,
            message: "the SQL text holds a NUL character at byte \(offset); SQLite would stop reading there and run "
                + "only the text before it. Bind values that hold NUL as arguments",
            sql: sql)
    }

    /// Takes ownership of a statement already prepared on `connection`.
    init(handle: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// The number of parameters in the SQL (`sqlite3_bind_parameter_count`).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// How many times SQLite has prepared the statement again by itself, as it does at the next step after
    /// the schema changed (`sqlite3_stmt_status` with `SQLITE_STMTSTATUS_REPREPARE`): its columns may then
    /// have other names, in another order, under the same count. See
    /// <https://www.sqlite.org/c3ref/c_stmtstatus_counter.html>.
    var reprepareCount: Int32 { sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) }

    /// How many runs of the statement have ended: a step that returned done or threw, a reset. SQLite
    /// prepares a statement again only in the step that starts a run (see ``reprepareCount``), so while this
    /// count stays the same, a ``reprepareCount`` read on a row of the current run stays true: the Coding
    /// layer compares this count, a load, where it would otherwise call into SQLite on every row. Every
    /// `sqlite3_step` and `sqlite3_reset` of the library is in this file and counts here.
    private(set) var endedRuns: UInt = 0

    /// The number of columns in each result row (`sqlite3_column_count`); 0 for statements that return none.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index` as SQLite reports it: the `AS` alias, or the column name.
    public func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// The names of all result columns, in order.
    public var columnNames: [String] { (0..<columnCount).map { columnName(at: $0) } }

    /// Runs the statement to its next row. The corresponding SQLite call is `sqlite3_step`.
    /// - Returns: true when a row is available to read, false when the statement is done.
    /// - Throws: ``DatabaseError`` with SQLite's code and message, the SQL and the bound arguments; the
    ///   statement is reset first, so it is never left half-run and can be bound and run again.
    ///   `SQLITE_INTERRUPT` when ``DatabaseQueue/interrupt()`` or a cancelled task interrupted it.
    @discardableResult
    public func step() throws -> Bool {
        if announcesEffects { announceEffects() }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        endedRuns &+= 1
        if code == SQLITE_DONE { return false }
        let error = makeError(code)
        sqlite3_reset(handle)
        throw error
    }

    /// Runs a statement whose parameters the caller bound one by one (with the typed binds) to its next row,
    /// as ``step()`` does.
    /// - Parameter arguments: the values that were bound, asked for only when an error is thrown, so the
    ///   error carries them as a statement bound with ``bind(_:)`` does.
    /// - Returns: true when a row is available to read, false when the statement is done.
    /// - Throws: ``DatabaseError`` as ``step()`` does.
    func step(boundArguments arguments: () -> StatementArguments?) throws -> Bool {
        if announcesEffects { announceEffects() }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        endedRuns &+= 1
        if code == SQLITE_DONE { return false }
        boundArguments = arguments()
        let error = makeError(code)
        boundArguments = nil
        sqlite3_reset(handle)
        throw error
    }

    /// Runs a statement whose parameters the caller bound one by one (with the typed binds) to its end, and
    /// resets it, keeping the bindings until the next use overwrites them.
    /// - Parameter arguments: the values that were bound, asked for only when an error is thrown, so the
    ///   error carries them as a statement bound with ``bind(_:)`` does.
    /// - Throws: ``DatabaseError`` as ``step()`` does.
    func runToEnd(boundArguments arguments: () -> StatementArguments?) throws {
        while true {
            if announcesEffects { announceEffects() }
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            if code == SQLITE_ROW { continue }
            boundArguments = arguments()
            let error = makeError(code)
            boundArguments = nil
            endedRuns &+= 1
            sqlite3_reset(handle)
            throw error
        }
        endedRuns &+= 1
        sqlite3_reset(handle)
    }

    /// Resets the statement so it can run again, keeping its bindings. `sqlite3_reset`'s result repeats the
    /// last step's error, which ``step()`` already threw, so it is not checked here.
    /// See <https://www.sqlite.org/c3ref/reset.html>.
    public func reset() {
        endedRuns &+= 1
        sqlite3_reset(handle)
    }

    /// Resets the statement and sets every parameter back to NULL (`sqlite3_clear_bindings`), releasing
    /// bound text and blobs. The library does this when it is done with a cached statement.
    public func resetAndClearBindings() {
        endedRuns &+= 1
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        boundArguments = nil
    }

    /// True while the statement has stepped but not finished or been reset (`sqlite3_stmt_busy`).
    /// See <https://www.sqlite.org/c3ref/stmt_busy.html>.
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// The error for a failed result `code` from this statement, with its SQL and bound arguments.
    func makeError(_ code: Int32) -> DatabaseError {
        let error = DatabaseError(
            code, connection: connection, sql: sql, arguments: boundArguments,
            includesArgumentsInDescription: showsArgumentsInErrors)
        guard let explanation = transactionGuard?.explanation(for: error.resultCode) else { return error }
        return error.replacingMessage(explanation)
    }

    /// A library-detected error about this statement, with its SQL.
    func makeError(_ resultCode: ResultCode, _ message: String, arguments: StatementArguments?) -> DatabaseError {
        DatabaseError(
            resultCode: resultCode, message: message, sql: sql, arguments: arguments,
            includesArgumentsInDescription: showsArgumentsInErrors)
    }

    /// The current row, read without retaining the statement (see ``StatementRow``).
    var row: StatementRow { StatementRow(handle: handle) }

    /// The storage class of column `index` in the current row (`sqlite3_column_type`): one of
    /// `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`.
    public func columnType(at index: Int32) -> Int32 { row.columnType(at: index) }

    /// True when column `index` of the current row is NULL.
    public func isNull(at index: Int32) -> Bool { row.isNull(at: index) }

    /// Column `index` of the current row as an integer (`sqlite3_column_int64`); SQLite converts other
    /// storage classes by its own rules, so check ``columnType(at:)`` first when that matters.
    public func int64(at index: Int32) -> Int64 { row.int64(at: index) }

    /// Column `index` of the current row as a double (`sqlite3_column_double`).
    public func double(at index: Int32) -> Double { row.double(at: index) }

    /// Column `index` of the current row as text (`sqlite3_column_text`); NULL reads as "", and bytes that
    /// are not valid UTF-8 are replaced with U+FFFD (``validatedString(at:)`` refuses them instead).
    public func string(at index: Int32) -> String { row.string(at: index) }

    /// Column `index` of the current row as text when its bytes are valid UTF-8; nil when they are not
    /// (SQLite stores whatever bytes it is given as TEXT, `CAST(x'FF' AS TEXT)` included), where
    /// ``string(at:)`` would replace them with U+FFFD.
    public func validatedString(at index: Int32) -> String? { row.validatedString(at: index) }

    /// Calls `body` with the bytes of column `index` read as text, without copying them into a `String`.
    /// The buffer is valid only during the call.
    public func withUTF8<T>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try row.withUTF8(at: index, body)
    }

    /// Column `index` of the current row as bytes (`sqlite3_column_blob`); NULL reads as empty data.
    public func data(at index: Int32) -> Data { row.data(at: index) }

    /// Column `index` of the current row with the storage class SQLite holds it in.
    public func value(at index: Int32) -> SQLiteValue { row.value(at: index) }

    /// The text SQLite returned for a column (`sqlite3_column_text` or `sqlite3_value_text`: `count` bytes,
    /// then a NUL SQLite adds) as a `String` when the bytes are valid UTF-8; nil when they are not.
    ///
    /// Thanks to SQLite's NUL, the standard library validates and copies the text in one pass, where
    /// checking first and then `String(decoding:)` (which checks again, to repair) takes two. Text that holds
    /// a NUL of its own stops short there, and is read the two-pass way.
    static func validatedString(_ text: UnsafePointer<UInt8>, count: Int) -> String? {
        let string = text.withMemoryRebound(to: CChar.self, capacity: count + 1) { String(validatingCString: $0) }
        if let string, string.utf8.count == count { return string }
        let bytes = UnsafeBufferPointer(start: text, count: count)
        guard isValidUTF8(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
    /// U+10FFFF). A plain loop rather than the standard library's generic validation, which looks up
    /// generic metadata on every call: this runs for every text column of every row.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        isASCII(bytes) || isValidNonASCIIUTF8(bytes)
    }

    /// True when every byte is below 0x80: most text in most databases. Whole words, the last one read
    /// overlapping the one before, or for texts under 8 bytes one read of each of 4, 2 and 1 bytes, rather
    /// than a byte at a time: country codes and names are a few bytes long.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        let highBits: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & highBits == 0 else { return false }
                offset += 8
            }
            return raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) & highBits == 0
        }
        var word: UInt64 = 0
        var offset = 0
        if count & 4 != 0 {
            word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
        }
        if count & 2 != 0 {
            word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            offset += 2
        }
        if count & 1 != 0 { word |= UInt64(raw[offset]) }
        return word & highBits == 0
    }

    /// The general check, for text that holds a byte at or above 0x80.
    private static func isValidNonASCIIUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        @inline(__always) func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && bytes[index + offset] >= low && bytes[index + offset] <= high
        }
        let raw = UnsafeRawBufferPointer(bytes)
        while index < count {
            // Eight ASCII bytes at a time: most text in most databases is ASCII.
            while index + 8 <= count,
                raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            switch lead {
            case 0x00...0x7F:
                index += 1
            case 0xC2...0xDF:
                guard continuation(1) else { return false }
                index += 2
            case 0xE0:
                guard continuation(1, 0xA0), continuation(2) else { return false }
                index += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard continuation(1), continuation(2) else { return false }
                index += 3
            case 0xED:
                guard continuation(1, 0x80, 0x9F), continuation(2) else { return false }
                index += 3
            case 0xF0:
                guard continuation(1, 0x90), continuation(2), continuation(3) else { return false }
                index += 4
            case 0xF1...0xF3:
                guard continuation(1), continuation(2), continuation(3) else { return false }
                index += 4
            case 0xF4:
                guard continuation(1, 0x80, 0x8F), continuation(2), continuation(3) else { return false }
                index += 4
            default:
                return false
            }
        }
        return true
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the bind call returns. The C macro is a
/// cast of -1 that Swift does not import.
var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

/// True when `tail`, what follows a prepared statement, holds another statement. SQLite itself skips
/// whitespace, semicolons and comments: preparing such a tail yields no statement.
func holdsAnotherStatement(_ tail: UnsafePointer<CChar>, connection: OpaquePointer) -> Bool {
    guard tail.pointee != 0 else { return false }
    var next: OpaquePointer?
    let code = sqlite3_prepare_v3(connection, tail, -1, 0, &next, nil)
    sqlite3_finalize(next)
    return code != SQLITE_OK || next != nil
}
