import CSQLiteRecord
import Foundation

/// One column of a statement's current row, read through its `sqlite3_value` (`sqlite3_column_value`): the
/// column is found once, and its storage class and value are then read from it directly.
///
/// Each `sqlite3_column_*` call finds the column anew (checking the index, entering and leaving the
/// connection's mutex, checking for a failed allocation); the row decoder reads the storage class and then
/// the value of every column, so it finds each column once, through this.
/// SQLite calls the value "unprotected" (no mutex is held for it), and says that in the reduced mutex modes
/// there is no distinction between protected and unprotected values: every connection is opened with
/// `SQLITE_OPEN_NOMUTEX` (multi-thread mode, see ``Database/Options``) and used by one thread at a time (see
/// ``Statement``). The value is valid only while the statement stays on its current row. See
/// <https://www.sqlite.org/c3ref/value.html> and <https://www.sqlite.org/c3ref/column_blob.html>.
struct StatementColumn {
    /// The `sqlite3_value` of the column. SQLite returns a NULL value, never a null pointer, for a column
    /// index out of range.
    let value: OpaquePointer?

    init(_ row: StatementRow, at index: Int32) {
        value = sqlite3_column_value(row.handle, index)
    }

    /// The storage class (`sqlite3_value_type`): one of `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`,
    /// `SQLITE_BLOB`, `SQLITE_NULL`.
    var storageClass: Int32 { sqlite3_value_type(value) }

    /// The value as an integer (`sqlite3_value_int64`), converted by SQLite's rules.
    var int64: Int64 { sqlite3_value_int64(value) }

    /// The value as a double (`sqlite3_value_double`), converted by SQLite's rules.
    var double: Double { sqlite3_value_double(value) }

    /// The value as text when its bytes are valid UTF-8; nil when they are not, as
    /// ``StatementRow/validatedString(at:)``.
    var validatedString: String? { textBytes.validatedString }

    /// Calls `body` with the bytes of the value read as text, without copying them into a `String`. The
    /// view is valid only during the call.
    func withUTF8<T>(_ body: (ByteView) throws -> T) rethrows -> T {
        try body(textBytes)
    }

    /// The bytes of the value read as text (`sqlite3_value_text`, then `sqlite3_value_bytes`, the order
    /// SQLite asks for); empty for NULL. Valid only while the statement stays on its current row.
    @inline(__always)
    private var textBytes: ByteView {
        let text = sqlite3_value_text(value)
        return ByteView(sqliteText: text, count: Int(sqlite3_value_bytes(value)))
    }

    /// The value as bytes (`sqlite3_value_blob`); NULL reads as empty data.
    var data: Data {
        guard let bytes = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_value_bytes(value)))
    }
}
