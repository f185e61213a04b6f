import CSQLiteRecord
import Foundation

/// Every C function pointer the library hands to sqlite3, and the context object each one reads.
///
/// SQLite calls these from inside its own calls (`sqlite3_step`, `sqlite3_prepare_v3`, `sqlite3_close_v2`),
/// on the thread that made that call: the thread that is using the connection. A C function pointer cannot
/// capture, so each callback finds its Swift state through the `void *` context it was registered with. The
/// rules, one per context:
///
/// - Custom function (``createFunction(on:name:argumentCount:flags:_:)``): a ``FunctionContext`` retained
///   for SQLite at registration. SQLite releases it, through the destructor registered with it, when the
///   function is replaced or when the connection is really closed, which `sqlite3_close_v2` defers until the
///   last statement is finalized: a statement that outlives its `Database` still calls a live function.
///   When registration fails SQLite has already called the destructor.
/// - Collation (``createCollation(on:name:_:)``): a ``CollationContext``, retained and released the same
///   way; but a failed `sqlite3_create_collation_v2` does not call its destructor, so the context is
///   released here.
/// - Trace (``setTrace(on:_:)``): a ``TraceContext`` that the `Database` owns for its whole life and
///   passes unretained. Replacing the handler swaps the closure inside the context, never the context, so
///   a handler that replaces the trace while it runs keeps running on its own copy of the closure. The
///   `Database` switches the trace off in `deinit`, before the context is released.
/// - Authorizer, commit hook and rollback hook (``observeTransactions(on:_:)``): the connection's
///   ``TransactionGuard``, which the `Database` owns and passes unretained. They are removed
///   (``stopObservingTransactions(on:)``) in the `Database`'s `deinit`, before the guard is released, so a
///   statement finalized later never calls back into freed memory.
/// - Update hook (``setUpdateHook(on:_:)``): the connection's ``ChangeTracker``, which the `Database` owns
///   (through its ``TransactionGuard``) and passes unretained; installed while observers listen, and removed
///   with the others in the `Database`'s `deinit`.
/// - Busy handler (``setBusyHandler(on:_:)``): the connection's ``BusyWait``, which the `Database` owns and
///   passes unretained. The `Database`'s `deinit` puts SQLite's own handler (`sqlite3_busy_timeout`, which
///   reads no context) in its place before the `BusyWait` is released, so a statement that outlives its
///   `Database` still waits for locks and never calls back into freed memory.
/// - Destructors of bound or returned text and blobs: always ``sqliteTransient``, so SQLite copies the bytes
///   before the call returns and never calls back.
///
/// No callback lets a Swift error or a trap unwind through SQLite's C frames: a function's thrown error
/// becomes `sqlite3_result_error`.
enum SQLiteCallbacks {
    // MARK: Custom functions and collations

    /// Registers `function` under `name` with `sqlite3_create_function_v2`; returns SQLite's result code.
    static func createFunction(
        on connection: OpaquePointer, name: String, argumentCount: Int32, flags: Int32,
        _ function: @escaping @Sendable ([SQLiteValue]) throws -> SQLiteValue
    ) -> Int32 {
        let context = Unmanaged.passRetained(FunctionContext(function)).toOpaque()
        return sqlite3_create_function_v2(
            connection, name, argumentCount, flags, context,
            { call, count, values in
                guard let call, let context = sqlite3_user_data(call) else { return }
                let function = Unmanaged<FunctionContext>.fromOpaque(context).takeUnretainedValue().function
                let arguments = (0..<Int(count)).map { SQLiteValue(sqliteValue: values?[$0]) }
                do {
                    SQLiteCallbacks.setResult(try function(arguments), of: call)
                } catch {
                    sqlite3_result_error(call, "\(error)", -1)
                }
            }, nil, nil,
            { context in
                guard let context else { return }
                Unmanaged<FunctionContext>.fromOpaque(context).release()
            })
    }

