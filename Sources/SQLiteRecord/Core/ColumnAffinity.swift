/// A column's type affinity: the storage class SQLite prefers for values put into it, derived from the
/// declared type by the five rules of <https://www.sqlite.org/datatype3.html#determination_of_column_affinity>.
public enum ColumnAffinity: Sendable, Hashable {
    /// Declared type contains "INT": numeric text is stored as INTEGER (or REAL when it has a fraction).
    case integer
    /// Declared type contains "CHAR", "CLOB" or "TEXT": numbers are stored as text.
    case text
    /// Declared type contains "BLOB", or is empty: values are stored as given.
    case blob
    /// Declared type contains "REAL", "FLOA" or "DOUB": numeric text and integers are stored as REAL.
    case real
    /// Any other declared type (`NUMERIC`, `DECIMAL(10,2)`, `BOOLEAN`, `DATE`, `STRING`): numeric text is
    /// stored as INTEGER or REAL.
    case numeric

    /// The affinity of a column declared with `declaredType`, by SQLite's rules in their order.
    public init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
