import Foundation

/// The `where:` dictionary forms for values of any type the record encoder stores, on either engine (they take
/// `some DatabaseConnection`): a RawRepresentable enum
/// (`where: ["genre": Genre.mystery]`), a Date, UUID, Decimal, URL, Data, Bool or integer of any width, and
/// Optionals of them, each compared in the form `save()` writes it.
///
/// These overloads take `Encodable` values, which every property type of a `Codable` record already is, so an
/// enum needs no conformance of its own. They are disfavored: a dictionary whose values are all
/// ``SQLiteValueConvertible`` (`["name": "Paris"]`, `["country_id": id]`) still resolves to the forms that
/// take those, and the two give the same SQL and the same stored forms.
///
/// Each value is converted as the record type's ``Record/recordEncoder`` converts a property: its date
/// strategy (the default UTC text `YYYY-MM-DD HH:MM:SS.SSS`, or unix seconds, ...), an enum's raw value,
/// Decimal's rule (INTEGER, REAL or TEXT by value, see <doc:ValuesAndCoding>), a URL's absolute string. A
/// UUID matches its three stored forms (lowercase text, uppercase text, 16-byte BLOB), a nil value `IS NULL`.
/// A value that encodes to several values (a struct, an array) is compared as `save()` stores it: the record
/// encoder's JSON text on SQLite, a PostgreSQL array or JSONB on PostgreSQL.
extension Record {
    /// ``fetch(_:where:orderBy:limit:offset:)`` for values of any stored type:
    /// `City.fetch(db, where: ["genre": Genre.mystery])`.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value no column can hold
    ///   (a NaN, an integer above `Int64.max`), and what ``fetch(_:where:orderBy:limit:offset:)`` throws.
    @_disfavoredOverload
    public static func fetch(
        _ db: some DatabaseConnection, where conditions: [String: (any Encodable)?] = [:],
        orderBy ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil
    ) throws -> [Self] {
        try db.fetchRecords(Self.self, where: conditions, orderBy: ordering, limit: limit, offset: offset)
    }

    /// ``fetchOne(_:where:orderBy:)`` for values of any stored type.
    /// - Throws: as the `Database` form.
    @_disfavoredOverload
    public static func fetchOne(
        _ db: some DatabaseConnection, where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try db.fetchRecords(Self.self, where: conditions, orderBy: ordering, limit: 1, offset: nil).first
    }

    /// ``count(_:where:)`` for values of any stored type.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value no column can
    ///   hold, and what ``count(_:where:)`` throws.
    @_disfavoredOverload
    public static func count(
        _ db: some DatabaseConnection, where conditions: [String: (any Encodable)?] = [:]
    ) throws -> Int {
        try db.countRecords(Self.self, where: conditions)
    }

    /// ``deleteAll(_:where:)`` for values of any stored type.
    /// - Returns: how many rows were deleted.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value no column can hold
    ///   (nothing is deleted), and what ``deleteAll(_:where:)`` throws.
    @_disfavoredOverload
    @discardableResult
    public static func deleteAll(
        _ db: some DatabaseConnection, where conditions: [String: (any Encodable)?] = [:]
    ) throws -> Int {
        try db.deleteRecords(Self.self, where: conditions)
    }

    /// The fetch for values of any stored type through the default queue (``RecordStore``).
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public static func fetch(
        where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering] = [], limit: Int? = nil,
        offset: Int? = nil
    ) throws -> [Self] {
        let request = try request(equalities: filterValues(conditions), orderBy: ordering, limit: limit, offset: offset)
        return try RecordStore.defaultQueue().read { db in try request.fetch(db) }
    }

    /// The fetchOne for values of any stored type through the default queue (``RecordStore``).
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public static func fetchOne(
        where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        let request = try request(equalities: filterValues(conditions), orderBy: ordering, limit: 1)
        return try RecordStore.defaultQueue().read { db in try request.fetch(db).first }
    }

    /// The count for values of any stored type through the default queue (``RecordStore``).
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public static func count(where conditions: [String: (any Encodable)?]) throws -> Int {
        let request = try request(equalities: filterValues(conditions))
        return try RecordStore.defaultQueue().read { db in try request.count(db) }
    }

    /// The deleteAll for values of any stored type through the default queue (``RecordStore``).
    /// - Returns: how many rows were deleted.
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    @discardableResult
    public static func deleteAll(where conditions: [String: (any Encodable)?]) throws -> Int {
        let request = try request(equalities: filterValues(conditions))
        return try RecordStore.defaultQueue().write { db in try request.deleteAll(db) }
    }

    /// Each condition as the stored forms that match it, converted by the record type's encoder.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value that encodes to a
    ///   container, or that no SQLite value holds exactly (a `UInt64` above `Int64.max`).
    static func filterValues(_ conditions: [String: (any Encodable)?]) throws -> [String: FilterValue] {
        var binding = RecordRequestBinding<Self>()
        var values: [String: FilterValue] = [:]
        values.reserveCapacity(conditions.count)
        for (column, value) in conditions {
            guard let value else {
                values[column] = FilterValue(.null)
                continue
            }
            values[column] = FilterValue(forms: try binding.encodedForms(value, column: column))
        }
        return values
    }

    /// The request of the `where:` forms from converted values.
    static func request(
        equalities: [String: FilterValue], orderBy ordering: [Ordering] = [], limit: Int? = nil,
        offset: Int? = nil
    ) -> QueryInterfaceRequest<Self> {
        var request = equalities.isEmpty ? all() : all().filter(equalities: equalities)
        request.orderings = ordering.map(\.sqlOrdering)
        request.limitCount = limit
        request.offsetCount = offset
        return request
    }
}

/// The `async` twins, for `Sendable` records: the values are converted before the call waits for the queue.
extension Record where Self: Sendable {
    /// the `Database` form of the fetch for values of any stored type, awaiting the queue.
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public static func fetch(
        where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering] = [], limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [Self] {
        let values = try filterValues(conditions)
        return try await RecordStore.defaultQueue().read { db in
            try request(equalities: values, orderBy: ordering, limit: limit, offset: offset).fetch(db)
        }
    }

    /// The fetchOne for values of any stored type, awaiting the queue.
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public static func fetchOne(
        where conditions: [String: (any Encodable)?], orderBy ordering: [Ordering] = []
    ) async throws -> Self? {
        let values = try filterValues(conditions)
        return try await RecordStore.defaultQueue().read { db in
            try request(equalities: values, orderBy: ordering, limit: 1).fetch(db).first
        }
    }

    /// The count for values of any stored type, awaiting the queue.
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    public static func count(where conditions: [String: (any Encodable)?]) async throws -> Int {
        let values = try filterValues(conditions)
        return try await RecordStore.defaultQueue().read { db in try request(equalities: values).count(db) }
    }

    /// The deleteAll for values of any stored type, awaiting the queue.
    /// - Returns: how many rows were deleted.
    /// - Throws: as the `Database` form, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @_disfavoredOverload
    @discardableResult
    public static func deleteAll(where conditions: [String: (any Encodable)?]) async throws -> Int {
        let values = try filterValues(conditions)
        return try await RecordStore.defaultQueue().write { db in try request(equalities: values).deleteAll(db) }
    }
}

extension FilterValue {
    /// A value with the stored forms a record type's encoder gave; empty matches NULL.
    init(forms: [SQLiteValue]) {
        self.forms = forms
    }
}
