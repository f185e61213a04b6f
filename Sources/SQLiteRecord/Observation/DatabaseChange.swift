/// What committed transactions changed: tables by lowercased name, and whether the schema changed (which
/// concerns every observer).
struct DatabaseChange: Sendable {
    var tables: Set<String> = []
    var changesSchema = false

    var isEmpty: Bool { tables.isEmpty && !changesSchema }

    /// True when a read that used `region` may now read something else.
    func concerns(_ region: Set<String>) -> Bool {
        changesSchema || !tables.isDisjoint(with: region)
    }
}
