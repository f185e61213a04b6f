// GRDB's names for the calls people type from habit (https://swiftpackageindex.com/groue/grdb.swift/
// documentation/grdb/fetchablerecord, .../tablerecord): each is unavailable, and the compiler's error names
// this library's call (with a fix-it where only the name or a label differs) instead of reporting that no
// such member exists or that an internal method is inaccessible. The bodies forward to the call they name,
// so none could do anything else if it ran.

extension Record {
    /// GRDB's `fetchAll(_:)`; here every record of the table is `fetch(_:)`.
    @available(*, unavailable, renamed: "fetch(_:)", message: "SQLiteRecord's name for GRDB's fetchAll(_:)")
    public static func fetchAll(_ db: some DatabaseConnection) throws -> [Self] {
        try fetch(db, where: [String: (any Encodable)?]())
    }

    /// GRDB's `fetchAll(_:keys:)`; here records by key are `fetch(_:ids:)`.
    @available(*, unavailable, renamed: "fetch(_:ids:)", message: "SQLiteRecord's name for GRDB's fetchAll(_:keys:)")
    public static func fetchAll(_ db: Database, keys: [ID]) throws -> [Self] {
        try fetch(db, ids: keys)
    }

    /// GRDB's `fetchAll(_:ids:)`; here records by key are `fetch(_:ids:)`.
    @available(*, unavailable, renamed: "fetch(_:ids:)", message: "SQLiteRecord's name for GRDB's fetchAll(_:ids:)")
    public static func fetchAll(_ db: Database, ids: [ID]) throws -> [Self] {
        try fetch(db, ids: ids)
    }

    /// GRDB's `fetchOne(_:key:)`; here a record by key is `fetchOne(_:id:)`.
    @available(*, unavailable, renamed: "fetchOne(_:id:)", message: "SQLiteRecord's name for GRDB's fetchOne(_:key:)")
    public static func fetchOne(_ db: some DatabaseConnection, key: ID) throws -> Self? {
        try fetchOne(db, id: key)
    }

    /// GRDB's `fetchOne(_:key:)` with a dictionary of column values; here that is a `where:` dictionary.
    @available(
        *, unavailable, renamed: "fetchOne(_:where:)",
        message:
            "SQLiteRecord's name for GRDB's fetchOne(_:key:) with column values: try Item.fetchOne(db, where: [\"email\": email])"
    )
    public static func fetchOne(_ db: some DatabaseConnection, key: [String: (any Encodable)?]) throws -> Self? {
        try fetchOne(db, where: key)
    }

    /// GRDB's `fetchOne(_:)`, the table's first row; here a request's `QueryInterfaceRequest/fetchOne(_:)`.
    @available(
        *, unavailable,
        message:
            "SQLiteRecord reads one record by id with fetchOne(_:id:), by values with fetchOne(_:where:), and the first of a request with Item.all().fetchOne(db)"
    )
    public static func fetchOne(_ db: some DatabaseConnection) throws -> Self? {
        try all().fetchOne(db)
    }

    /// GRDB's `fetchCount(_:)`; here the number of rows is `count(_:)`.
    @available(*, unavailable, renamed: "count(_:)", message: "SQLiteRecord's name for GRDB's fetchCount(_:)")
    public static func fetchCount(_ db: some DatabaseConnection) throws -> Int {
        try all().count(db)
    }

    /// GRDB's `fetchSet(_:)`; here the records come as an array.
    @available(
        *, unavailable,
        message: "SQLiteRecord's call is fetch(_:), an array: Set(try Item.fetch(db)) for a Hashable record"
    )
    public static func fetchSet(_ db: some DatabaseConnection) throws -> [Self] {
        try all().fetch(db)
    }

    /// GRDB's `fetchCursor(_:)`; here a cursor comes from a request, `QueryInterfaceRequest/fetchCursor(_:)`.
    @available(
        *, unavailable, message: "SQLiteRecord's cursor comes from a request: try Item.all().fetchCursor(db)"
    )
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try all().fetchCursor(db)
    }

    /// GRDB's `deleteOne(_:key:)`; here a row by key is deleted by `delete(_:id:)`.
    @available(*, unavailable, renamed: "delete(_:id:)", message: "SQLiteRecord's name for GRDB's deleteOne(_:key:)")
    public static func deleteOne(_ db: some DatabaseConnection, key: ID) throws -> Bool {
        try delete(db, id: key)
    }

    /// GRDB's `deleteOne(_:id:)`; here a row by key is deleted by `delete(_:id:)`.
    @available(*, unavailable, renamed: "delete(_:id:)", message: "SQLiteRecord's name for GRDB's deleteOne(_:id:)")
    public static func deleteOne(_ db: some DatabaseConnection, id: ID) throws -> Bool {
        try delete(db, id: id)
    }

    /// GRDB's `exists(_:key:)`; here `exists(_:id:)`.
    @available(*, unavailable, renamed: "exists(_:id:)", message: "SQLiteRecord's name for GRDB's exists(_:key:)")
    public static func exists(_ db: some DatabaseConnection, key: ID) throws -> Bool {
        try exists(db, id: key)
    }
}

extension QueryInterfaceRequest {
    /// GRDB's request `fetchAll(_:)`; here `fetch(_:)`.
    @available(*, unavailable, renamed: "fetch(_:)", message: "SQLiteRecord's name for GRDB's fetchAll(_:)")
    public func fetchAll(_ db: some DatabaseConnection) throws -> [Base] {
        try fetch(db)
    }

    /// GRDB's request `fetchCount(_:)`; here `count(_:)`.
    @available(*, unavailable, renamed: "count(_:)", message: "SQLiteRecord's name for GRDB's fetchCount(_:)")
    public func fetchCount(_ db: some DatabaseConnection) throws -> Int {
        try count(db)
    }

    /// GRDB's request `fetchSet(_:)`; here the records come as an array.
    @available(
        *, unavailable,
        message: "SQLiteRecord's call is fetch(_:), an array: Set(try request.fetch(db)) for a Hashable record"
    )
    public func fetchSet(_ db: some DatabaseConnection) throws -> [Base] {
        try fetch(db)
    }
}
