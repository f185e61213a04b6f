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
    /// True for a statement that may write (see ``mayWrite``), changes the schema, rolls back or writes rows
    /// (as the connection's authorizer saw it prepared): running it is checked against a read's refusal of
    /// writes and tells ``schemaCache`` and the change tracker. Checked on every step, so a plain flag.
    private(set) var announcesEffects = false
    /// False when SQLite knows the statement cannot change the database file (`sqlite3_stmt_readonly`: a
    /// SELECT, a transaction statement, a pragma that only reads). Read once, when the statement is
    /// prepared: a cached statement prepared inside a `write` is still refused when it runs inside a `read`.
    /// False too for `PRAGMA journal_mode` and `wal_checkpoint` (see ``noteKeepsContent()``).
    /// See <https://www.sqlite.org/c3ref/stmt_readonly.html>.
    private var mayWrite: Bool
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
    /// The written tables whose changed rows the update hook may not all report: all of them when the
    /// statement may resolve a conflict by REPLACE (its SQL says `REPLACE`: the rows it deletes are not
    /// reported), and each table it deletes from without reading it (no `WHERE` on it: SQLite may truncate
    /// the table, which reports no row). See <https://www.sqlite.org/c3ref/update_hook.html>. Found the
    /// first time the statement runs while observers listen: a statement nobody observes does not pay.
    private var unattributedTables: [String]?
    /// The tables (lowercased) the statement deletes from.
    private var deletedTables: Set<String> = []
    /// The columns (lowercased) the statement sets, by table: an update of a rowid is reported under the
    /// new rowid only, so an observer of the old one is told by the column.
    private var updatedColumns: [String: Set<String>] = [:]
    private weak var changeTracker: ChangeTracker?
    /// The tracker's flag, held strongly: the tracker is reached only while observers listen.
    private var trackerListening: ChangeTracker.Listening?
    /// The tracker's ``ChangeTracker/Listening/generation`` when the statement last told it its tables; 0,
    /// which no generation is, before.
    private var notedGeneration: UInt64 = 0

    /// Marks the statement as having `effect` on the schema `cache` holds.
    func noteSchemaEffect(_ effect: SchemaCache.SchemaEffect, on cache: SchemaCache) {
        guard effect != .none else { return }
        schemaEffect = effect
        schemaCache = cache
        announcesEffects = true
    }

    /// Marks the statement as one a read may run though SQLite counts it as a write: `PRAGMA journal_mode`
    /// or `wal_checkpoint`, as the authorizer saw it prepared (see
    /// ``TransactionGuard/preparedStatementKeepsContent``).
    func noteKeepsContent() { mayWrite = false }

    /// Records the tables the statement reads, writes and deletes from, which `tracker` hears of when it
    /// runs.
    func noteAccess(
        reads: Set<String>, writes: Set<String>, deletes: Set<String>, updatedColumns: [String: Set<String>],
        on tracker: ChangeTracker
    ) {
        if !reads.isEmpty { readTables = Array(reads) }
        guard !writes.isEmpty || schemaEffect == .changesSchema else { return }
        writtenTables = Array(writes)
        self.updatedColumns = updatedColumns
        deletedTables = deletes
        changeTracker = tracker
        trackerListening = tracker.listening
        announcesEffects = true
    }

    /// True when `sql` holds the word `REPLACE` in any case (inside a name or a string too, which only
    /// costs an observation by row its narrowing). An ASCII scan of the bytes: Foundation's case-insensitive
    /// search costs a prepare thousands of instructions.
    static func mentionsReplace(_ sql: String) -> Bool {
        let word: [UInt8] = Array("replace".utf8)
        var matched = 0
        for byte in sql.utf8 {
            // ASCII letters fold to lowercase with one bit; the word holds letters only.
            let folded = byte | 0x20
            if folded == word[matched] {
                matched += 1
                if matched == word.count { return true }
            } else {
                matched = folded == word[0] ? 1 : 0
            }
        }
        return false
    }

    /// Refuses the statement inside a read when it may write, else tells the schema cache and the change
    /// tracker that it is about to run. Not inlined: few statements need it.
    /// - Throws: ``DatabaseError`` with `SQLITE_READONLY` when the statement may write and its connection
    ///   is inside a `read` (see ``TransactionGuard/refusesWrites``); the statement is reset, never run.
    @inline(never)
    private func announceEffects(boundArguments arguments: () -> StatementArguments?) throws {
        if mayWrite, let transactionGuard, transactionGuard.refusesWrites {
            endedRuns &+= 1
            sqlite3_reset(handle)
            throw makeError(.readOnly, TransactionGuard.writeInsideRead, arguments: arguments())
        }
        // The weak references are read only when there is something to tell: a statement that writes rows
        // runs once per row of a bulk write, most often with no observer and no schema effect.
        if schemaEffect != .none { schemaCache?.statementWillRun(schemaEffect) }
        if let trackerListening, trackerListening.isOn, trackerListening.generation != notedGeneration {
            let unattributed: [String]
            if let unattributedTables {
                unattributed = unattributedTables
            } else {
                unattributed =
                    Self.mentionsReplace(sql)
                    ? writtenTables : Array(deletedTables.subtracting(readTables))
                unattributedTables = unattributed
            }
            changeTracker?.statementWillWrite(
                writtenTables, unattributed: unattributed, updatedColumns: updatedColumns,
                changesSchema: schemaEffect == .changesSchema)
            notedGeneration = trackerListening.generation
        }
    }

    /// Prepares `sql`, which must hold exactly one statement. The corresponding SQLite call is
    /// `sqlite3_prepare_v3`.
    /// - Throws: ``DatabaseError`` when SQLite cannot prepare it (a syntax error, a missing table), or when
    ///   the text holds no statement, more than one, or a NUL character (code `SQLITE_MISUSE`).
    init(connection: OpaquePointer, sql: String) throws {
        try Self.checkHoldsNoNUL(sql)
        let (code, handle, holdsMore) = ByteView.withCString(sql) { text in
            let (code, handle, end) = text.prepare(from: 0, on: connection)
            return (code, handle, code == SQLITE_OK && text.holdsStatement(from: end, on: connection))
        }
        if code != SQLITE_OK {
            sqlite3_finalize(handle)
            throw DatabaseError(code, connection: connection, sql: sql).thrown
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
        mayWrite = sqlite3_stmt_readonly(handle) == 0
        announcesEffects = mayWrite
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
        mayWrite = sqlite3_stmt_readonly(handle) == 0
        announcesEffects = mayWrite
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
    ///   `SQLITE_INTERRUPT` when ``DatabaseQueue/interrupt()`` or a cancelled task interrupted it;
    ///   `SQLITE_BUSY` when another connection held a lock it needs through the busy timeout, or where SQLite
    ///   does not wait (the message gives the measured wait); `CancellationError` when the task of the async
    ///   call it runs in was cancelled while it waited for such a lock.
    @discardableResult
    public func step() throws -> Bool {
        if announcesEffects { try announceEffects { self.boundArguments } }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        endedRuns &+= 1
        if code == SQLITE_DONE { return false }
        let error = makeError(code)
        sqlite3_reset(handle)
        throw error.thrown
    }

    /// Runs a statement whose parameters the caller bound one by one (with the typed binds) to its next row,
    /// as ``step()`` does.
    /// - Parameter arguments: the values that were bound, asked for only when an error is thrown, so the
    ///   error carries them as a statement bound with ``bind(_:)`` does.
    /// - Returns: true when a row is available to read, false when the statement is done.
    /// - Throws: ``DatabaseError`` as ``step()`` does.
    func step(boundArguments arguments: () -> StatementArguments?) throws -> Bool {
        if announcesEffects { try announceEffects(boundArguments: arguments) }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        endedRuns &+= 1
        if code == SQLITE_DONE { return false }
        boundArguments = arguments()
        let error = makeError(code)
        boundArguments = nil
        sqlite3_reset(handle)
        throw error.thrown
    }

    /// Runs a statement whose parameters the caller bound one by one (with the typed binds) to its end, and
    /// resets it, keeping the bindings until the next use overwrites them.
    /// - Parameter arguments: the values that were bound, asked for only when an error is thrown, so the
    ///   error carries them as a statement bound with ``bind(_:)`` does.
    /// - Throws: ``DatabaseError`` as ``step()`` does.
    func runToEnd(boundArguments arguments: () -> StatementArguments?) throws {
        while true {
            if announcesEffects { try announceEffects(boundArguments: arguments) }
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            if code == SQLITE_ROW { continue }
            boundArguments = arguments()
            let error = makeError(code)
            boundArguments = nil
            endedRuns &+= 1
            sqlite3_reset(handle)
            throw error.thrown
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

    /// The current row, as a value that holds no reference to the statement (see ``StatementRow``).
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

    /// Column `index` of the current row as bytes (`sqlite3_column_blob`); NULL reads as empty data.
    public func data(at index: Int32) -> Data { row.data(at: index) }

    /// Column `index` of the current row with the storage class SQLite holds it in.
    public func value(at index: Int32) -> SQLiteValue { row.value(at: index) }
}
