import CSQLiteRecord
import SQLiteRecord

extension Database {
    /// How many times SQLite prepared the connection's live statements again (`SQLITE_STMTSTATUS_REPREPARE`
    /// summed over `sqlite3_next_stmt`): it does so at the next step of a statement that was expired, as
    /// changing `PRAGMA query_only` expires every statement of the connection.
    /// See <https://www.sqlite.org/c3ref/c_stmtstatus_counter.html>.
    var reprepares: Int32 {
        var total: Int32 = 0
        var statement = sqlite3_next_stmt(sqliteConnection, nil)
        while let current = statement {
            total += sqlite3_stmt_status(current, SQLITE_STMTSTATUS_REPREPARE, 0)
            statement = sqlite3_next_stmt(sqliteConnection, current)
        }
        return total
    }
}