    /// Registers `compare` as the collation `name` with `sqlite3_create_collation_v2`; returns SQLite's
    /// result code. Text that is not valid UTF-8 reaches `compare` with U+FFFD in place of the bad bytes.
    static func createCollation(
        on connection: OpaquePointer, name: String, _ compare: @escaping @Sendable (String, String) -> ComparisonResult
    ) -> Int32 {
        let context = Unmanaged.passRetained(CollationContext(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(
            connection, name, SQLITE_UTF8, context,
            { context, leftCount, left, rightCount, right in
                guard let context else { return 0 }
                let compare = Unmanaged<CollationContext>.fromOpaque(context).takeUnretainedValue().compare
                func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
                    guard let bytes, count > 0 else { return "" }
                    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
                }
                switch compare(text(left, leftCount), text(right, rightCount)) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { context in
                guard let context else { return }
                Unmanaged<CollationContext>.fromOpaque(context).release()
            })
        if code != SQLITE_OK { Unmanaged<CollationContext>.fromOpaque(context).release() }
        return code
    }

    /// Sets `value` as the result of the function call `call` (`sqlite3_result_*`, text and blobs copied).
    private static func setResult(_ value: SQLiteValue, of call: OpaquePointer) {
        switch value {
        case .null: sqlite3_result_null(call)
        case .integer(let integer): sqlite3_result_int64(call, integer)
        case .real(let real): sqlite3_result_double(call, real)
        case .text(let text):
            var text = text
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else {
                    // Empty text: a null pointer would make the result NULL.
                    sqlite3_result_text64(call, "", 0, sqliteTransient, UInt8(SQLITE_UTF8))
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(call, $0, UInt64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    sqlite3_result_zeroblob(call, 0)
                    return
                }
                sqlite3_result_blob64(call, base, UInt64(bytes.count), sqliteTransient)
            }
        }
    }

    /// A Swift function registered with SQLite. Immutable; retained by SQLite (see the type's rules).
    private final class FunctionContext {
        let function: @Sendable ([SQLiteValue]) throws -> SQLiteValue
        init(_ function: @escaping @Sendable ([SQLiteValue]) throws -> SQLiteValue) { self.function = function }
    }

    /// A Swift collation registered with SQLite. Immutable; retained by SQLite (see the type's rules).
    private final class CollationContext {
        let compare: @Sendable (String, String) -> ComparisonResult
        init(_ compare: @escaping @Sendable (String, String) -> ComparisonResult) { self.compare = compare }
    }

    // MARK: Trace

    /// What the trace callback reads: the connection's current handler (nil while the trace is off) and
    /// whether events may show bound values. Owned by the `Database`, one per connection, for its whole life.
    final class TraceContext {
        /// The handler; replaced in place, so that SQLite's pointer to this context never goes stale.
        var handler: (@Sendable (Database.TraceEvent) -> Void)?
        let showsArguments: Bool

        init(showsArguments: Bool) { self.showsArguments = showsArguments }
    }

    /// Installs the trace of `context` on `connection` (`sqlite3_trace_v2` with `SQLITE_TRACE_PROFILE`) when
    /// it holds a handler, and switches the trace off when it holds none.
    static func setTrace(on connection: OpaquePointer, _ context: TraceContext) {
        guard context.handler != nil else {
            sqlite3_trace_v2(connection, 0, nil, nil)
            return
        }
        sqlite3_trace_v2(
            connection, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, nanoseconds in
                guard let context, let statement, let nanoseconds else { return 0 }
                let trace = Unmanaged<TraceContext>.fromOpaque(context).takeUnretainedValue()
                // A copy of the closure: the handler may replace the trace while it runs.
                guard let handler = trace.handler else { return 0 }
                let handle = OpaquePointer(statement)
                var sql: String?
                if trace.showsArguments, let expanded = sqlite3_expanded_sql(handle) {
                    sql = String(cString: expanded)
                    sqlite3_free(expanded)
                }
                if sql == nil, let text = sqlite3_sql(handle) { sql = String(cString: text) }
                let elapsed = nanoseconds.load(as: Int64.self)
                handler(Database.TraceEvent(sql: sql ?? "", duration: .nanoseconds(elapsed)))
                return 0
            }, Unmanaged.passUnretained(context).toOpaque())
    }

    /// Switches the trace of `connection` off.
    static func stopTrace(on connection: OpaquePointer) {
        sqlite3_trace_v2(connection, 0, nil, nil)
    }

    // MARK: Authorizer, commit and rollback hooks

    /// Installs the authorizer and the commit and rollback hooks, which report to `transactions`. The
    /// authorizer allows everything but `PRAGMA foreign_keys = ...` inside a migration body (see
    /// ``TransactionGuard/authorize(_:_:setsValue:column:)``): otherwise it only notes what a statement does.
    static func observeTransactions(on connection: OpaquePointer, _ transactions: TransactionGuard) {
        let context = Unmanaged.passUnretained(transactions).toOpaque()
        sqlite3_set_authorizer(
            connection,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                let transactions = Unmanaged<TransactionGuard>.fromOpaque(context).takeUnretainedValue()
                // A pragma's value is the second argument: nil when the statement only reads the setting.
                // An update's second argument is the column it sets.
                return transactions.authorize(
                    action, first.map { String(cString: $0) }, setsValue: second != nil,
                    column: action == SQLITE_UPDATE ? second.map { String(cString: $0) } : nil)
            }, context)
        sqlite3_rollback_hook(
            connection,
            { context in
                guard let context else { return }
                Unmanaged<TransactionGuard>.fromOpaque(context).takeUnretainedValue().transactionDidRollBack()
            }, context)
        sqlite3_commit_hook(
            connection,
            { context in
                guard let context else { return 0 }
                // 0 lets the commit go ahead; anything else turns it into a rollback.
                return Unmanaged<TransactionGuard>.fromOpaque(context).takeUnretainedValue().commitHookAnswer()
            }, context)
    }

