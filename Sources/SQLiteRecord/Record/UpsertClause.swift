/// What an upsert's statement says beyond its columns: the conflict target, the columns a conflict updates,
/// and whether the rowid is left to SQLite. Part of the write plan's key, so each clause has its statement.
struct UpsertClause: Hashable, Sendable {
    /// The columns of the PRIMARY KEY or UNIQUE constraint whose conflict turns the insert into an update;
    /// nil for the record's key columns (no array is made per call for the common case).
    let conflictColumns: [String]?
    /// The columns a conflict updates, as the caller named them; nil for every column the insert binds but
    /// the conflict target's and the primary key's.
    let namedColumns: [String]?
    /// True when the record's rowid is nil, so the insert leaves it to SQLite.
    let leavesOutRowID: Bool

    /// The columns the `DO UPDATE SET` assigns, among `bound`, the columns the insert binds.
    func updatedColumns(bound: [String], keyColumns: [String]) -> [String] {
        if let namedColumns { return namedColumns.filter { bound.contains($0) } }
        let target = conflictColumns ?? keyColumns
        return bound.filter { !target.contains($0) && !keyColumns.contains($0) }
    }
}

extension UpsertClause {
    /// The clause of ``Record/upsert(_:onConflict:updating:)-method`` with its defaults, for a record that
    /// gives its key: conflict on the key, every column updated.
    static let `default` = UpsertClause(conflictColumns: nil, namedColumns: nil, leavesOutRowID: false)
}
