/// A dictionary with the entry used last kept in front of it: a loop that asks for one key again and again
/// (a loop of saves of one record type, of lookups, of one request shape) finds it with one comparison of
/// keys, without hashing. Every kind of entry a connection keeps (``RecordConnectionCache``) is kept in one.
///
/// With a `capacity`, the dictionary starts over once it holds that many entries: the entries are made
/// again when next asked for, which costs only their making.
///
/// Not locked: it belongs to one connection, which is used on one thread at a time.
final class RecentlyUsedCache<Key: Hashable, Value> {
    /// The most entries kept; past it the dictionary starts over.
    let capacity: Int
    private var entries: [Key: Value] = [:]
    /// The entry found or stored last, also in `entries`. Boxed, with `let` fields, so that its key is
    /// compared where it is stored and its value is copied only when it is the one asked for.
    private var recent: Entry?

    private final class Entry {
        let key: Key
        let value: Value

        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    init(capacity: Int = .max) {
        self.capacity = capacity
    }

    /// How many entries are kept.
    var count: Int { entries.count }

    /// The entry for `key`, nil when there is none; setting nil removes it.
    subscript(key: Key) -> Value? {
        get {
            if let recent, recent.key == key { return recent.value }
            guard let value = entries[key] else { return nil }
            recent = Entry(key: key, value: value)
            return value
        }
        set {
            if let newValue {
                if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
                entries[key] = newValue
                recent = Entry(key: key, value: newValue)
            } else {
                entries[key] = nil
                if let recent, recent.key == key { self.recent = nil }
            }
        }
    }

    /// The entry used last when `matches` is true of its key; nil otherwise. For a caller whose key is
    /// costly to make (it copies arrays): the entry used last is found without making it.
    @inline(__always)
    func recentValue(where matches: (Key) -> Bool) -> Value? {
        guard let recent, matches(recent.key) else { return nil }
        return recent.value
    }

    /// Drops every entry.
    func removeAll() {
        entries.removeAll()
        recent = nil
    }
}
