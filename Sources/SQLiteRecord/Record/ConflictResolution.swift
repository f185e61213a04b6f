/// What ``Record/insert(_:onConflict:)`` does when the row would violate a UNIQUE, PRIMARY KEY, NOT NULL or
/// CHECK constraint: SQLite's conflict resolution algorithms. See <https://www.sqlite.org/lang_conflict.html>.
///
/// `REPLACE` is left out on purpose: it deletes the rows in the way (firing ON DELETE cascades and giving the
/// row a new rowid); ``Record/upsert(_:onConflict:updating:)-method`` updates the existing row instead.
public enum ConflictResolution: Sendable, Equatable {
    /// The insert fails with `SQLITE_CONSTRAINT` and nothing is written: the plain `INSERT`.
    case abort
    /// The insert is skipped without an error (`INSERT OR IGNORE`): the call reports that no row was inserted.
    /// Foreign key violations still fail.
    case ignore
}
