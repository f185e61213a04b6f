/// A connection's prepared statements, keyed by SQL text, bounded, evicting the least recently used.
///
/// The SQL a record operation needs is the same text every time, so a dictionary lookup replaces a
/// `sqlite3_prepare_v3` call. A hit costs one hash of the SQL and a counter update; the least recently used
/// statement is found by a scan of the entries, which happens only on a miss when the cache is full, a
/// cost that a prepare (the reason for the miss) dwarfs. An evicted statement that someone still holds (a
/// ``RowCursor``) stays valid: it is finalized when its last holder lets it go.
final class StatementCache {
    /// A cached statement and the tick of its last use. A class, so that a hit updates it in place with the
    /// one dictionary lookup.
    private final class Entry {
        let statement: Statement
        var lastUse: UInt64

        init(statement: Statement, lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
        }
    }

    /// The most statements kept; 0 keeps none.
    let capacity: Int
    private var entries: [String: Entry] = [:]
    /// Counts uses; a larger tick is a more recent use. 64 bits do not wrap in practice.
    private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The number of statements held.
    var count: Int { entries.count }

    /// The statement cached for `sql`, marked as just used; nil when there is none.
    /// The entry found last, with its SQL: a bulk insert asks for the same SQL, often the same String
    /// instance (the record layer caches its SQL per type), thousands of times in a row. Comparing with
    /// it is a pointer check for a shared string, where a dictionary lookup hashes the whole SQL text.
    private var lastSQL: String?
    private var lastEntry: Entry?

    func statement(for sql: String) -> Statement? {
        clock &+= 1
        if let lastEntry, lastSQL == sql {
            lastEntry.lastUse = clock
            return lastEntry.statement
        }
        guard let entry = entries[sql] else { return nil }
        entry.lastUse = clock
        lastSQL = sql
        lastEntry = entry
        return entry.statement
    }

    /// True when a statement is cached for `sql`.
    func contains(_ sql: String) -> Bool { entries[sql] != nil }

    /// Caches `statement` for `sql`, first evicting the least recently used statement when full.
    func insert(_ statement: Statement, for sql: String) {
        guard capacity > 0 else { return }
        if entries[sql] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            entries.removeValue(forKey: oldest.key)
            if lastSQL == oldest.key {
                lastSQL = nil
                lastEntry = nil
            }
        }
        clock &+= 1
        if lastSQL == sql {
            lastSQL = nil
            lastEntry = nil
        }
        entries[sql] = Entry(statement: statement, lastUse: clock)
    }

    /// Drops every statement (each is finalized once no one else holds it).
    func removeAll() {
        entries.removeAll()
        lastSQL = nil
        lastEntry = nil
    }
}
