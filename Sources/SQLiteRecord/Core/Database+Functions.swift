import CSQLiteRecord
import Foundation

extension Database {
    /// The connection's `sqlite3 *` handle: SQLite one call away, for what the library does not wrap, such as
    /// limits (`sqlite3_limit`), loading extensions (`sqlite3_load_extension`, after
    /// `sqlite3_enable_load_extension`), or C functions of your own (`sqlite3_create_function_v2`).
    ///
    /// ```swift
    /// import CSQLiteRecord  // or SQLite3 on Apple platforms
    /// sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000_000)
    /// ```
    ///
    /// The handle belongs to this `Database`: use it only while the `Database` is alive and on the thread
    /// that uses the `Database` (inside a ``DatabaseQueue`` closure), never close it, and do not change what
    /// the library relies on (the authorizer, the commit and rollback hooks, the busy timeout, foreign keys,
    /// the double-quoted string setting). Swift functions and collations are registered more safely with
    /// ``createFunction(_:argumentCount:isDeterministic:_:)`` and ``createCollation(_:_:)``, and a trace with
    /// ``trace(_:)``. See <https://www.sqlite.org/c3ref/sqlite3.html>.
    public var sqliteConnection: OpaquePointer { handle }

    /// Registers a Swift function that SQL on this connection can call: `SELECT reversed(name) FROM cities`.
    ///
    /// ```swift
    /// try db.createFunction("reversed", argumentCount: 1) { arguments in
    ///     guard case .text(let text) = arguments[0] else { return nil }
    ///     return String(text.reversed())
    /// }
    /// ```
    ///
    /// Registering a name and argument count again replaces the function. The function runs on the thread
    /// that runs the statement; it receives the arguments as stored values and returns a value to store (nil
    /// is NULL); what it throws becomes the statement's error (`SQLITE_ERROR` with the error's description).
    /// The corresponding SQLite call is `sqlite3_create_function_v2`; see
    /// <https://www.sqlite.org/c3ref/create_function.html>.
    /// - Parameters:
    ///   - name: the SQL name, up to 255 bytes of UTF-8.
    ///   - argumentCount: how many arguments it takes, 0 to 127; -1 for any number.
    ///   - isDeterministic: true when the same arguments always give the same result, which lets SQLite use
    ///     the function in indexes, CHECK constraints and generated columns, and compute it once per statement
    ///     for constant arguments (`SQLITE_DETERMINISTIC`).
    ///   - function: the function itself.
    /// - Throws: ``DatabaseError`` (`SQLITE_MISUSE` or `SQLITE_ERROR`) when SQLite refuses the name or count,
    ///   or `SQLITE_BUSY` while a statement that uses the function it replaces is running.
    public func createFunction(
        _ name: String, argumentCount: Int32, isDeterministic: Bool = false,
        _ function: @escaping @Sendable ([SQLiteValue]) throws -> (any SQLiteValueConvertible)?
    ) throws {
        let flags = SQLITE_UTF8 | (isDeterministic ? SQLITE_DETERMINISTIC : 0)
        let code = SQLiteCallbacks.createFunction(
            on: handle, name: name, argumentCount: argumentCount, flags: flags
        ) { arguments in
            try function(arguments)?.checkedSQLiteValue() ?? .null
        }
        try DatabaseError.check(code, connection: handle)
    }

    /// Registers a collation that SQL on this connection can name: `ORDER BY name COLLATE localized`, or
    /// `name TEXT COLLATE localized` in a CREATE TABLE.
    ///
    /// ```swift
    /// try db.createCollation("localized") { $0.localizedStandardCompare($1) }
    /// ```
    ///
    /// The comparison must be consistent (the same answer for the same texts, and transitive), or indexes that
    /// use it become corrupt. Text that is not valid UTF-8 reaches it with U+FFFD in place of the bad bytes.
    /// The corresponding SQLite call is `sqlite3_create_collation_v2`; see
    /// <https://www.sqlite.org/c3ref/create_collation.html>.
    /// - Parameters:
    ///   - name: the collation's SQL name.
    ///   - compare: orders two texts.
    /// - Throws: ``DatabaseError`` when SQLite refuses the name, or `SQLITE_BUSY` while a statement that uses
    ///   the collation it replaces is running.
    public func createCollation(
        _ name: String, _ compare: @escaping @Sendable (String, String) -> ComparisonResult
    ) throws {
        let code = SQLiteCallbacks.createCollation(on: handle, name: name, compare)
        try DatabaseError.check(code, connection: handle)
    }
}

extension SQLiteValue {
    /// The value of a function argument (an `sqlite3_value`), copied.
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let text = sqlite3_value_text(value)
            self = .text(ByteView(sqliteText: text, count: Int(sqlite3_value_bytes(value))).string)
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard let bytes = sqlite3_value_blob(value) else {
                self = .blob(Data())
                return
            }
            self = .blob(Data(bytes: bytes, count: count))
        default: self = .null
        }
    }
}
