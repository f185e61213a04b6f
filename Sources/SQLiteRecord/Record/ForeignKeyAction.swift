/// What SQLite does to the child rows when their parent row is deleted: the `ON DELETE` clause that
/// ``Record/createTable(in:ifNotExists:)`` writes for a ``BelongsToAssociation``. See
/// <https://www.sqlite.org/foreignkeys.html#fk_actions>.
public enum ForeignKeyAction: String, Sendable, Hashable, CaseIterable {
    /// Deleting the parent deletes its children (`ON DELETE CASCADE`).
    case cascade = "CASCADE"
    /// Deleting the parent sets the children's foreign key to NULL (`ON DELETE SET NULL`).
    case setNull = "SET NULL"
    /// Deleting a parent that has children fails at once (`ON DELETE RESTRICT`).
    case restrict = "RESTRICT"
    /// Deleting a parent that has children fails when the statement or transaction ends, SQLite's default
    /// (`ON DELETE NO ACTION`).
    case noAction = "NO ACTION"
}
