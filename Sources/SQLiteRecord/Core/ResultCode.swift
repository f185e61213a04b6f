import CSQLiteRecord

/// A SQLite result code: a primary code in the low 8 bits, optionally refined by an extended code.
///
/// An open set, because SQLite grows it: `ResultCode(rawValue:)` accepts any code. A primary code matches
/// every extended code it refines in a `switch` or `catch` pattern, so `case .constraint` catches
/// `SQLITE_CONSTRAINT_NOTNULL` and `SQLITE_CONSTRAINT_FOREIGNKEY` alike.
/// See <https://www.sqlite.org/rescode.html>.
public struct ResultCode: RawRepresentable, Hashable, Sendable {
    /// The code as `sqlite3_extended_errcode` returns it.
    public let rawValue: Int32

    /// Wraps a code returned by SQLite.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended code.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// `SQLITE_OK`.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error, most often an SQL syntax error or a missing table or column.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_ABORT`: an operation was aborted, for example by a rollback.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: the database file is locked by another connection, through the busy timeout or where
    /// SQLite does not wait.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`: SQLite could not allocate memory.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: a write to a database opened read-only.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: the operation was interrupted by `sqlite3_interrupt`.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_TOOBIG`: a string or blob exceeds SQLite's size limit (`SQLITE_MAX_LENGTH`).
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_FULL`: the disk is full, or the database reached `max_page_count`.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the database file could not be opened.
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a NOT NULL, UNIQUE, CHECK, PRIMARY KEY or FOREIGN KEY constraint failed.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a datatype mismatch, such as a non-integer into an INTEGER PRIMARY KEY.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE`: a parameter index out of range.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_CONSTRAINT_NOTNULL`: a NOT NULL constraint failed.
    public static let constraintNotNull = ResultCode(rawValue: 1299)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key constraint failed.
    public static let constraintForeignKey = ResultCode(rawValue: 787)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint failed.
    public static let constraintUnique = ResultCode(rawValue: 2067)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a PRIMARY KEY constraint failed.
    public static let constraintPrimaryKey = ResultCode(rawValue: 1555)
    /// `SQLITE_CONSTRAINT_CHECK`: a CHECK constraint failed.
    public static let constraintCheck = ResultCode(rawValue: 275)
    /// `SQLITE_CONSTRAINT_COMMITHOOK`: a commit hook turned a commit into a rollback. The library's own hook
    /// does so for a statement that would commit on its own after SQLite ended the transaction of a `write`
    /// (see ``Database/transaction(_:_:)``).
    public static let constraintCommitHook = ResultCode(rawValue: 531)

    /// True when `code` is `pattern`, or `pattern` is a primary code and `code` one of its extended codes.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern == code || (pattern == pattern.primary && code.primary == pattern)
    }

    /// True when `error` is a ``DatabaseError`` whose code matches `pattern`, as `catch ResultCode.busy` reads.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.resultCode
    }
}

extension ResultCode: CustomStringConvertible {
    /// The code and SQLite's English text for it, as `19 (constraint failed)`; `sqlite3_errstr` gives the text.
    public var description: String {
        let text = sqlite3_errstr(rawValue).map { String(cString: $0) } ?? "unknown error"
        return "\(rawValue) (\(text))"
    }
}
