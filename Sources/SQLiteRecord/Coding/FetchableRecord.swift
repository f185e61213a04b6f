/// A `Decodable` type that can also initialize itself from a row, reading columns by index or by name: the
/// opt-in fast path of every fetch, on every engine.
///
/// `Decodable` stays the contract: a record reads through its `init(from:)` unless it adopts this protocol,
/// and then every fetch of the type uses ``init(row:)`` instead: `fetch`, `fetchOne(_:id:)`, the raw SQL
/// fetches, ``RowDecoder``, and every request, cursor, association and observation built on them. The
/// reads convert exactly as the decoder does, with the same `DecodingError`s (see ``FetchedRow``), under the
/// type's own ``RowDecoder`` strategies (``Record/rowDecoder`` for a record).
///
/// One initializer serves both engines: with the `PostgreSQL` trait, PostgresRecord's fetches (on a
/// connection, through a pool, `PostgresRows.decode(_:)`, requests, joins and eager loads) call the same
/// ``init(row:)``, with a ``FetchedRow`` over the server's result that converts by PostgreSQL's value table.
///
/// A synthesized `init(from:)` reads every field through the standard library's type-erased keyed
/// container, which costs about a third more than a hand-written loop before the decoder does any work;
/// `init(row:)` reads each column with one call. See <doc:Performance> for the figures.
///
/// ```swift
/// struct Planet: Record, FetchableRecord {
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
/// extension Planet {  // in an extension, so the memberwise initializer stays
///     init(row: borrowing FetchedRow) throws {
///         id = try row["id", as: Int64?.self]
///         name = try row["name", as: String.self]
///         discoveredAt = try row["discovered_at", as: Date?.self]
///     }
/// }
/// ```
///
/// Keep the two initializers in step with ``checkRowInitializer(_:sql:arguments:decoder:)`` in a test: it
/// decodes rows both ways and throws ``RowInitializerMismatch`` where they differ.
public protocol FetchableRecord: Decodable {
    /// Reads the values of the fetched row: ``FetchedRow``'s subscripts by column index or name, each with
    /// the type to read.
    ///
    /// The row is lent for the call only; it cannot be kept (``FetchedRow`` cannot be copied).
    /// - Throws: `DecodingError` from the row's reads (naming the column, the stored value and the type),
    ///   or any error of your own, which the fetch passes on.
    init(row: borrowing FetchedRow) throws

    /// Appends the record ``init(row:)`` makes from `row` to `records`: how a fetch of many rows adds each
    /// one. An implementation detail of the fetches; do not implement it or call it.
    ///
    /// A requirement with an inlinable default, so that the default is compiled for your type in your module:
    /// there the append is specialized, where the library's fetches are generic and would append through the
    /// standard library's unspecialized generic code (<doc:Performance> has the figure).
    /// - Throws: what ``init(row:)`` throws.
    static func _appendRow(_ row: borrowing FetchedRow, to records: inout [Self]) throws
}

extension FetchableRecord {
    /// Appends `Self(row: row)` to `records` (see the requirement).
    @inlinable
    public static func _appendRow(_ row: borrowing FetchedRow, to records: inout [Self]) throws {
        records.append(try Self(row: row))
    }
}
