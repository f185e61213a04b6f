#if PostgreSQL
import Foundation
import SQLiteRecord

/// A `Decodable` type that can also initialize itself from a PostgreSQL row, reading columns by index or by
/// name: the opt-in fast path of every PostgreSQL fetch, as `FetchableRecord` is on SQLite.
///
/// `Decodable` stays the contract: a record reads through its `init(from:)` unless it adopts this protocol,
/// and then every PostgreSQL fetch of the type uses ``init(row:)`` instead: `fetch`, `fetchOne(_:id:)`,
/// `fetch(_:where:orderBy:limit:offset:)`, the raw SQL fetches, requests, joins and eager loads, the pool's
/// calls, and ``PostgresRows/decode(_:)``. The reads convert exactly as the PostgreSQL decoder does (the value
/// table of <doc:PostgreSQL>), nested values through the record's `Record.rowDecoder` JSON
/// decoder, with the same `DecodingError`s (see ``PostgresFetchedRow``). Writes still go through `Encodable`.
///
/// A type can adopt both this protocol and SQLite's `FetchableRecord`: the two initializers
/// take different row types, and each engine calls its own.
///
/// ```swift
/// struct Planet: Record {
///     var id: Int64?
///     var name: String
///     var discoveredAt: Date?
///     static let tableName = "planets"
///     enum CodingKeys: String, CodingKey {
///         case id, name
///         case discoveredAt = "discovered_at"
///     }
/// }
///
/// extension Planet: PostgresFetchableRecord {  // in an extension, so the memberwise initializer stays
///     init(row: borrowing PostgresFetchedRow) throws {
///         id = try row["id", as: Int64?.self]
///         name = try row["name", as: String.self]
///         discoveredAt = try row["discovered_at", as: Date?.self]
///     }
/// }
/// ```
public protocol PostgresFetchableRecord: Decodable {
    /// Reads the values of the fetched row: ``PostgresFetchedRow``'s subscripts by column index or name, each
    /// with the type to read.
    ///
    /// The row is lent for the call only; it cannot be kept (``PostgresFetchedRow`` cannot be copied).
    /// - Throws: `DecodingError` from the row's reads (naming the column, the stored value and the type), or
    ///   any error of your own, which the fetch passes on.
    init(row: borrowing PostgresFetchedRow) throws

    /// Appends the record ``init(row:)`` makes from `row` to `records`: how a fetch of many rows adds each
    /// one. An implementation detail of the fetches; do not implement it or call it.
    ///
    /// A requirement with an inlinable default, so that the default is compiled for your type in your module,
    /// where the append is specialized; the library's fetches are generic and would append through the
    /// standard library's unspecialized code.
    /// - Throws: what ``init(row:)`` throws.
    static func _appendRow(_ row: borrowing PostgresFetchedRow, to records: inout [Self]) throws
}

extension PostgresFetchableRecord {
    /// Appends `Self(row: row)` to `records` (see the requirement).
    @inlinable
    public static func _appendRow(_ row: borrowing PostgresFetchedRow, to records: inout [Self]) throws {
        records.append(try Self(row: row))
    }
}

/// The row initializer's side of ``PostgresRowDecoding``: the decoders of a result ask here first, once per
/// fetch (once per row for a join's or an eager load's), whether the type they decode has a row initializer.
///
/// The fetch's `T` and the record's `R` are one type the compiler knows as two; the values cross with
/// ``SameTypeCast``, which checks that they are one type. An array crosses once per fetch (one retain), a
/// record of a lookup by key once per call.
enum PostgresRowInitializer {
    /// The row initializer's type when `T` has one.
    @inline(__always)
    static func type<T>(of type: T.Type) -> (any PostgresFetchableRecord.Type)? {
        T.self as? any PostgresFetchableRecord.Type
    }

    /// `R(row:)` on `reader`'s current row, as a `T` (which is `R`).
    /// - Throws: what `init(row:)` throws.
    static func make<R: PostgresFetchableRecord, T>(
        _ type: R.Type, _ reader: PostgresRowReader, as: T.Type
    ) throws -> T {
        try SameTypeCast.cast(checked: R(row: PostgresFetchedRow(reader: reader)), to: T.self)
    }

    /// Every row of `reader`'s rows through `R(row:)`, as `[T]` (`T` is `R`).
    /// - Throws: the first row's error.
    static func makeAll<R: PostgresFetchableRecord, T>(
        _ type: R.Type, _ reader: PostgresRowReader, as: T.Type
    ) throws -> [T] {
        var values: [R] = []
        let count = reader.rows.count
        values.reserveCapacity(count)
        for row in 0..<count {
            reader.row = row
            try R._appendRow(PostgresFetchedRow(reader: reader), to: &values)
        }
        return try SameTypeCast.cast(checked: values, to: [T].self)
    }
}
#endif
