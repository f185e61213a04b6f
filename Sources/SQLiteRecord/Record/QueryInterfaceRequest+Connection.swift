/// Running a request on a connection of any engine, in the caller's transaction: the request is compiled in
/// the engine's dialect (SQLite's `?`, PostgreSQL's `$n`, `ILIKE`, `= ANY($n)`), its columns checked against
/// the table and its values bound before anything runs.
extension QueryInterfaceRequest {
    /// The records the request selects.
    ///
    /// ```swift
    /// let cities = try City.filter(Column("country_code") == "FR").order(Column("population").descending).limit(10).fetch(db)
    /// // SELECT * FROM "cities" WHERE "country_code" = ? ORDER BY "population" DESC LIMIT ?
    /// ```
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column that is not in the table,
    ///   ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value that is not one column's
    ///   value, ``RecordError/invalidQuery(table:reason:)`` for what the engine's requests do not have (a
    ///   raw FTS5 pattern on PostgreSQL), nothing running in each case; the engine's error when the table is
    ///   missing or SQL of your own is wrong (``DatabaseError``, PostgreSQL's 42P01); `DecodingError` naming
    ///   the column whose value does not fit its property.
    public func fetch(_ db: some DatabaseConnection) throws -> [Base] {
        try db.fetchRecords(self)
    }

    /// The first record the request selects, or nil.
    /// - Throws: as ``fetch(_:)``.
    public func fetchOne(_ db: some DatabaseConnection) throws -> Base? {
        try db.fetchRecords(limitedToOne).first
    }

    /// The selected columns of every row, decoded as `type`: a selection with aggregates, or a few columns,
    /// into a `Decodable` type of your own (a column it does not ask for is ignored; an Optional property
    /// with no column is nil). Decoded with the record type's ``Record/rowDecoder``.
    ///
    /// ```swift
    /// struct CountryCount: Decodable { var countryCode: String; var cities: Int }
    /// let counts = try City.select(Column("country_code").forKey("countryCode"), SQLExpression.countAll.forKey("cities"))
    ///     .group(Column("country_code")).fetch(db, as: CountryCount.self)
    /// ```
    /// A type that decodes a single value (`Int`, `String`, ...) reads a selection of one column.
    /// - Throws: as ``fetch(_:)``.
    public func fetch<T: Decodable>(_ db: some DatabaseConnection, as type: T.Type) throws -> [T] {
        try db.fetchValues(self, as: T.self, first: false)
    }

    /// The first selected row decoded as `type`, or nil when there is none: `City.select(max(Column("population"))).fetchOne(db, as: Int.self)`.
    /// A single value that is NULL (the `max` of no rows) is nil too.
    /// - Throws: as ``fetch(_:)``.
    public func fetchOne<T: Decodable>(_ db: some DatabaseConnection, as type: T.Type) throws -> T? {
        try db.fetchValues(self, as: T.self, first: true).first
    }

    /// The number of rows the request selects: `SELECT count(*) FROM "table" WHERE ...`, or the rows of the
    /// whole request counted in a subquery when it is grouped, distinct or limited.
    /// - Throws: as ``fetch(_:)``, except decoding.
    public func count(_ db: some DatabaseConnection) throws -> Int {
        try db.countRows(self, exists: false)
    }

    /// True when the request selects at least one row: `SELECT EXISTS (SELECT ...)`.
    /// - Throws: as ``count(_:)``.
    public func exists(_ db: some DatabaseConnection) throws -> Bool {
        try db.countRows(self, exists: true) == 1
    }

    /// Deletes every row the request selects, without decoding them (callbacks are not called). A request
    /// with a limit deletes the rows it would fetch, in its order (`WHERE rowid IN (SELECT rowid ...)` on
    /// SQLite, by the key on PostgreSQL).
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``fetch(_:)`` for columns and values, ``RecordError/viewNotWritable(table:)`` for a
    ///   SQLite view, ``RecordError/invalidQuery(table:reason:)`` for a grouped request, or the engine's
    ///   error (a foreign key still references a row); nothing is deleted then.
    @discardableResult
    public func deleteAll(_ db: some DatabaseConnection) throws -> Int {
        try db.writeRows(self, assignments: nil)
    }

