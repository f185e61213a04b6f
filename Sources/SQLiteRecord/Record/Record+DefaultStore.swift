/// The fetch and count calls through the default queue (``RecordStore``): each runs
/// ``DatabaseQueue/read(_:)-7l4om`` with its `Database` form.
extension Record {
    /// ``fetch(_:where:orderBy:limit:offset:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch(
        where conditions: [String: (any SQLiteValueConvertible)?] = [:], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) throws -> [Self] {
        try RecordStore.defaultQueue().read { db in
            try fetch(db, where: conditions, orderBy: ordering, limit: limit, offset: offset)
        }
    }

    /// ``fetch(_:where:arguments:orderBy:limit:offset:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch(
        where sql: String, arguments: StatementArguments = [], orderBy ordering: [Ordering] = [], limit: Int? = nil,
        offset: Int? = nil
    ) throws -> [Self] {
        try RecordStore.defaultQueue().read { db in
            try fetch(db, where: sql, arguments: arguments, orderBy: ordering, limit: limit, offset: offset)
        }
    }

    /// ``fetchOne(_:where:orderBy:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne(
        where conditions: [String: (any SQLiteValueConvertible)?], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try RecordStore.defaultQueue().read { db in try fetchOne(db, where: conditions, orderBy: ordering) }
    }

    /// ``fetchOne(_:where:arguments:orderBy:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne(
        where sql: String, arguments: StatementArguments = [], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try RecordStore.defaultQueue().read { db in
            try fetchOne(db, where: sql, arguments: arguments, orderBy: ordering)
        }
    }

    /// ``fetchOne(_:id:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne(id: ID) throws -> Self? {
        try RecordStore.defaultQueue().read { db in try fetchOne(db, id: id) }
    }

    /// ``fetch(_:ids:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch<IDs: Collection>(ids: IDs) throws -> [Self] where IDs.Element == ID {
        try RecordStore.defaultQueue().read { db in try fetch(db, ids: ids) }
    }

    /// ``fetch(_:sql:arguments:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch(sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try RecordStore.defaultQueue().read { db in try fetch(db, sql: sql, arguments: arguments) }
    }

    /// ``count(_:where:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func count(where conditions: [String: (any SQLiteValueConvertible)?] = [:]) throws -> Int {
        try RecordStore.defaultQueue().read { db in try count(db, where: conditions) }
    }

    /// ``count(_:where:arguments:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func count(where sql: String, arguments: StatementArguments = []) throws -> Int {
        try RecordStore.defaultQueue().read { db in try count(db, where: sql, arguments: arguments) }
    }

    /// ``exists(_:id:)`` through the default queue.
    /// - Throws: as that call, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func exists(id: ID) throws -> Bool {
        try RecordStore.defaultQueue().read { db in try exists(db, id: id) }
    }
}
