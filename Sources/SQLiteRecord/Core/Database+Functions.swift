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
        // The box is retained by SQLite and released by its destructor when the function is replaced or the
        // connection closes.
        let box = Unmanaged.passRetained(SQLFunctionBox(function)).toOpaque()
        let flags = SQLITE_UTF8 | (isDeterministic ? SQLITE_DETERMINISTIC : 0)
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, values in
                guard let context, let box = sqlite3_user_data(context) else { return }
                let function = Unmanaged<SQLFunctionBox>.fromOpaque(box).takeUnretainedValue().function
                let arguments = (0..<Int(count)).map { SQLiteValue(sqliteValue: values?[$0]) }
                do {
                    let result = try function(arguments)?.checkedSQLiteValue() ?? .null
                    SQLiteValue.setResult(result, on: context)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            }, nil, nil,
            { box in
                guard let box else { return }
                Unmanaged<SQLFunctionBox>.fromOpaque(box).release()
            })
        // On failure SQLite has already called the destructor, which released the box.
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
        let box = Unmanaged.passRetained(SQLCollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { box, leftCount, left, rightCount, right in
                guard let box else { return 0 }
                let compare = Unmanaged<SQLCollationBox>.fromOpaque(box).takeUnretainedValue().compare
                func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
                    guard let bytes, count > 0 else { return "" }
                    return String(
                        decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
                }
                switch compare(text(left, leftCount), text(right, rightCount)) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { box in
                guard let box else { return }
                Unmanaged<SQLCollationBox>.fromOpaque(box).release()
            })
        if code != SQLITE_OK {
            // Unlike sqlite3_create_function_v2, a failed sqlite3_create_collation_v2 does not call the
            // destructor.
            Unmanaged<SQLCollationBox>.fromOpaque(box).release()
        }
        try DatabaseError.check(code, connection: handle)
    }
}

/// A Swift function registered with SQLite, kept alive by SQLite (through a retained pointer) until it is
/// replaced or the connection closes. Immutable.
private final class SQLFunctionBox {
    let function: @Sendable ([SQLiteValue]) throws -> (any SQLiteValueConvertible)?
    init(_ function: @escaping @Sendable ([SQLiteValue]) throws -> (any SQLiteValueConvertible)?) {
        self.function = function
    }
}

/// A Swift collation registered with SQLite, kept alive as ``SQLFunctionBox`` is. Immutable.
private final class SQLCollationBox {
    let compare: @Sendable (String, String) -> ComparisonResult
    init(_ compare: @escaping @Sendable (String, String) -> ComparisonResult) { self.compare = compare }
}

extension SQLiteValue {
    /// The value of a function argument (an `sqlite3_value`), copied.
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            guard let text = sqlite3_value_text(value) else {
                self = .text("")
                return
            }
            self = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
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

    /// Sets `value` as the result of the function call `context` (`sqlite3_result_*`, text and blobs copied).
    static func setResult(_ value: SQLiteValue, on context: OpaquePointer) {
        switch value {
        case .null: sqlite3_result_null(context)
        case .integer(let integer): sqlite3_result_int64(context, integer)
        case .real(let real): sqlite3_result_double(context, real)
        case .text(let text):
            var text = text
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else {
                    // Empty text: a null pointer would make the result NULL.
                    sqlite3_result_text64(context, "", 0, sqliteTransient, UInt8(SQLITE_UTF8))
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(context, $0, UInt64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    sqlite3_result_zeroblob(context, 0)
                    return
                }
                sqlite3_result_blob64(context, base, UInt64(bytes.count), sqliteTransient)
            }
        }
    }
}
