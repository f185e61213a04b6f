/// What a connection has read about the schema (table columns) and what other layers derive from it,
/// kept until `PRAGMA schema_version` says the schema changed.
/// See <https://www.sqlite.org/pragma.html#pragma_schema_version>.
final class SchemaCache {
    /// The schema version the cached values belong to; -1 before anything was read.
    @exclusivity(unchecked) var version: Int64 = -1
    /// True while the version is known current without asking SQLite: inside one transaction, after it was
    /// checked, as long as no statement of the caller's own (which could be DDL) ran since.
    @exclusivity(unchecked) var isCurrent = false
    /// `columns(in:)` answers, by lowercased table name (SQLite compares names case-insensitively).
    var columns: [String: [ColumnInfo]] = [:]
    /// Values other layers derive from the columns (the Record layer's affinity plan), by layer key and
    /// table.
    var derived: [DerivedKey: AnyObject] = [:]

    /// A derived value's key: the type that derives it and the table as the caller spells it.
    struct DerivedKey: Hashable {
        let owner: ObjectIdentifier
        let table: String
    }
}
