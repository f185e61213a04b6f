/// The key an update binds after the record's columns: a rowid without any array, or the values of any
/// other key.
enum WriteKey {
    /// An insert or upsert: the key is among the record's columns.
    case none
    /// The rowid of a record whose key is `Int64?`.
    case rowID(Int64)
    /// Any other key.
    case match(KeyMatch)

    /// The key for messages.
    var description: String {
        switch self {
        case .none: return ""
        case .rowID(let rowID): return String(rowID)
        case .match(let match): return match.description
        }
    }

    /// The values bound after the record's columns.
    var values: [SQLiteValue] {
        switch self {
        case .none: return []
        case .rowID(let rowID): return [.integer(rowID)]
        case .match(let match): return match.values.flatMap { $0 }
        }
    }
}

extension Record {
    /// The key's columns as the plans need them (values are placeholders for a rowid): `id`'s for any key,
    /// which must be set.
    /// - Throws: as ``keyMatch(_:)``, but a nil rowid is fine.
    static func keyLayout(of id: ID, _ key: WriteKey) throws -> KeyMatch {
        if case .match(let match) = key { return match }
        if keyIsRowID { return KeyMatch(columns: [primaryKeyColumn], values: [[.integer(0)]]) }
        return try keyMatch(id)
    }
}
