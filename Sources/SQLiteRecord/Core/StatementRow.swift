import CSQLiteRecord
import Foundation

/// The current row of a prepared statement, read through its `sqlite3_stmt` handle: what ``Statement``'s
/// column reads do, as a plain value that holds no reference, so that the row decoder can keep it for a
/// whole statement run. Valid only while the statement is alive and on its current row.
struct StatementRow {
    let handle: OpaquePointer

    /// The storage class of column `index` in the current row (`sqlite3_column_type`): one of
    /// `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`.
    func columnType(at index: Int32) -> Int32 { sqlite3_column_type(handle, index) }

    /// How many times SQLite has prepared the statement again by itself (see ``Statement/reprepareCount``).
    var reprepareCount: Int32 { sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) }

    /// True when column `index` of the current row is NULL.
    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` of the current row as an integer (`sqlite3_column_int64`); SQLite converts other
    /// storage classes by its own rules, so check ``columnType(at:)`` first when that matters.
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` of the current row as a double (`sqlite3_column_double`).
    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` of the current row as text (`sqlite3_column_text`); NULL reads as "".
    func string(at index: Int32) -> String {
        text(at: index).string
    }

    /// Column `index` of the current row as text when its bytes are valid UTF-8; nil when they are not
    /// (SQLite stores whatever bytes it is given as TEXT, `CAST(x'FF' AS TEXT)` included), where
    /// ``string(at:)`` would replace them with U+FFFD.
    func validatedString(at index: Int32) -> String? { text(at: index).validatedString }

    /// Calls `body` with the bytes of column `index` read as text, without copying them into a `String`.
    /// The view is valid only during the call.
    func withUTF8<T>(at index: Int32, _ body: (ByteView) throws -> T) rethrows -> T {
        try body(text(at: index))
    }

    /// The bytes of column `index` read as text (`sqlite3_column_text`, then `sqlite3_column_bytes`, the
    /// order SQLite asks for); empty for NULL. Valid only while the statement stays on its current row.
    @inline(__always)
    private func text(at index: Int32) -> ByteView {
        let text = sqlite3_column_text(handle, index)
        return ByteView(sqliteText: text, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// Column `index` of the current row as bytes (`sqlite3_column_blob`); NULL reads as empty data.
    func data(at index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// True when column `index` of the current row is `value`, of the same storage class, compared without
    /// copying the column into a ``SQLiteValue``; NULL holds no value, not even `.null`.
    func holds(_ value: SQLiteValue, at index: Int32) -> Bool {
        switch (value, sqlite3_column_type(handle, index)) {
        case (.integer(let integer), SQLITE_INTEGER): return int64(at: index) == integer
        case (.text(let text), SQLITE_TEXT): return self.text(at: index).elementsEqual(utf8Of: text)
        case (.real(let real), SQLITE_FLOAT): return double(at: index) == real
        case (.blob(let blob), SQLITE_BLOB): return data(at: index) == blob
        default: return false
        }
    }

    /// Column `index` of the current row with the storage class SQLite holds it in.
    func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(string(at: index))
        case SQLITE_BLOB: return .blob(data(at: index))
        default: return .null
        }
    }
}
