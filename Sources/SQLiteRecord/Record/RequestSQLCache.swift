/// The SQL of every request shape a connection has run, so that a request run again costs a lookup rather
/// than building its text: the Record layer's per-connection cache, kept in ``RecordWritePlans``.
///
/// An entry holds the schema generation its columns were checked under; after a schema change the shape's
/// SQL is written and checked again.
final class RequestSQLCache {
    /// A shape of a request on one record type: the record type (whose table, key strategy and encoder the
    /// shape's names came through) and the tokens of ``RequestCompiler``.
    struct Key: Hashable {
        let type: ObjectIdentifier
        let tokens: [ShapeToken]
    }

    struct Entry {
        let sql: String
        let generation: Int
    }

    /// The most shapes kept; past it the cache starts over, which only costs rebuilding the text.
    static let capacity = 512

    // Unchecked: a connection is used on one thread at a time.
    @exclusivity(unchecked) private var entries: [Key: Entry] = [:]
    /// The entry found last: a loop that runs one request shape finds it with one comparison.
    @exclusivity(unchecked) private var last: (key: Key, entry: Entry)?

    func entry(for key: Key) -> Entry? {
        if let last, last.key == key { return last.entry }
        guard let entry = entries[key] else { return nil }
        last = (key, entry)
        return entry
    }

    func insert(_ entry: Entry, for key: Key) {
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = entry
        last = (key, entry)
    }
}
