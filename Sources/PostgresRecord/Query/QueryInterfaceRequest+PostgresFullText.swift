#if PostgreSQL
import Foundation
import SQLiteRecord

/// Running a full-text search on PostgreSQL for records and excerpts.
extension QueryInterfaceRequest where Base: FullTextSearchable {
    /// The records a search request selects, each with an excerpt of one indexed column (`ts_headline`), in
    /// the request's order (best match first by default). The request's selection, if any, is not used:
    /// whole records are read. See <https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-HEADLINE>.
    ///
    /// ```swift
    /// let matches = try Place.search("sao paulo").fetchMatches(connection, excerpt: .highlight(Column("name"), open: "<b>", close: "</b>"))
    /// // matches[0].excerpt: "<b>São</b> <b>Paulo</b>"
    /// ```
    ///
    /// A snippet is `ts_headline`'s best fragment of at most `tokens` words; PostgreSQL marks no cut, so the
    /// snippet's `ellipsis` is not written.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` when the request is not a search (no
    ///   ``matching(_:)``), ``RecordError/unknownColumn(table:column:columns:)`` for an excerpt of a column
    ///   the index does not hold, and what `fetch(_:)` throws.
    public func fetchMatches(_ connection: PostgresConnection, excerpt: FullTextExcerpt) throws -> [FullTextMatch<Base>] {
        let (sql, arguments, shape) = try selectingExcerpt(excerpt).postgresSQL(connection, .select)
        let rows = try connection.query(sql, arguments)
        let records = try Base.decodeAll(rows, shape: shape)
        let excerptColumn = rows.columnNames.count - 1
        return try records.indices.map { row in
            FullTextMatch(record: records[row], excerpt: try rows[row].decode(String?.self, at: excerptColumn) ?? "")
        }
    }
}

extension QueryInterfaceRequest where Base: FullTextSearchable & Sendable {
    /// ``fetchMatches(_:excerpt:)-(PostgresConnection,_)`` in a read-only transaction.
    /// - Throws: as ``fetchMatches(_:excerpt:)-(PostgresConnection,_)``.
    public func fetchMatches(_ pool: PostgresPool, excerpt: FullTextExcerpt) async throws -> [FullTextMatch<Base>] {
        try await pool.read { connection in try self.fetchMatches(connection, excerpt: excerpt) }
    }
}
#endif
