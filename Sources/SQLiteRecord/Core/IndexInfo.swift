/// One index of a table, as `PRAGMA index_list` and `PRAGMA index_info` describe it.
/// See <https://www.sqlite.org/pragma.html#pragma_index_list> and
/// <https://www.sqlite.org/pragma.html#pragma_index_info>.
public struct IndexInfo: Sendable, Hashable {
    /// Why an index exists: the `origin` column of `PRAGMA index_list`. An open set, as SQLite's codes are:
    /// compare with the static values.
    public struct Origin: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// SQLite's code: `c`, `u` or `pk`.
        public let rawValue: String

        /// An origin from SQLite's code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `c`: made by `CREATE INDEX`.
        public static let createIndex = Origin(rawValue: "c")
        /// `u`: made by SQLite for a UNIQUE constraint (named `sqlite_autoindex_TABLE_N`).
        public static let uniqueConstraint = Origin(rawValue: "u")
        /// `pk`: made by SQLite for a PRIMARY KEY that is not the rowid (`id TEXT PRIMARY KEY`, a composite
        /// key, or a WITHOUT ROWID table).
        public static let primaryKeyConstraint = Origin(rawValue: "pk")

        /// SQLite's code.
        public var description: String { rawValue }
    }

    /// The index name; SQLite names the indexes it makes for constraints `sqlite_autoindex_TABLE_N`.
    public let name: String
    /// The indexed columns, in index order; nil for an expression (`CREATE INDEX ... ON t(lower(name))`) or
    /// the rowid, which `PRAGMA index_info` names NULL.
    public let columns: [String?]
    /// True when the index is UNIQUE.
    public let isUnique: Bool
    /// Why the index exists: `CREATE INDEX`, a UNIQUE constraint or a PRIMARY KEY.
    public let origin: Origin
    /// True for a partial index (`CREATE INDEX ... WHERE ...`).
    public let isPartial: Bool

    /// An index described by hand: what another engine's catalog gives the schema check.
    package init(name: String, columns: [String?], isUnique: Bool, origin: Origin, isPartial: Bool) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
        self.origin = origin
        self.isPartial = isPartial
    }
}
