/// One foreign key of a table, as `PRAGMA foreign_key_list` describes it: the child table's `columns`
/// reference `parentColumns` of `parentTable`. See <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>
/// and <https://www.sqlite.org/foreignkeys.html>.
public struct ForeignKeyInfo: Sendable, Hashable {
    /// The foreign key's number within its table, as `PRAGMA foreign_key_list` gives it (and as the `fkid`
    /// column of `PRAGMA foreign_key_check` refers to it).
    public let id: Int
    /// The referenced (parent) table, as written in the REFERENCES clause.
    public let parentTable: String
    /// The referencing columns of this (child) table, in order.
    public let columns: [String]
    /// The referenced columns of the parent table, in the same order; an element is nil when the clause
    /// names no columns (`REFERENCES countries`), which means the parent's primary key.
    public let parentColumns: [String?]
    /// The ON UPDATE action: `NO ACTION` (the default), `RESTRICT`, `SET NULL`, `SET DEFAULT` or `CASCADE`.
    public let onUpdate: String
    /// The ON DELETE action: `NO ACTION` (the default), `RESTRICT`, `SET NULL`, `SET DEFAULT` or `CASCADE`.
    public let onDelete: String

    /// A foreign key described by hand: what a schema read from another engine's catalog gives the generator.
    package init(
        id: Int, parentTable: String, columns: [String], parentColumns: [String?], onUpdate: String, onDelete: String
    ) {
        self.id = id
        self.parentTable = parentTable
        self.columns = columns
        self.parentColumns = parentColumns
        self.onUpdate = onUpdate
        self.onDelete = onDelete
    }
}