    /// Removes what ``observeTransactions(on:_:)`` and ``setUpdateHook(on:_:)`` installed.
    static func stopObservingTransactions(on connection: OpaquePointer) {
        sqlite3_update_hook(connection, nil, nil)
        sqlite3_set_authorizer(connection, nil, nil)
        sqlite3_rollback_hook(connection, nil, nil)
        sqlite3_commit_hook(connection, nil, nil)
    }
}

extension SQLiteCallbacks {
    // MARK: Update hook

    /// Installs the update hook of `connection`, which tells `tracker` the rowid and table of each row a
    /// statement inserts, updates or deletes in a rowid table (the database's name and the kind of change
    /// are not needed). See <https://www.sqlite.org/c3ref/update_hook.html> for the changes it does not report.
    static func setUpdateHook(on connection: OpaquePointer, _ tracker: ChangeTracker) {
        sqlite3_update_hook(
            connection,
            { context, _, _, table, rowID in
                guard let context, let table else { return }
                let tracker = Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue()
                tracker.rowDidChange(rowID, in: tracker.hookTableNames.name(table))
            }, Unmanaged.passUnretained(tracker).toOpaque())
    }

    /// Removes the update hook of `connection`.
    static func stopUpdateHook(on connection: OpaquePointer) {
        sqlite3_update_hook(connection, nil, nil)
    }
}

/// The lowercased name of the table the update hook reports, kept while the hook reports rows of the same
/// table: SQLite passes the name of its own table object, so a bulk write passes the same pointer row after
/// row. The bytes are compared too, as a table dropped and another made may reuse the address.
final class UpdateHookTableNames {
    private var address: UInt = 0
    private var bytes: [CChar] = [0]
    private var name = ""

    /// The lowercased name of the table `table`, a NUL-terminated name from SQLite.
    func name(_ table: UnsafePointer<CChar>) -> String {
        if UInt(bitPattern: table) == address, strcmp(table, bytes) == 0 { return name }
        let text = String(cString: table)
        address = UInt(bitPattern: table)
        bytes = Array(text.utf8CString)
        name = text.lowercased()
        return name
    }
}

extension SQLiteCallbacks {
    // MARK: Busy handler

    /// Installs `wait` as the busy handler of `connection` (`sqlite3_busy_handler`), in place of any other:
    /// SQLite calls it when a lock it asks for is held by another connection, and tries again while it answers
    /// 1. See <https://www.sqlite.org/c3ref/busy_handler.html>.
    static func setBusyHandler(on connection: OpaquePointer, _ wait: BusyWait) {
        sqlite3_busy_handler(
            connection,
            { context, count in
                guard let context else { return 0 }
                return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().shouldRetry(afterCalls: count)
                    ? 1 : 0
            }, Unmanaged.passUnretained(wait).toOpaque())
    }

    /// Replaces the library's busy handler of `connection` with SQLite's own, which waits up to
    /// `milliseconds` and reads no context (`sqlite3_busy_timeout`).
    static func stopBusyHandler(on connection: OpaquePointer, keepingTimeout milliseconds: Int32) {
        sqlite3_busy_timeout(connection, milliseconds)
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the bind call returns. The C macro is a
/// cast of -1 that Swift does not import.
var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