    /// Sets columns of every row the request selects, in one UPDATE, without decoding them (callbacks are
    /// not called): `updateAll(db, Column("population").set(to: Column("population") + 1))`. Integer
    /// arithmetic that overflows 64 bits is refused on every engine, and no row changes.
    /// - Returns: how many rows were updated; 0, running nothing, when `assignments` is empty.
    /// - Throws: as ``deleteAll(_:)``, and the engine's error for a constraint the new values break or an
    ///   integer overflow.
    @discardableResult
    public func updateAll(_ db: some DatabaseConnection, _ assignments: ColumnAssignment...) throws -> Int {
        try updateAll(db, assignments)
    }

    /// ``updateAll(_:_:)-(DatabaseConnection,ColumnAssignment...)`` with the assignments in an array.
    /// - Throws: as ``updateAll(_:_:)-(DatabaseConnection,ColumnAssignment...)``.
    @discardableResult
    public func updateAll(_ db: some DatabaseConnection, _ assignments: [ColumnAssignment]) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        return try db.writeRows(self, assignments: assignments)
    }
}

/// The request calls through a writer of any engine (``AsyncDatabaseWriter``): each runs in a transaction of
/// its own, a read-only one for reads, while the task waits.
extension QueryInterfaceRequest where Base: Sendable {
    /// ``fetch(_:)`` in a read-only transaction.
    /// - Throws: as ``fetch(_:)``.
    public func fetch(_ writer: some AsyncDatabaseWriter) async throws -> [Base] {
        try await writer.read { db in try self.fetch(db) }
    }

    /// ``fetchOne(_:)`` in a read-only transaction.
    /// - Throws: as ``fetch(_:)``.
    public func fetchOne(_ writer: some AsyncDatabaseWriter) async throws -> Base? {
        try await writer.read { db in try self.fetchOne(db) }
    }

    /// ``fetch(_:as:)`` in a read-only transaction.
    /// - Throws: as ``fetch(_:)``.
    public func fetch<T: Decodable & Sendable>(_ writer: some AsyncDatabaseWriter, as type: T.Type) async throws -> [T] {
        try await writer.read { db in try self.fetch(db, as: T.self) }
    }

    /// ``fetchOne(_:as:)`` in a read-only transaction.
    /// - Throws: as ``fetch(_:)``.
    public func fetchOne<T: Decodable & Sendable>(_ writer: some AsyncDatabaseWriter, as type: T.Type) async throws
        -> T?
    {
        try await writer.read { db in try self.fetchOne(db, as: T.self) }
    }

    /// ``count(_:)`` in a read-only transaction.
    /// - Throws: as ``count(_:)``.
    public func count(_ writer: some AsyncDatabaseWriter) async throws -> Int {
        try await writer.read { db in try self.count(db) }
    }

    /// ``exists(_:)`` in a read-only transaction.
    /// - Throws: as ``count(_:)``.
    public func exists(_ writer: some AsyncDatabaseWriter) async throws -> Bool {
        try await writer.read { db in try self.exists(db) }
    }

    /// ``deleteAll(_:)`` in a transaction of its own.
    /// - Returns: how many rows were deleted.
    /// - Throws: as ``deleteAll(_:)``.
    @discardableResult
    public func deleteAll(_ writer: some AsyncDatabaseWriter) async throws -> Int {
        try await writer.write { db in try self.deleteAll(db) }
    }

    /// ``updateAll(_:_:)-(DatabaseConnection,[ColumnAssignment])`` in a transaction of its own.
    /// - Returns: how many rows were updated.
    /// - Throws: as ``updateAll(_:_:)-(DatabaseConnection,ColumnAssignment...)``.
    @discardableResult
    public func updateAll(_ writer: some AsyncDatabaseWriter, _ assignments: ColumnAssignment...) async throws -> Int {
        try await updateAll(writer, assignments)
    }

    /// ``updateAll(_:_:)-(DatabaseConnection,[ColumnAssignment])`` in a transaction of its own, the assignments in an array.
    /// - Returns: how many rows were updated.
    /// - Throws: as ``updateAll(_:_:)-(DatabaseConnection,ColumnAssignment...)``.
    @discardableResult
    public func updateAll(_ writer: some AsyncDatabaseWriter, _ assignments: [ColumnAssignment]) async throws -> Int {
        try await writer.write { db in try self.updateAll(db, assignments) }
    }
}
