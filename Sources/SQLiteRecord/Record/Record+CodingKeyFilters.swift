/// The `where:` dictionary forms keyed by the record's coding keys, as `orderBy:` takes them:
/// `Item.fetch(db, where: [Item.CodingKeys.listId: 1])`, on either engine, through a writer and through the
/// default store.
///
/// A coding key names the column the record's encoder writes for it, through its key strategy
/// (``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase`` turns `listId` into `list_id`), as
/// ``Column/init(_:)-(Key)`` does in requests, so a misspelled property does not compile. Each value is any
/// `Encodable & Sendable` (an enum compares by its raw value, a Date by the type's date strategy, a UUID by
/// each of its stored forms) and nil matches NULL, exactly as the request operator `==` compares them; the
/// equalities are ANDed in the order of the keys' string values, so equal dictionaries give equal SQL.
///
/// The String-keyed forms stay as they are: `where: ["list_id": 1]` names the column itself, and a
/// dictionary literal picks one form or the other by its keys, never both.
extension Record {
    /// The records whose columns equal the given values, sorted and paged as asked: the typed-key twin of the
    /// String-keyed `fetch(_:where:orderBy:limit:offset:)`.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key with no column (nothing
    ///   runs), ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value no column can hold
    ///   (a NaN, an integer above `Int64.max`), and the engine's error.
    public static func fetch<Key: CodingKey & Hashable>(
        _ db: some DatabaseConnection, where conditions: [Key: (any Encodable & Sendable)?],
        orderBy ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil
    ) throws -> [Self] {
        try request(codingKeys: conditions, orderBy: ordering, limit: limit, offset: offset).fetch(db)
    }

    /// The first record whose columns equal the given values, or nil.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`.
    public static func fetchOne<Key: CodingKey & Hashable>(
        _ db: some DatabaseConnection, where conditions: [Key: (any Encodable & Sendable)?],
        orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try request(codingKeys: conditions, orderBy: ordering, limit: 1).fetchOne(db)
    }

    /// The number of rows whose columns equal the given values.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`.
    public static func count<Key: CodingKey & Hashable>(
        _ db: some DatabaseConnection, where conditions: [Key: (any Encodable & Sendable)?]
    ) throws -> Int {
        try request(codingKeys: conditions).count(db)
    }

    /// Deletes the rows whose columns equal the given values, in the caller's transaction.
    /// - Returns: how many rows were deleted.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`;
    ///   nothing is deleted when it throws before the statement runs.
    @discardableResult
    public static func deleteAll<Key: CodingKey & Hashable>(
        _ db: some DatabaseConnection, where conditions: [Key: (any Encodable & Sendable)?]
    ) throws -> Int {
        try request(codingKeys: conditions).deleteAll(db)
    }

    /// The typed-key fetch through the default queue (``RecordStore``).
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) throws -> [Self] {
        try request(codingKeys: conditions, orderBy: ordering, limit: limit, offset: offset).fetch()
    }

    /// The typed-key fetchOne through the default queue (``RecordStore``).
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try request(codingKeys: conditions, orderBy: ordering, limit: 1).fetchOne()
    }

    /// The typed-key count through the default queue (``RecordStore``).
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func count<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?]
    )
        throws -> Int
    {
        try request(codingKeys: conditions).count()
    }

    /// The typed-key deleteAll through the default queue (``RecordStore``), in a transaction of its own.
    /// - Returns: how many rows were deleted.
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func deleteAll<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?]
    )
        throws -> Int
    {
        try request(codingKeys: conditions).deleteAll()
    }

    /// The request of the typed-key forms: each key's column equal to its value (nil: `IS NULL`), ANDed in
    /// the order of the keys' string values.
    static func request<Key: CodingKey>(
        codingKeys conditions: [Key: (any Encodable & Sendable)?], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) -> QueryInterfaceRequest<Self> {
        var request = all().filter(codingKeyEqualities: conditions.map { ($0.key.stringValue, $0.value) })
        request.orderings = ordering.map(\.sqlOrdering)
        request.limitCount = limit
        request.offsetCount = offset
        return request
    }
}

/// The typed-key `where:` forms through a writer of any engine (``AsyncDatabaseWriter``) and, awaiting it,
/// through the default store: each runs in a transaction of its own, a read-only one for reads.
extension Record where Self: Sendable {
    /// The typed-key fetch in a read-only transaction.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`.
    public static func fetch<Key: CodingKey & Hashable>(
        _ writer: some AsyncDatabaseWriter, where conditions: [Key: (any Encodable & Sendable)?],
        orderBy ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil
    ) async throws -> [Self] {
        try await request(codingKeys: conditions, orderBy: ordering, limit: limit, offset: offset).fetch(writer)
    }

    /// The typed-key fetchOne in a read-only transaction.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`.
    public static func fetchOne<Key: CodingKey & Hashable>(
        _ writer: some AsyncDatabaseWriter, where conditions: [Key: (any Encodable & Sendable)?],
        orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        try await request(codingKeys: conditions, orderBy: ordering, limit: 1).fetchOne(writer)
    }

    /// The typed-key count in a read-only transaction.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`.
    public static func count<Key: CodingKey & Hashable>(
        _ writer: some AsyncDatabaseWriter, where conditions: [Key: (any Encodable & Sendable)?]
    ) async throws -> Int {
        try await request(codingKeys: conditions).count(writer)
    }

    /// The typed-key deleteAll in a transaction of its own.
    /// - Returns: how many rows were deleted.
    /// - Throws: as the connection form of `fetch(_:where:orderBy:limit:offset:)`.
    @discardableResult
    public static func deleteAll<Key: CodingKey & Hashable>(
        _ writer: some AsyncDatabaseWriter, where conditions: [Key: (any Encodable & Sendable)?]
    ) async throws -> Int {
        try await request(codingKeys: conditions).deleteAll(writer)
    }

    /// The typed-key fetch through the default queue (``RecordStore``), awaiting it.
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetch<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) async throws -> [Self] {
        try await request(codingKeys: conditions, orderBy: ordering, limit: limit, offset: offset).fetch()
    }

    /// The typed-key fetchOne through the default queue (``RecordStore``), awaiting it.
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?], orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        try await request(codingKeys: conditions, orderBy: ordering, limit: 1).fetchOne()
    }

    /// The typed-key count through the default queue (``RecordStore``), awaiting it.
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func count<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?]
    )
        async throws -> Int
    {
        try await request(codingKeys: conditions).count()
    }

    /// The typed-key deleteAll through the default queue (``RecordStore``), awaiting it.
    /// - Returns: how many rows were deleted.
    /// - Throws: as the connection form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public static func deleteAll<Key: CodingKey & Hashable>(
        where conditions: [Key: (any Encodable & Sendable)?]
    )
        async throws -> Int
    {
        try await request(codingKeys: conditions).deleteAll()
    }
}
