/// One column of a table, as `PRAGMA table_xinfo` describes it: every column a `SELECT *` returns,
/// generated columns included (`PRAGMA table_info` leaves those out).
/// See <https://www.sqlite.org/pragma.html#pragma_table_xinfo> and <https://www.sqlite.org/gencol.html>.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type as written in CREATE TABLE (`INTEGER`, `VARCHAR(20)`, or "" when none); it decides
    /// the column's affinity. See <https://www.sqlite.org/datatype3.html#determination_of_column_affinity>.
    public let declaredType: String
    /// True when the column is declared NOT NULL.
    public let isNotNull: Bool
    /// The column's DEFAULT as SQL text, as written in CREATE TABLE (`'unknown'`, `0`, `CURRENT_TIMESTAMP`);
    /// nil when it has none. It is SQL, not a value: a text default keeps its quotes.
    public let defaultValueSQL: String?
    /// The column's position in the primary key, starting at 1; 0 when it is not part of it.
    public let primaryKeyIndex: Int
    /// True for a generated column (`GENERATED ALWAYS AS (...) VIRTUAL` or `STORED`): it is read like any
    /// other column, and SQLite computes its value, so inserts and updates leave it out. See
    /// <https://www.sqlite.org/gencol.html>.
    public let isGenerated: Bool

    /// A column described by hand: what a schema read from another engine's catalog gives the generator.
    package init(
        name: String, declaredType: String, isNotNull: Bool, defaultValueSQL: String?, primaryKeyIndex: Int,
        isGenerated: Bool
    ) {
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.defaultValueSQL = defaultValueSQL
        self.primaryKeyIndex = primaryKeyIndex
        self.isGenerated = isGenerated
    }
}

extension ColumnInfo {
    /// The column's affinity, from its declared type.
    public var affinity: ColumnAffinity { ColumnAffinity(declaredType: declaredType) }
}
