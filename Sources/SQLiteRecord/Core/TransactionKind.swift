/// How a transaction takes its locks. See <https://www.sqlite.org/lang_transaction.html>.
public enum TransactionKind: Sendable {
    /// `BEGIN DEFERRED`: no lock until the first read or write. A deferred transaction that reads and then
    /// writes cannot wait for the write lock: SQLite answers `SQLITE_BUSY` at once, whatever the busy timeout.
    case deferred
    /// `BEGIN IMMEDIATE`: takes the write lock at BEGIN, waiting up to the busy timeout. Use it for writes.
    case immediate
    /// `BEGIN EXCLUSIVE`: like immediate; in rollback-journal mode it also keeps readers out.
    case exclusive

    var beginSQL: String {
        switch self {
        case .deferred: return "BEGIN DEFERRED TRANSACTION"
        case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
        case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
        }
    }
}
