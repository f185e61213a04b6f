/// The write calls that take column names, taking the record's coding keys or ``Column``s instead of
/// strings, so that a misspelled property does not compile:
///
/// ```swift
/// try city.update(db, columns: [City.CodingKeys.population, .name])
/// try city.update(db, columns: [Column("population")])
/// ```
///
/// A coding key names the column the record's encoder writes for it, through its key strategy
/// (``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase`` turns `countryCode` into `country_code`), as
/// ``Column/init(_:)-9ppdy`` does in requests; a `Column("name")` is the column called `name`, as the string
/// forms take it. Each call forwards to its string form, which checks the names and throws as it documents.
/// The ``Column`` forms are disfavored overloads, so that `columns: []` and `onConflict: nil` still mean the
/// string forms.
extension Record {
    /// The column names `columns` stand for in this record type's table.
    static func columnNames(_ columns: [any ColumnExpression]) -> [String] {
        var binding = RecordRequestBinding<Self>()
        return columns.map { binding.name(of: $0.column) }
    }

    /// The columns the record type's encoder writes for `keys`.
    static func columnNames<Key: CodingKey>(_ keys: [Key]) -> [String] {
        columnNames(keys.map { Column($0) })
    }

    /// `update(_:columns:)` with the columns named by coding keys:
    /// `update(db, columns: [City.CodingKeys.population])`.
    /// - Throws: as `update(_:columns:)`.
    public func update<Key: CodingKey>(_ db: Database, columns: [Key]) throws {
        try update(db, columns: Self.columnNames(columns))
    }

    /// `update(_:columns:)` with the columns as ``Column``s (or coding keys declared
    /// ``ColumnExpression``).
    /// - Throws: as `update(_:columns:)`.
    @_disfavoredOverload
    public func update(_ db: Database, columns: [any ColumnExpression]) throws {
        try update(db, columns: Self.columnNames(columns))
    }

    /// `update(columns:)` with the columns named by coding keys.
    /// - Throws: as `update(_:columns:)`, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public func update<Key: CodingKey>(columns: [Key]) throws {
        try update(columns: Self.columnNames(columns))
    }

    /// `update(columns:)` with the columns as ``Column``s.
    /// - Throws: as `update(_:columns:)`, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public func update(columns: [any ColumnExpression]) throws {
        try update(columns: Self.columnNames(columns))
    }

    /// ``insertAndFetch(_:columns:)`` reading back the columns of coding keys.
    /// - Throws: as ``insertAndFetch(_:columns:)``.
    public mutating func insertAndFetch<Key: CodingKey>(_ db: Database, columns: [Key]) throws {
        try insertAndFetch(db, columns: Self.columnNames(columns))
    }

    /// ``insertAndFetch(_:columns:)`` reading back ``Column``s.
    /// - Throws: as ``insertAndFetch(_:columns:)``.
    @_disfavoredOverload
    public mutating func insertAndFetch(_ db: Database, columns: [any ColumnExpression]) throws {
        try insertAndFetch(db, columns: Self.columnNames(columns))
    }

    /// ``updateAndFetch(_:columns:)`` reading back the columns of coding keys.
    /// - Throws: as ``updateAndFetch(_:columns:)``.
    public mutating func updateAndFetch<Key: CodingKey>(_ db: Database, columns: [Key]) throws {
        try updateAndFetch(db, columns: Self.columnNames(columns))
    }

    /// ``updateAndFetch(_:columns:)`` reading back ``Column``s.
    /// - Throws: as ``updateAndFetch(_:columns:)``.
    @_disfavoredOverload
    public mutating func updateAndFetch(_ db: Database, columns: [any ColumnExpression]) throws {
        try updateAndFetch(db, columns: Self.columnNames(columns))
    }

    /// ``upsert(_:onConflict:updating:)`` with the conflict target and the updated columns named by coding
    /// keys (`upsert(db, onConflict: [Country.CodingKeys.iso])`); nil as in the string form.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsert(_:onConflict:updating:)``.
    @discardableResult
    public mutating func upsert<Key: CodingKey>(
        _ db: Database, onConflict conflictColumns: [Key]?, updating columns: [Key]? = nil
    ) throws -> UpsertOutcome {
        try upsert(
            db, onConflict: conflictColumns.map(Self.columnNames), updating: columns.map(Self.columnNames))
    }

    /// ``upsert(_:onConflict:updating:)`` with the columns as ``Column``s.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsert(_:onConflict:updating:)``.
    @_disfavoredOverload
    @discardableResult
    public mutating func upsert(
        _ db: Database, onConflict conflictColumns: [any ColumnExpression]?,
        updating columns: [any ColumnExpression]? = nil
    ) throws -> UpsertOutcome {
        try upsert(
            db, onConflict: conflictColumns.map(Self.columnNames), updating: columns.map(Self.columnNames))
    }

    /// ``upsert(onConflict:updating:)`` through the default queue, with the columns named by coding keys.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsert(_:onConflict:updating:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func upsert<Key: CodingKey>(
        onConflict conflictColumns: [Key]?, updating columns: [Key]? = nil
    ) throws -> UpsertOutcome {
        try upsert(onConflict: conflictColumns.map(Self.columnNames), updating: columns.map(Self.columnNames))
    }
}

/// The `async` twins, for `Sendable` records.
extension Record where Self: Sendable {
    /// `update(columns:)`, awaiting the queue, with the columns named by coding keys.
    /// - Throws: as `update(_:columns:)`, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public func update<Key: CodingKey>(columns: [Key]) async throws {
        try await update(columns: Self.columnNames(columns))
    }

    /// `update(columns:)`, awaiting the queue, with the columns as ``Column``s.
    /// - Throws: as `update(_:columns:)`, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public func update(columns: [any ColumnExpression]) async throws {
        try await update(columns: Self.columnNames(columns))
    }

    /// ``upsert(onConflict:updating:)``, awaiting the queue, with the columns named by coding keys.
    /// - Returns: whether the row was inserted, updated, or left unchanged.
    /// - Throws: as ``upsert(_:onConflict:updating:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func upsert<Key: CodingKey>(
        onConflict conflictColumns: [Key]?, updating columns: [Key]? = nil
    ) async throws -> UpsertOutcome {
        try await upsert(onConflict: conflictColumns.map(Self.columnNames), updating: columns.map(Self.columnNames))
    }
}
