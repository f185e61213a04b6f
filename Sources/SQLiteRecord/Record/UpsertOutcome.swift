/// What ``Record/upsert(_:onConflict:updating:)-method`` did with the record's row.
public enum UpsertOutcome: Sendable, Equatable, CustomStringConvertible {
    /// No row had the conflict target's values: the record was inserted as a new row.
    case inserted
    /// A row had them, and the columns the upsert updates were written to it.
    case updated
    /// A row had them and already held the values of every column the upsert updates, so nothing was
    /// written (no update trigger fired); also when the upsert updates no column (`updating: []`), or when a
    /// trigger's `RAISE(IGNORE)` skipped the update of an existing row.
    case unchanged

    /// "inserted", "updated" or "unchanged".
    public var description: String {
        switch self {
        case .inserted: return "inserted"
        case .updated: return "updated"
        case .unchanged: return "unchanged"
        }
    }
}
