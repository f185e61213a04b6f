import Foundation

/// One value as SQLite stores it: one of its five storage classes.
///
/// SQLite is dynamically typed: the storage class belongs to the value, not to the column, so a column
/// declared `INTEGER` may hold `175.0` or `'175'`. See <https://www.sqlite.org/datatype3.html>.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer (`SQLITE_INTEGER`).
    case integer(Int64)
    /// An IEEE 754 double (`SQLITE_FLOAT`, called REAL in SQL).
    case real(Double)
    /// UTF-8 text (`SQLITE_TEXT`).
    case text(String)
    /// Bytes stored exactly as given (`SQLITE_BLOB`).
    case blob(Data)

    /// The storage class name as SQLite's `typeof()` spells it: `null`, `integer`, `real`, `text` or `blob`.
    public var storageClassName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// A short rendering for error messages: text is quoted and cut after 40 characters, blobs show their size.
    public var shortDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "'" + shown + "'"
        case .blob(let data): return "<\(data.count) bytes>"
        }
    }
}

extension SQLiteValue: CustomStringConvertible {
    /// The storage class and a short rendering of the value, as `INTEGER 42` or `TEXT 'Tokyo'`.
    public var description: String {
        self == .null ? "NULL" : storageClassName + " " + shortDescription
    }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// An integer literal is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal is `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A string literal is `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
}
